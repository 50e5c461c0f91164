#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, server mode)
// against a profile's Streamable HTTP endpoint, served by a real `switchboard serve` over the
// fixture server tests/fixtures/servers/conformance.mjs, and checks the outcome against the
// committed baseline of expected failures (tests/conformance/baseline.json).
//
//   node scripts/conformance.mjs [--scenario NAME] [--json FILE] [--verbose] [--keep]
//
// --verbose streams the suite's output; --keep leaves the temp home (engine and server logs).
//
// Exit 0 when every failure is in the baseline and every baseline entry still fails; 1 otherwise;
// 2 when the suite could not be run at all (no npm registry to fetch Node 22 and the suite, or
// npx ran a Node older than 22; scripts/node22.mjs says which).
//
// The suite has no option to send headers, so it cannot present the engine's bearer token. A
// small loopback proxy in front of the engine adds it and changes nothing else; Host and Origin
// naming the proxy are rewritten to name the engine (what a client talking to the engine
// directly would send), while any other Host/Origin passes untouched, so the suite's DNS
// rebinding scenario still tests the engine's own check.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE22, Node22UnavailableError, npxWithNode22, resolveNode22 } from './node22.mjs';

export const SUITE_PACKAGE = '@modelcontextprotocol/conformance@0.1.16';
/** The suite needs Node 22; npx fetches it as a package so the machine's Node can stay at 20. */
export const SUITE_NODE = NODE22;
export const PROFILE = 'conformance';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = path.join(ROOT, 'bin/switchboard.mjs');
const FIXTURE = path.join(ROOT, 'tests/fixtures/servers/conformance.mjs');
export const BASELINE_FILE = path.join(ROOT, 'tests/conformance/baseline.json');

/** Longest wait for `serve` to print its address, in ms. */
const SERVE_START_MS = 30_000;
/** Longest run of the whole suite, first-run downloads included, in ms. */
const SUITE_MS = 240_000;

/**
 * @typedef {{ id: string, name?: string, status: string, description?: string, errorMessage?: string }} Check
 * @typedef {{ scenario: string, passed: boolean, problems: string[] }} ScenarioResult
 * @typedef {{ suite: string, expectedFailures: Record<string, string> }} Baseline
 * @typedef {{ unexpectedFailures: ScenarioResult[], staleEntries: string[], expected: ScenarioResult[], passed: ScenarioResult[] }} Comparison
 */

/** The suite could not be run (as opposed to: it ran and scenarios failed). */
export class SuiteUnavailableError extends Error {}

/**
 * One profile with `"namespace": false` over the conformance fixture, so the suite sees the
 * fixture's own tool and prompt names through the gateway.
 */
export function conformanceConfig() {
  return {
    servers: { conformance: { command: process.execPath, args: [FIXTURE] } },
    profiles: { [PROFILE]: { servers: ['conformance'], namespace: false } },
  };
}

/**
 * Starts `switchboard serve` on a fresh home with port 0.
 * @param {string} home
 * @returns {Promise<{ url: string, token: string, stop: () => Promise<void> }>}
 */
export async function startServe(home) {
  const child = spawn(process.execPath, [BIN, 'serve', '--home', home, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(t);
  };
  try {
    const address = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`switchboard serve printed no address within ${SERVE_START_MS} ms.\n${err}`)), SERVE_START_MS);
      child.stdout.on('data', (d) => {
        out += d;
        const m = /Switchboard is running: (http:\/\/\S+?)\/#token=(\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve({ url: m[1], token: m[2] });
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`switchboard serve exited (${code}) before printing its address.\n${out}${err}`));
      });
    });
    return { ...address, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * A loopback proxy that adds the bearer token and otherwise forwards bytes as they come
 * (SSE streams included).
 * @param {string} engineUrl like http://127.0.0.1:PORT
 * @param {string} token
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startAuthProxy(engineUrl, token) {
  const engine = new URL(engineUrl);
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const own = String(server.address() && /** @type {import('node:net').AddressInfo} */ (server.address()).port);
    const retarget = (/** @type {string} */ v) => v.replace(new RegExp(`^((?:http://)?(?:127\\.0\\.0\\.1|localhost|\\[::1\\])):${own}$`, 'i'), `$1:${engine.port}`);
    if (headers.host) headers.host = retarget(headers.host);
    if (typeof headers.origin === 'string') headers.origin = retarget(headers.origin);
    const upstream = http.request(
      { host: engine.hostname, port: engine.port, method: req.method, path: req.url, headers, agent: false },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        res.flushHeaders();
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // A client that hangs up (the suite cancels SSE readers) must not leave the engine's stream open.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve(undefined));
      }),
  };
}

/**
 * The Node the suite will run on, fetched and checked the way the suite run itself goes (same
 * npx packages, from the checkout, where .npmrc would otherwise switch install scripts off).
 * @returns {Promise<{ version: string, major: number }>}
 * @throws {SuiteUnavailableError} when it is not Node 22 or newer, or cannot be had
 */
export async function suiteNode() {
  try {
    return await resolveNode22([SUITE_PACKAGE], { cwd: ROOT });
  } catch (e) {
    if (e instanceof Node22UnavailableError) throw new SuiteUnavailableError(`The conformance suite needs Node 22. ${e.message}`);
    throw e;
  }
}

/**
 * Runs the suite against `url` and returns one result per scenario it ran.
 * @param {string} url
 * @param {{ scenario?: string, log?: (s: string) => void }} [opts]
 * @returns {Promise<ScenarioResult[]>}
 */
export async function runSuite(url, opts = {}) {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'sb-conformance-out-'));
  try {
    await suiteNode();
    const args = ['conformance', 'server', '--url', url, '-o', outDir];
    args.push(...(opts.scenario ? ['--scenario', opts.scenario] : ['--suite', 'all']));
    const { code, output } = await runNpx(args, SUITE_MS, opts.log);
    const results = readResults(outDir, output);
    if (results.length === 0) {
      throw new SuiteUnavailableError(
        `The conformance suite did not run (npx exited ${code}). It is fetched with ` +
          `\`npx -y -p ${SUITE_NODE} -p ${SUITE_PACKAGE}\`, so the npm registry must be reachable ` +
          `(or both packages already in the npx cache). Last output:\n${output.slice(-3000)}`,
      );
    }
    return results;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * @param {string[]} binArgs the suite's command line
 * @param {number} timeoutMs
 * @param {((s: string) => void) | undefined} log
 * @returns {Promise<{ code: number | null, output: string }>}
 */
function runNpx(binArgs, timeoutMs, log) {
  // Colour codes would only get in the way of parsing the summary.
  const inv = npxWithNode22([SUITE_PACKAGE], binArgs, { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' });
  return new Promise((resolve, reject) => {
    const child = spawn(inv.command, inv.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], shell: inv.shell, env: inv.env });
    let output = '';
    const onData = (/** @type {Buffer} */ d) => {
      output += d;
      log?.(String(d));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new SuiteUnavailableError(`The conformance suite did not finish within ${timeoutMs / 1000} s. Last output:\n${output.slice(-3000)}`));
    }, timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(new SuiteUnavailableError(`Could not start npx to run the conformance suite: ${e.message}`));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * Scenario results from the suite's output folder (one `server-<scenario>-<time>/checks.json`
 * each) and its summary lines, which also name scenarios that crashed before saving checks.
 * A scenario passes when none of its checks is a FAILURE or a WARNING — the same rule the
 * suite's own `--expected-failures` uses.
 * @param {string} outDir
 * @param {string} output
 * @returns {ScenarioResult[]}
 */
export function readResults(outDir, output) {
  /** @type {Map<string, ScenarioResult>} */
  const byName = new Map();
  for (const dir of existsSync(outDir) ? readdirSync(outDir) : []) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir);
    const file = path.join(outDir, dir, 'checks.json');
    if (!m || !existsSync(file)) continue;
    /** @type {Check[]} */
    const checks = JSON.parse(readFileSync(file, 'utf8'));
    const problems = checks
      .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
      .map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? c.description ?? ''}`.trim());
    byName.set(m[1], { scenario: m[1], passed: problems.length === 0, problems });
  }
  for (const m of output.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gmu)) {
    if (!byName.has(m[1])) byName.set(m[1], { scenario: m[1], passed: false, problems: ['the scenario crashed before saving its checks'] });
  }
  return [...byName.values()].sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** @returns {Baseline} */
export function readBaseline(file = BASELINE_FILE) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * @param {ScenarioResult[]} results
 * @param {Baseline} baseline
 * @returns {Comparison}
 */
export function compareWithBaseline(results, baseline) {
  const expected = baseline.expectedFailures;
  const ran = new Set(results.map((r) => r.scenario));
  return {
    unexpectedFailures: results.filter((r) => !r.passed && !(r.scenario in expected)),
    staleEntries: Object.keys(expected).filter((s) => ran.has(s) && results.find((r) => r.scenario === s)?.passed),
    expected: results.filter((r) => !r.passed && r.scenario in expected),
    passed: results.filter((r) => r.passed),
  };
}

/**
 * The whole run: a temp home, `serve`, the proxy, the suite; everything stopped and removed after.
 * @param {{ scenario?: string, log?: (s: string) => void, keep?: boolean }} [opts]
 * @returns {Promise<ScenarioResult[]>}
 */
export async function runConformance(opts = {}) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-conf-'));
  writeFileSync(path.join(home, 'config.json'), JSON.stringify(conformanceConfig(), null, 2) + '\n');
  /** @type {Awaited<ReturnType<typeof startServe>> | undefined} */
  let serve;
  /** @type {Awaited<ReturnType<typeof startAuthProxy>> | undefined} */
  let proxy;
  try {
    serve = await startServe(home);
    proxy = await startAuthProxy(serve.url, serve.token);
    return await runSuite(`${proxy.url}/mcp/${PROFILE}`, opts);
  } finally {
    await proxy?.close();
    await serve?.stop();
    if (opts.keep) process.stderr.write(`conformance: kept the home ${home}\n`);
    else rmSync(home, { recursive: true, force: true });
  }
}

/** @param {Comparison} c */
export function formatComparison(c) {
  const lines = [];
  const total = c.passed.length + c.expected.length + c.unexpectedFailures.length;
  lines.push(`${total} scenarios: ${c.passed.length} passed, ${c.expected.length} failed as the baseline expects, ${c.unexpectedFailures.length} failed unexpectedly.`);
  for (const r of c.unexpectedFailures) lines.push(`  ✗ ${r.scenario} (not in the baseline)\n      ${r.problems.join('\n      ')}`);
  for (const s of c.staleEntries) lines.push(`  ✓ ${s} passes now: remove it from tests/conformance/baseline.json`);
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const flag = (/** @type {string} */ name) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const verbose = argv.includes('--verbose');
  try {
    const results = await runConformance({ scenario: flag('--scenario'), log: verbose ? (s) => process.stderr.write(s) : undefined, keep: argv.includes('--keep') });
    const comparison = compareWithBaseline(results, readBaseline());
    const jsonFile = flag('--json');
    if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ results, comparison }, null, 2) + '\n');
    process.stdout.write(formatComparison(comparison) + '\n');
    for (const r of comparison.expected) process.stdout.write(`  ~ ${r.scenario}: ${r.problems.join('; ')}\n`);
    process.exitCode = comparison.unexpectedFailures.length || (!flag('--scenario') && comparison.staleEntries.length) ? 1 : 0;
  } catch (e) {
    process.stderr.write(`conformance: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = e instanceof SuiteUnavailableError ? 2 : 1;
  }
}
