// `switchboard status [--json]`: never starts an engine; reports on config.json either way.
import type { StatusReport } from '../../../src-shared/api.ts';
import { validateConfigText } from '../../../src-shared/config/validate.ts';
import { readHomeFileSync } from '../../shim/home-file.mjs';
import { OWN_FILE_READ } from '../../engine/config/atomic-file.ts';
import { decodeUtf8 } from '../../engine/config/store.ts';
import { homePaths } from '../../engine/platform/home.ts';
import { proposalOf } from '../../engine/trust/proposals.ts';
import { SocketControlClient } from '../engine-client.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';
import { terminalSafe as t } from '../../../src-shared/terminal-text.ts';
import { clientSurfaceLine } from '../../../src-shared/client-limits.ts';
import { clientDisplayName } from '../../../src-shared/client-names.ts';
import { appSettings } from '../../../src-shared/config/app-settings.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseFlags('status', args, { json: { type: 'boolean' } });
  const paths = homePaths(ctx.home);
  const client = await SocketControlClient.connect(paths);
  let report: StatusReport;
  if (client) {
    try {
      report = await client.call('status', {});
    } finally {
      client.close();
    }
  } else {
    report = offlineStatus(paths.config, ctx.home);
  }
  if (values.json) {
    ctx.stdout(JSON.stringify(report, null, 2) + '\n');
    return 0;
  }
  ctx.stdout(report.pid ? `Engine: running (pid ${report.pid})${report.http ? ` at ${report.http.url}` : ''}\n` : 'Engine: not running\n');
  // Only the owner reaches the engine's socket, so showing the token here reveals nothing new.
  if (report.http) ctx.stdout(`UI: ${report.http.url}/#token=${report.http.token}\n`);
  ctx.stdout(`Home: ${report.home}\n`);
  ctx.stdout(`Config: ${report.config.valid ? 'valid' : 'has problems'} (${report.config.file})\n`);
  for (const p of report.config.problems) {
    ctx.stdout(`  ${t(p.path || '(file)')}${p.line ? ` line ${p.line}, column ${p.column}` : ''}: ${t(p.message)}\n`);
  }
  const servers = Object.entries(report.servers);
  if (servers.length) ctx.stdout('Servers:\n');
  for (const [name, s] of servers) {
    ctx.stdout(`  ${t(name).padEnd(20)} ${t(s.state).padEnd(15)} ${String(s.tools).padStart(4)} tools${s.lastError ? `  — ${t(s.lastError)}` : ''}\n`);
    if (s.changedTools?.length) {
      ctx.stdout(`  ${''.padEnd(20)} ${s.changedTools.length} changed tool(s) withheld: ${s.changedTools.map((n) => t(n)).join(', ')} — review, then \`switchboard approve ${t(name)}\`\n`);
    }
    if (s.proposal) {
      const runs = s.proposal.command !== undefined ? [s.proposal.command, ...(s.proposal.args ?? [])].join(' ') : (s.proposal.url ?? '');
      ctx.stdout(`  ${''.padEnd(20)} proposed by ${t(s.proposal.by)}, not run yet (${t(runs)}) — review, then \`switchboard approve ${t(name)}\`\n`);
    }
    if (s.auth.state === 'needs-sign-in') ctx.stdout(`  ${''.padEnd(20)} needs you to sign in: \`switchboard login ${t(name)}\`\n`);
  }
  const profiles = Object.entries(report.profiles);
  if (profiles.length) ctx.stdout('Profiles:\n');
  for (const [name, p] of profiles) {
    ctx.stdout(`  ${t(name).padEnd(20)} ${t(p.surface).padEnd(6)} ${p.servers.map((n) => t(n)).join(', ')}${p.url ? `  ${t(p.url)}` : ''}\n`);
    for (const w of p.warnings ?? []) ctx.stdout(`  ${''.padEnd(20)} warning: ${t(w)}\n`);
  }
  // Sessions, then the 2026-07-28 HTTP clients seen lately (that revision has no sessions).
  if (report.clients.length) ctx.stdout('Clients:\n');
  for (const c of report.clients) {
    const when = c.stateless
      ? `${c.transport}, 2026-07-28, no session; last seen ${clock(c.lastSeen ?? c.since)}${c.requests !== undefined ? ` (${c.requests} request${c.requests === 1 ? '' : 's'})` : ''}`
      : `${c.transport}, ${c.era === 'modern' ? '2026-07-28' : '2025'} session since ${clock(c.since)}`;
    ctx.stdout(`  ${t(clientDisplayName(c.name, c.clientId)).padEnd(20)} ${t(c.profile).padEnd(12)} ${t(clientSurfaceLine(c))}; ${when}\n`);
  }
  return 0;
}

/** An ISO time as the local wall clock (the date too when it is not today). */
function clock(iso: string): string {
  const d = new Date(iso);
  return d.toDateString() === new Date().toDateString() ? d.toLocaleTimeString() : d.toLocaleString();
}

/** What status can say without an engine: config.json's validity and its servers and profiles. */
export function offlineStatus(file: string, home: string): StatusReport {
  let bytes: Buffer | undefined;
  try {
    bytes = readHomeFileSync(file, OWN_FILE_READ);
  } catch {
    bytes = undefined;
  }
  // Read as the engine reads it: bytes that are not UTF-8 are a problem, not U+FFFD.
  const decoded = bytes === undefined ? undefined : decodeUtf8(bytes);
  const v: ReturnType<typeof validateConfigText> | undefined =
    decoded === undefined ? undefined : 'problem' in decoded ? { ok: false, problems: [decoded.problem] } : validateConfigText(decoded.text);
  const report: StatusReport = {
    pid: null,
    version: '',
    home,
    http: null,
    servers: {},
    profiles: {},
    config: {
      valid: v ? v.ok : true,
      problems: v && !v.ok ? v.problems : [],
      file,
    },
    secrets: { store: 'none' },
    settings: appSettings(undefined),
    clients: [],
  };
  if (v?.ok) {
    report.settings = appSettings(v.config.settings);
    for (const [name, s] of Object.entries(v.config.servers)) {
      const proposal = proposalOf(s);
      report.servers[name] = {
        state: proposal ? 'needs-approval' : s.disabled ? 'disabled' : 'starting',
        tools: 0,
        lastError: proposal || s.disabled ? null : 'The engine is not running.',
        ...(proposal ? { proposal } : {}),
        auth: { state: 'none' },
        kind: s.url ? 'remote' : 'local',
        restarts: 0,
        protocol: null,
      };
    }
    for (const [name, p] of Object.entries(v.config.profiles)) {
      report.profiles[name] = { surface: p.surface ?? 'tools', servers: p.servers, tools: 0, url: null };
    }
  }
  return report;
}
