// `switchboard doctor [--json]`: how each server's command resolves, and the state of each client.
import { runDoctor } from '../../engine/clients/doctor.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';
import { terminalSafe as t } from '../../../src-shared/terminal-text.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseFlags('doctor', args, { json: { type: 'boolean' } });
  const r = await runDoctor({ home: ctx.home, env: ctx.env, platform: ctx.platform });
  const failing = r.configProblems.length > 0 || r.servers.some((s) => !s.ok && !s.disabled);
  if (values.json) {
    ctx.stdout(JSON.stringify(r, null, 2) + '\n');
    return failing ? 1 : 0;
  }
  const out: string[] = [`Config: ${r.configFile}`];
  for (const p of r.configProblems) out.push(`  problem: ${t(p)}`);
  out.push('', 'Servers (local commands, resolved as the engine runs them):');
  if (r.servers.length === 0) out.push('  (none)');
  for (const s of r.servers) {
    const mark = s.ok ? 'ok  ' : s.disabled ? 'off ' : 'FAIL';
    out.push(`  ${mark} ${t(s.name)}: ${t(s.command)}${s.resolved ? ` → ${t(s.resolved)}` : ''}${s.disabled ? ' (disabled)' : ''}`);
    if (s.node) out.push(`       node: ${t(s.node.path ?? 'not found')}${s.node.version ? ` (${t(s.node.version)})` : ''}`);
    for (const a of s.advice) out.push(`       ${t(a)}`);
  }
  out.push('', 'Clients:');
  for (const c of r.clients) {
    const state = c.installed ? (c.profiles.length ? `connected: ${c.profiles.join(', ')}` : 'installed, not connected') : 'not installed';
    out.push(`  ${c.id.padEnd(15)} ${t(state)}`, `  ${''.padEnd(15)} ${c.kind === 'copy-paste' ? `copy-paste: switchboard connect ${c.id} --profile NAME prints the steps` : t(c.path)}`);
    for (const l of c.legacy ?? []) {
      out.push(`  ${''.padEnd(15)} also loads the older ${t(l.file)}`);
      if (l.entries.length) {
        out.push(`  ${''.padEnd(15)} it still has ${t(l.entries.join(', '))} from an earlier connect: Switchboard now writes ${t(c.path)}, so remove ${l.entries.length === 1 ? 'that entry' : 'those entries'} from the older file by hand, or ${t(c.displayName)} runs them twice`);
      }
    }
    if (c.problem) out.push(`  ${''.padEnd(15)} problem: ${t(c.problem)}`);
  }
  ctx.stdout(out.join('\n') + '\n');
  return failing ? 1 : 0;
}
