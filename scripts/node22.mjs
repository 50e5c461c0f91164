// @ts-check
// Node 22 for the official MCP conformance suite, which needs it while the project itself runs
// on Node ≥ 20.10. npx fetches Node 22 as the `node` npm package, whose binary only arrives
// through that package's install script. Inside the checkout the project's .npmrc sets
// ignore-scripts=true (for Electron), and `npm test` passes that on as npm_config_ignore_scripts,
// so a plain `npx -p node@22 node` silently runs the machine's own Node instead. Every npx call
// that needs Node 22 is built here: scripts enabled for that child only, and the version it
// actually runs checked before use.
import { spawn } from 'node:child_process';

export const NODE22 = 'node@22';
export const MIN_NODE_MAJOR = 22;
/** Longest wait for npx to fetch and run Node 22 (a ~30 MB download on an empty cache), in ms. */
const RESOLVE_MS = 180_000;

/** Node 22 could not be had through npx, or npx ran an older Node. */
export class Node22UnavailableError extends Error {}

/**
 * The npx invocation running `binArgs` with Node 22 and `packages` installed: the same
 * packages give the same npx install folder, so a check made with them holds for the real run.
 * @param {string[]} packages like ['@modelcontextprotocol/conformance@0.1.16']
 * @param {string[]} binArgs the command and its arguments, like ['conformance', 'server', …]
 * @param {NodeJS.ProcessEnv} [env]
 */
export function npxWithNode22(packages, binArgs, env = process.env) {
  const win = process.platform === 'win32';
  // npm reads its env settings in any letter case: drop every spelling before setting ours.
  const rest = Object.fromEntries(Object.entries(env).filter(([k]) => k.toLowerCase() !== 'npm_config_ignore_scripts'));
  return {
    command: win ? 'npx.cmd' : 'npx',
    args: ['-y', '-p', NODE22, ...packages.flatMap((p) => ['-p', p]), ...binArgs],
    // Environment beats the project's .npmrc in npm's config order, so this undoes
    // ignore-scripts for this one call and nothing else.
    env: { ...rest, npm_config_ignore_scripts: 'false', npm_config_update_notifier: 'false' },
    shell: win,
  };
}

/**
 * Runs `node --version` through the same npx invocation the real run uses and returns the
 * version, fetching Node 22 first when the npx cache lacks it.
 * @param {string[]} packages
 * @param {{ cwd?: string, timeoutMs?: number, env?: NodeJS.ProcessEnv }} [opts]
 * @returns {Promise<{ version: string, major: number }>}
 * @throws {Node22UnavailableError} when npx fails or runs a Node older than 22
 */
export async function resolveNode22(packages, opts = {}) {
  const inv = npxWithNode22(packages, ['node', '--version'], opts.env);
  const shown = `npx ${inv.args.join(' ')}`;
  const { code, stdout, output, error } = await run(inv, opts.cwd, opts.timeoutMs ?? RESOLVE_MS);
  const line = stdout.trim().split('\n').pop() ?? '';
  const m = /^v(\d+)\.\d+\.\d+/.exec(line);
  if (error || code !== 0 || !m) {
    throw new Node22UnavailableError(
      `Could not get Node ${MIN_NODE_MAJOR} through \`${shown}\` (${error ?? `exit ${code}`}). ` +
        `The npm registry must be reachable, or the packages already in the npx cache. Output:\n${output.slice(-2000)}`,
    );
  }
  const major = Number(m[1]);
  if (major < MIN_NODE_MAJOR) {
    throw new Node22UnavailableError(
      `\`${shown}\` ran Node ${line}, not ${MIN_NODE_MAJOR} or newer: the \`node\` package's install script, ` +
        `which fetches the binary, did not run. Check that nothing forces npm's ignore-scripts on for this ` +
        `call (npm_config_ignore_scripts=false is set for it), or clear the npx cache (\`npm cache npx rm\`) and retry.`,
    );
  }
  return { version: line, major };
}

/**
 * @param {ReturnType<typeof npxWithNode22>} inv
 * @param {string | undefined} cwd
 * @param {number} timeoutMs
 * @returns {Promise<{ code: number | null, stdout: string, output: string, error?: string }>}
 */
function run(inv, cwd, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(inv.command, inv.args, { cwd, env: inv.env, shell: inv.shell, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      output += d;
    });
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, output, error: `could not start npx: ${e.message}` });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, stdout, output, error: signal ? `killed by ${signal} after ${timeoutMs / 1000} s at most` : undefined });
    });
  });
}
