// Variables that change what code a process loads or runs before its own: preloaded libraries,
// interpreter options and module paths, shell startup files. A server entry that sets one can run
// anything under any command line, so an import's dry run, a proposal and an install show their
// values and flag them.
import type { ServerConfig } from '../../../src-shared/config/schema.ts';

const CODE_LOADING_ENV = new Set([
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_REPL_EXTERNAL_MODULE', 'ELECTRON_RUN_AS_NODE',
  'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONUSERBASE', 'PYTHONINSPECT',
  'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'PERL5DB', 'RUBYOPT', 'RUBYLIB',
  'BASH_ENV', 'ENV', 'ZDOTDIR', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH',
  'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'PATH', 'PATHEXT', 'COMSPEC',
]);
const CODE_LOADING_PREFIXES = ['LD_', 'DYLD_'];

/** Whether an env variable changes how code loads (NODE_OPTIONS, LD_PRELOAD, DYLD_*, PYTHONPATH…). */
export function isCodeLoadingEnv(name: string): boolean {
  const n = name.toUpperCase(); // Windows names are case-insensitive
  return CODE_LOADING_ENV.has(n) || CODE_LOADING_PREFIXES.some((p) => n.startsWith(p));
}

/** The code-loading variables of an env map, with their values (a secret reference is named, not resolved). */
export function codeLoadingEnv(env: ServerConfig['env']): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const [name, v] of Object.entries(env ?? {})) {
    if (!isCodeLoadingEnv(name)) continue;
    out.push({ name, value: typeof v === 'string' ? v : `{ "secret": ${JSON.stringify((v as { secret?: unknown }).secret)} }` });
  }
  return out;
}
