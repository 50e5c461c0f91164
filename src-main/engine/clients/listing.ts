// Connect that proves it worked: after an entry is written, a client that has its own listing
// command (`claude mcp list`, `gemini mcp list`, …) and is installed is asked whether it sees the
// entry, and the answer is put in plain words. The command runs without a shell, with the env
// connect used, bounded in time and output; what it prints is only read, never shown whole.
// A listing that probes starts every listed server: it runs in a process group of its own (a
// job tree on Windows), and nothing it started outlives it, whether it ends or is timed out.
import { spawn } from 'node:child_process';
import { escapeRegExp } from '../../../src-shared/regexp.ts';
import { terminalSafe } from '../../../src-shared/terminal-text.ts';
import type { ClientCheck } from '../../../src-shared/api.ts';
import { killTree } from '../platform/process-tree.ts';
import { findOnPath } from './connector.ts';
import type { ClientEnv } from './client-specs.ts';

/** How long a listing may take: Claude Code and Gemini CLI start every listed server to check it. */
export const LISTING_TIMEOUT_MS = 30_000;
/** What is read of a listing's output. */
const LISTING_MAX_BYTES = 1024 * 1024;

/** A client's own command that lists its MCP servers, and whether it also connects to each one. */
export interface ListingCommand {
  program: string;
  args: readonly string[];
  /** The listing starts each server and says whether it connected (else it only lists them). */
  probes: boolean;
}

/** Checked against each CLI's `mcp list` (Claude Code, Gemini CLI, Qwen Code and opencode connect to each server; Codex and auggie list them). */
export const LISTINGS: Readonly<Record<string, ListingCommand>> = {
  'claude-code': { program: 'claude', args: ['mcp', 'list'], probes: true },
  'gemini-cli': { program: 'gemini', args: ['mcp', 'list'], probes: true },
  'qwen-code': { program: 'qwen', args: ['mcp', 'list'], probes: true },
  opencode: { program: 'opencode', args: ['mcp', 'list'], probes: true },
  'kilo-cli': { program: 'kilo', args: ['mcp', 'list'], probes: true },
  codex: { program: 'codex', args: ['mcp', 'list'], probes: false },
  auggie: { program: 'auggie', args: ['mcp', 'list'], probes: false },
};

const FAILED = /\b(disconnected|failed|failure|error|unable|not connected|timed? ?out)\b|✗|✘|×/i;
const CONNECTED = /\bconnected\b|✓|✔/i;
const DISABLED = /\bdisabled\b/i;

/**
 * What a listing's output says of one entry: the line naming it (as a whole word), read for
 * connected / failed words when the listing probes servers.
 */
export function readListing(output: string, entry: string, probes: boolean): Pick<ClientCheck, 'outcome' | 'line'> {
  const named = new RegExp(`(^|[^A-Za-z0-9_-])${escapeRegExp(entry)}($|[^A-Za-z0-9_-])`);
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n/);
  const i = lines.findIndex((l) => named.test(l));
  if (i < 0) return { outcome: 'not-listed' };
  // Some listings put the status on the line after the name (opencode's tree, Gemini's wrapped lines).
  const line = [lines[i]!, lines[i + 1] ?? ''].join(' ').replace(/\s+/g, ' ').trim();
  const short = terminalSafe(line.length > 200 ? `${line.slice(0, 200)}…` : line);
  if (DISABLED.test(lines[i]!)) return { outcome: 'disabled', line: short };
  if (!probes) return { outcome: 'listed', line: short };
  if (FAILED.test(lines[i]!)) return { outcome: 'failed', line: short };
  if (CONNECTED.test(lines[i]!)) return { outcome: 'connected', line: short };
  if (FAILED.test(line)) return { outcome: 'failed', line: short };
  return { outcome: CONNECTED.test(line) ? 'connected' : 'listed', line: short };
}

/**
 * Runs the client's listing (when it has one and it is installed) and says whether it sees the
 * entry; undefined when there is nothing to run.
 */
export async function checkListing(
  clientId: string,
  displayName: string,
  entry: string,
  e: ClientEnv & { cwd?: string },
  timeoutMs = LISTING_TIMEOUT_MS,
): Promise<ClientCheck | undefined> {
  const listing = LISTINGS[clientId];
  if (!listing) return undefined;
  const program = findOnPath(listing.program, e);
  // A Windows .cmd/.bat would need cmd.exe, which Switchboard never starts with arguments.
  if (!program || (e.platform === 'win32' && !/\.exe$/i.test(program))) return undefined;
  const command = `${listing.program} ${listing.args.join(' ')}`;
  const result = await runListing(program, [...listing.args], { env: e.env, cwd: e.cwd, timeoutMs });
  const seen = readListing(result.output, entry, listing.probes);
  const base = { command, ...seen };
  const q = `"${entry}"`;
  if (seen.outcome === 'not-listed' && result.error === 'timeout')
    return { ...base, outcome: 'unknown', message: `Could not check: "${command}" did not answer within ${Math.round(timeoutMs / 1000)} seconds. Start a new ${displayName} session to see the entry.` };
  if (seen.outcome === 'not-listed' && result.error)
    return { ...base, outcome: 'unknown', message: `Could not check: "${command}" failed (${terminalSafe(result.detail ?? '').slice(0, 200)}). Start a new ${displayName} session to see the entry.` };
  switch (seen.outcome) {
    case 'connected':
      return { ...base, message: `Checked: ${displayName} lists ${q} and connected to it ("${command}").` };
    case 'listed':
      return { ...base, message: `Checked: ${displayName} lists ${q} ("${command}"); it starts it in its next session.` };
    case 'disabled':
      return { ...base, message: `Checked: ${displayName} lists ${q} but has it switched off here ("${command}": ${seen.line}).` };
    case 'failed':
      return { ...base, message: `Checked: ${displayName} lists ${q} but could not start it ("${command}": ${seen.line}). Run "switchboard doctor" to see why.` };
    default:
      return { ...base, message: `Checked: "${command}" does not list ${q}: ${displayName} may read another file. Run "switchboard doctor", or see docs/clients.md.` };
  }
}

interface ListingRun {
  output: string;
  error?: 'timeout' | 'failed';
  detail?: string;
}

/** Runs a listing to its end or `timeoutMs`, then kills whatever it started that is still running. */
function runListing(program: string, args: string[], opts: { env: NodeJS.ProcessEnv; cwd: string | undefined; timeoutMs: number }): Promise<ListingRun> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { env: opts.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true });
    const out = { stdout: '', stderr: '' };
    let bytes = 0;
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream].setEncoding('utf8');
      child[stream].on('data', (text: string) => {
        // Read up to the cap, then drained unread: a listing that floods must not block on its pipe.
        if (bytes >= LISTING_MAX_BYTES) return;
        bytes += Buffer.byteLength(text);
        out[stream] += text;
      });
    }
    let ended: Omit<ListingRun, 'output'> | undefined;
    let settled = false;
    let tree: Promise<void> | undefined;
    // Once: when the listing ends (a server it started may live on, holding its pipes) or times out.
    const killAll = () => (tree ??= child.pid === undefined ? Promise.resolve() : killTree(child.pid));
    const finish = (r: Omit<ListingRun, 'output'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void killAll().then(() => resolve({ output: `${out.stdout}\n${out.stderr}`, ...r }));
    };
    // Also bounds the wait for the pipes after the listing ended: a process that left its group may hold them.
    const timer = setTimeout(() => finish(ended ?? { error: 'timeout' }), opts.timeoutMs);
    child.once('error', (err: NodeJS.ErrnoException) => {
      if (child.pid === undefined) finish({ error: 'failed', detail: err.code === 'ENOENT' ? 'not found' : err.message });
    });
    child.once('exit', (code, signal) => {
      // A listing that exits non-zero may still have listed the entry (some exit 1 when a server failed).
      ended = code === 0 ? {} : { error: 'failed', detail: signal ? `ended by ${signal}` : `exited with code ${code}` };
      void killAll();
    });
    // Everything it printed has been read once its pipes close.
    child.once('close', () => finish(ended ?? { error: 'failed', detail: 'ended without an exit status' }));
  });
}
