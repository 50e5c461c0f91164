// How a line of a server's log reads to a person: MCP servers write everything to stderr, their
// normal notes too, so a line is an error only when it says so, and a few lines that read like
// trouble but are a server's normal course are known and marked as information.

export type LogLevel = 'note' | 'info' | 'warn' | 'error';

/** Normal lines of well-known servers that read like trouble (checked before the error words). */
const BENIGN: RegExp[] = [
  // @modelcontextprotocol/server-filesystem when the client gives no folders: it keeps those of its command line.
  /^No valid root directories provided by client$/,
  /^Client returned no roots set, keeping current settings$/,
  /^Client does not support MCP Roots, using allowed directories set from server args/,
  // A server saying it started: "… MCP Server running on stdio".
  /\brunning on stdio$/i,
];

const ERROR = /\b(error|fatal|exception|traceback|panic|failed|unhandled|ENOENT|EACCES|ECONNREFUSED)\b/i;
const WARN = /\b(warn|warning|deprecated)\b/i;

/** `[switchboard …]` lines are the engine's own notes (server-log.ts). */
export function logLineLevel(line: string): LogLevel {
  const l = line.trim();
  if (l.startsWith('[switchboard ')) return 'note';
  if (BENIGN.some((re) => re.test(l))) return 'info';
  if (ERROR.test(l)) return 'error';
  if (WARN.test(l)) return 'warn';
  return 'info';
}

/** A line that says nothing went wrong: not worth naming as why a server stopped. */
export function isBenignLogLine(line: string): boolean {
  return BENIGN.some((re) => re.test(line.trim()));
}
