// `switchboard` command line (docs/command-line.md): global flags, then one module per command.
import { resolveHome, defaultHome } from '../engine/platform/home.ts';
import { toErrorData, SwitchboardError } from '../../src-shared/errors.ts';
import { terminalSafe } from '../../src-shared/terminal-text.ts';
import { createCliContext } from './process-context.ts';
import type { CliContext } from './command-context.ts';

type CommandModule = { run(args: string[], ctx: CliContext): Promise<number> };

const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  serve: () => import('./commands/serve.ts'),
  engine: () => import('./commands/engine.ts'),
  status: () => import('./commands/status.ts'),
  config: () => import('./commands/config.ts'),
  audit: () => import('./commands/audit.ts'),
  runs: () => import('./commands/runs.ts'),
  exec: () => import('./commands/exec.ts'),
  clients: () => import('./commands/clients.ts'),
  search: () => import('./commands/search.ts'),
  install: () => import('./commands/install.ts'),
  connect: () => import('./commands/connect.ts'),
  disconnect: () => import('./commands/disconnect.ts'),
  import: () => import('./commands/import.ts'),
  undo: () => import('./commands/undo.ts'),
  demo: () => import('./commands/demo.ts'),
  doctor: () => import('./commands/doctor.ts'),
  secret: () => import('./commands/secret.ts'),
  login: () => import('./commands/login.ts'),
  logout: () => import('./commands/logout.ts'),
  approve: () => import('./commands/approve.ts'),
  skills: () => import('./commands/skills.ts'),
  approvals: () => import('./commands/approvals.ts'),
};

export const USAGE = `Usage: switchboard <command> [--home DIR]

  serve [--port N] [--take-over]   run the engine and serve the UI on 127.0.0.1 (--take-over: from the engine running, see engine)
  engine [--take-over]             run the engine in the background (--take-over: the running engine hands the home over, as after an update)
  shim --profile P                 stdio MCP server for one client (used in client configs)
  exec --profile P [FILE|-]        run code as the profile's execute tool would
  status [--json]                  engine, servers and profiles
  runs [--json] [--profile P] [--client C] [--limit N] · runs show ID [--json]
  audit [--json] [--client C] [--limit N]   audit log, newest first
  config get|set|unset PATH [JSON] read or change config.json (validated, atomic)
  clients [--json]                 every known client: config file, installed, connected profiles
  connect CLIENT --profile P [--force] [--trust-folder DIR] [--no-check] · disconnect CLIENT --profile P · import CLIENT [--apply] [--replace] · undo CLIENT
  demo remove                      remove the demo profiles and servers (never your own) and, if untouched, the demo folder
  doctor                           check how each server's command resolves
  search TEXT [--json] [--cursor C] servers in the MCP Registry (settings.registry) whose name contains TEXT (--json: one array)
  install NAME|LINK|FILE.mcpb [--version V] [--yes | --propose] [--name KEY] [--remote]   add a server after showing exactly what runs (--propose: it waits for approval)
  secret set NAME · secret delete NAME   secrets for { "secret": NAME } values (value on stdin)
  login SERVER · logout SERVER    sign in to (or out of) a remote server that asks for it
  approve SERVER [--yes]           approve a server proposed from outside (shown first), and trust its changed tool definitions
  skills list [--profile P] · skills save RUN_ID NAME [--input SCHEMA] · skills remove NAME   saved runs callable from code
  approvals [--json] · approvals approve|deny ID   tool calls from code waiting for approval

Home: --home DIR, else $SWITCHBOARD_HOME, else ${defaultHome()}.
`;

/** Takes --home out of the arguments wherever it stands. */
function extractHome(argv: string[]): { home?: string; rest: string[] } {
  const rest: string[] = [];
  let home: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--home') {
      home = argv[++i];
      if (!home) throw new SwitchboardError('bad-request', '--home needs a folder.');
    } else if (a.startsWith('--home=')) home = a.slice(7);
    else rest.push(a);
  }
  return { home, rest };
}

export async function main(argv: string[]): Promise<number> {
  // `switchboard status | head` closes our stdout early: that is not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
  // Every line the CLI prints may quote outside data (names from a client's file, server
  // errors, model output): control characters are escaped on the way out, newlines kept.
  const out = (s: string) => void process.stdout.write(terminalSafe(s, { multiline: true }));
  const err = (s: string) => void process.stderr.write(terminalSafe(s, { multiline: true }));
  try {
    const { home: homeFlag, rest } = extractHome(argv);
    const [command, ...args] = rest;
    if (!command || command === 'help' || command === '--help' || command === '-h') {
      out(USAGE);
      return command ? 0 : 2;
    }
    if (command === '--version' || command === 'version') {
      const { VERSION } = await import('../engine/engine.ts');
      out(VERSION + '\n');
      return 0;
    }
    const load = COMMANDS[command];
    if (!load) {
      err(`switchboard: unknown command "${command}".\n\n${USAGE}`);
      return 2;
    }
    const home = resolveHome(homeFlag);
    const ctx = createCliContext({ home, homeIsDefault: !homeFlag && !process.env.SWITCHBOARD_HOME, stdout: out, stderr: err });
    const mod = await load();
    return await mod.run(args, ctx);
  } catch (e) {
    const data = toErrorData(e);
    err(`switchboard: ${data.message}\n`);
    for (const p of data.problems ?? []) {
      err(`  ${p.path || '(file)'}${p.line ? ` (line ${p.line}, column ${p.column})` : ''}: ${p.message}\n`);
    }
    return data.code === 'bad-request' || data.code === 'bad-path' ? 2 : 1;
  }
}
