// What a server found in a client's file would run, said in words for a person (the welcome's
// import preview), and the exact command line for those who want it. Everything shown comes
// from the client's file: control, zero-width and bidi characters become escapes, so a crafted
// name or argument cannot hide or reorder what is approved.
import type { ImportServerPreview } from '../../src-shared/api.ts';
import { terminalSafe } from '../../src-shared/terminal-text.ts';

const t = (s: string) => terminalSafe(s);

/** The exact command (or address) as one line, arguments quoted where they need it. */
export function commandLine(s: ImportServerPreview): string {
  if (s.command !== undefined) return [s.command, ...(s.args ?? [])].map((a) => t(a === '' || /[\s"'\\]/.test(a) ? JSON.stringify(a) : a)).join(' ');
  return `${t(s.url ?? '')} (${s.transport})`;
}

/** Env variable names whose values are copied but not shown (code-loading ones are shown apart). */
export const hiddenEnv = (s: ImportServerPreview): string[] => (s.envKeys ?? []).filter((k) => !s.codeLoadingEnv?.some((l) => l.name === k));

/** The program's own name: no folder, no Windows extension. */
function programName(command: string): string {
  return (command.split(/[\\/]/).pop() ?? command).replace(/\.(exe|cmd|bat)$/i, '').toLowerCase();
}

/** Flags of `docker run` / `podman run` that take the next argument as their value. */
const CONTAINER_VALUE_FLAGS = new Set(['-e', '--env', '-v', '--volume', '-p', '--publish', '--name', '--network', '-w', '--workdir', '--mount', '--env-file', '-u', '--user', '--entrypoint', '-l', '--label', '--platform']);

/** The first argument that is not a flag, its index, skipping flags that take a value. */
function firstOperand(args: string[], from = 0, valueFlags: Set<string> = new Set()): number {
  for (let i = from; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) return i;
    if (valueFlags.has(a)) i++;
  }
  return -1;
}

export interface ServerWords {
  /** One sentence: what runs, or where it connects. */
  what: string;
  /** The arguments left after the program's own, as given (escaped). */
  extra: string[];
}

/**
 * "Downloads and runs the Node.js package “@x/y” (npx fetches it from npm).", "Connects to the
 * online service at mcp.example.com.", … The known runners are named; anything else is a program.
 */
export function describeServer(s: ImportServerPreview): ServerWords {
  if (s.command === undefined) {
    let host = s.url ?? '';
    try {
      host = new URL(host).host;
    } catch {
      /* shown as written */
    }
    const local = /^(localhost|127\.|\[::1\])/.test(host);
    return { what: local ? `Connects to a service already running on this computer (${t(host)}).` : `Connects to the online service at ${t(host)}; nothing is installed on this computer.`, extra: [] };
  }
  const args = s.args ?? [];
  const prog = programName(s.command);
  const rest = (i: number) => args.slice(i + 1).map(t);
  const pick = (from: number, flags?: Set<string>) => firstOperand(args, from, flags);

  if (prog === 'npx' || prog === 'bunx' || ((prog === 'pnpm' || prog === 'yarn') && args[0] === 'dlx')) {
    const i = pick(prog === 'pnpm' || prog === 'yarn' ? 1 : 0);
    if (i >= 0) return { what: `Downloads and runs the Node.js package “${t(args[i]!)}” (${prog} fetches it from the npm registry).`, extra: rest(i) };
  }
  if (prog === 'uvx' || (prog === 'uv' && args[0] === 'run') || (prog === 'pipx' && args[0] === 'run')) {
    const i = pick(prog === 'uvx' ? 0 : 1, new Set(['--from', '--with', '--python']));
    if (i >= 0) return { what: `Downloads and runs the Python package “${t(args[i]!)}” (${prog} fetches it from PyPI).`, extra: rest(i) };
  }
  if ((prog === 'docker' || prog === 'podman') && args[0] === 'run') {
    const i = pick(1, CONTAINER_VALUE_FLAGS);
    if (i >= 0) return { what: `Runs the container image “${t(args[i]!)}” with ${prog === 'docker' ? 'Docker' : 'Podman'}.`, extra: rest(i) };
  }
  if (prog === 'node' || prog === 'bun' || prog === 'deno') {
    const i = pick(prog === 'deno' && args[0] === 'run' ? 1 : 0);
    const runtime = prog === 'node' ? 'Node.js' : prog === 'bun' ? 'Bun' : 'Deno';
    if (i >= 0) return { what: `Runs the script ${t(args[i]!)} with ${runtime}.`, extra: rest(i) };
  }
  if (/^python(\d(\.\d+)?)?$|^py$/.test(prog)) {
    const m = args.indexOf('-m');
    if (m >= 0 && args[m + 1]) return { what: `Runs the Python module “${t(args[m + 1]!)}”.`, extra: rest(m + 1) };
    const i = pick(0);
    if (i >= 0) return { what: `Runs the Python script ${t(args[i]!)}.`, extra: rest(i) };
  }
  return { what: `Runs the program “${t(programName(s.command))}”${s.command.includes('/') || s.command.includes('\\') ? ` (${t(s.command)})` : ''} on this computer.`, extra: args.map(t) };
}

/**
 * How a value an install asks for is named to a person. A name that is a variable, header or
 * flag ("env WEATHER_API_KEY", "argument --units (units)") gives way to the entry's description,
 * else is said in words ("Weather api key"); a plain name (the shipped servers' "Folder") stays,
 * with the description as help below it. The exact name stays in the tooltip.
 */
export function inputWords(input: { label: string; description?: string }, codeLoading = false): { name: string; help?: string } {
  const d = input.description?.trim() ? t(input.description.trim()) : undefined;
  // A variable that changes what code loads is named as it is: a description must not hide it.
  if (codeLoading) return { name: t(input.label), ...(d ? { help: d } : {}) };
  const technical = /^(env|header|argument)\s+(.*)$/.exec(input.label);
  if (!technical) return { name: t(input.label), ...(d ? { help: d } : {}) };
  if (d) return { name: d };
  const bare = technical[2]!
    .replace(/\s*\(.*\)$/, '')
    .replace(/^-+/, '')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return { name: bare ? t(bare[0]!.toUpperCase() + bare.slice(1)) : t(input.label) };
}

/** The variable an install's input fills ("env NODE_OPTIONS" → "NODE_OPTIONS"), if it is one. */
export const inputEnvName = (label: string): string | undefined => /^env (\S+)$/.exec(label)?.[1];

