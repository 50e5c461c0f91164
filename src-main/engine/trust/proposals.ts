// Servers proposed from outside (docs/configuration.md): an entry carrying `proposedBy` was written by an
// install link or another program, not by the user. It waits in `needs-approval` — its command
// never runs — until the user approves it, which removes the key; the entry then runs as written.
import type { ServerProposal } from '../../../src-shared/api.ts';
import type { ServerConfig } from '../../../src-shared/config/schema.ts';
import { configPointer } from '../../../src-shared/config/paths.ts';
import { terminalSafe as t } from '../../../src-shared/terminal-text.ts';
import { isCodeLoadingEnv } from './code-loading-env.ts';

/** Who proposed the server, or undefined when the user wrote it (it runs as written). */
export function proposedBy(config: Pick<ServerConfig, 'proposedBy'>): string | undefined {
  return typeof config.proposedBy === 'string' && config.proposedBy !== '' ? config.proposedBy : undefined;
}

/** What approving the server would run, for the app's approval and `switchboard approve`. */
export function proposalOf(config: ServerConfig): ServerProposal | undefined {
  const by = proposedBy(config);
  if (by === undefined) return undefined;
  const p: ServerProposal = { by };
  if (config.command !== undefined) {
    p.command = config.command;
    p.args = [...(config.args ?? [])];
    if (config.cwd !== undefined) p.cwd = config.cwd;
    if (config.env && Object.keys(config.env).length) p.env = Object.keys(config.env);
  }
  if (config.url !== undefined) {
    p.url = config.url;
    if (config.headers && Object.keys(config.headers).length) p.headers = Object.keys(config.headers);
  }
  return p;
}

/** The config path of the key whose removal is the approval (a JSON Pointer: names may hold dots). */
export function proposalPointer(server: string): string {
  return configPointer('servers', server, 'proposedBy');
}

/** The proposal as lines a terminal shows before the user says yes: exactly what will run. */
export function proposalLines(name: string, p: ServerProposal): string[] {
  // JSON for the parts that run: quotes and spaces inside an argument stay visible.
  const out = [`"${t(name)}" was proposed by ${t(p.by)}. Approving it runs:`];
  if (p.command !== undefined) {
    out.push(`  command: ${t(JSON.stringify(p.command))}`, `  args:    ${t(JSON.stringify(p.args ?? []))}`);
    if (p.cwd !== undefined) out.push(`  cwd:     ${t(JSON.stringify(p.cwd))}`);
    if (p.env) out.push(`  env:     ${t(p.env.join(', '))}`);
    for (const name of (p.env ?? []).filter(isCodeLoadingEnv)) out.push(`  WARNING: env ${t(name)} changes what code the command loads.`);
  }
  if (p.url !== undefined) {
    out.push(`  url:     ${t(p.url)}`);
    if (p.headers) out.push(`  headers: ${t(p.headers.join(', '))}`);
  }
  return out;
}
