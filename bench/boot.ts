// The `boot` section of `npm run bench`: a computer's start, when a client launches all its
// entries at once and no engine runs. Two shims started together on a home that ran before
// (its servers' catalogs pinned) and on a fresh one (the first-run demo config), each kind of
// shim, interleaved round by round with a direct start of the same server to its first
// tools/list (what a client sees without Switchboard). With --boot-before=DIR (a checkout of an
// older commit with its node_modules) that checkout's shims and engine take their turns in the
// same rounds, for a before/after measured side by side.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { isProcessAlive as alive } from '../src-main/engine/config/atomic-file.ts';

type Unit = 'ms' | 'x';
export interface BootDeps {
  root: string;
  quick: boolean;
  rounds: number;
  /** Another checkout to measure in the same rounds, or undefined. */
  before?: string;
  /** The native shim of this checkout, when it built. */
  nativeBinary?: string;
  record(metric: string, value: number, unit: Unit, target?: { limit: number; text: string }): void;
  note(metric: string, text: string): void;
}

interface Tree {
  label: string;
  bin: string;
  native?: string;
}

interface Timing {
  /** Slowest of the shims started together: initialize answered, then the full tools/list. */
  init: number;
  list: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(' · ')})`;

/** Stops the home's engine (and so its servers) and waits until it is gone. */
async function stopEngine(home: string): Promise<void> {
  let pid: number | undefined;
  for (const f of ['run/engine.json', 'run/engine.lock']) {
    try {
      const t = readFileSync(path.join(home, f), 'utf8');
      pid = f.endsWith('.json') ? (JSON.parse(t) as { pid: number }).pid : Number(t.trim());
      if (pid) break;
    } catch {
      // Not there.
    }
  }
  if (!pid || !alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 200 && alive(pid); i++) await sleep(50);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  // Its servers end with it (bounded by their kill grace).
  await sleep(300);
}

/** The servers a profile of the home's config names (known once the engine wrote a first-run config). */
function profileServers(home: string, profile: string): string[] | undefined {
  try {
    const cfg = JSON.parse(readFileSync(path.join(home, 'config.json'), 'utf8')) as { profiles: Record<string, { servers: string[] }> };
    return cfg.profiles[profile]?.servers;
  } catch {
    return undefined;
  }
}

/** Connects a client over `command args`, then lists tools until every server of the profile is in the list. */
async function timeClient(command: string, args: string[], full: (names: string[]) => boolean, t0: number): Promise<{ init: number; list: number; client: Client }> {
  const client = new Client({ name: 'bench-boot', version: '1' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  const init = performance.now() - t0;
  for (let i = 0; ; i++) {
    const names = (await client.listTools(undefined, { timeout: 60_000 })).tools.map((t) => t.name);
    if (full(names)) break;
    if (i > 2000) throw new Error(`the tool list stayed incomplete: ${names.length} tools`);
    await sleep(25);
  }
  return { init, list: performance.now() - t0, client };
}

const hasServers = (servers: () => string[] | undefined) => (names: string[]) => {
  const s = servers();
  return s !== undefined && s.every((server) => names.some((n) => n.startsWith(`${server}__`)));
};

/** Two shims of one kind started together on `home` with no engine running; stops the engine after. */
async function twoShims(shim: { command: string; pre: string[] }, home: string, profiles: [string, string]): Promise<Timing> {
  const t0 = performance.now();
  const got = await Promise.all(
    profiles.map((p) => timeClient(shim.command, [...shim.pre, 'shim', '--profile', p, '--home', home], hasServers(() => profileServers(home, p)), t0)),
  );
  await Promise.all(got.map((g) => g.client.close()));
  // A shim that answered from the boot answer may be done before its engine is up: let it come
  // up before stopping it, or it would still be starting when the next round begins.
  for (let i = 0; i < 400 && !existsSync(path.join(home, 'run', 'engine.json')); i++) await sleep(50);
  await stopEngine(home);
  return { init: Math.max(...got.map((g) => g.init)), list: Math.max(...got.map((g) => g.list)) };
}

export async function bootSection(d: BootDeps): Promise<void> {
  const everything = path.join(d.root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  const trees: Tree[] = [{ label: '', bin: path.join(d.root, 'bin/switchboard.mjs'), native: d.nativeBinary }];
  if (d.before) {
    const dir = path.resolve(d.before);
    let native: string | undefined;
    try {
      const build = (await import(path.join(dir, 'scripts/build-native-shim.mjs'))) as typeof import('../scripts/build-native-shim.mjs');
      if (d.nativeBinary) native = build.buildNativeShim({ outDir: path.join(dir, 'native/shim/target/bench-shim'), log: () => undefined }).binary;
    } catch (err) {
      d.note('before: native shim', `did not build: ${(err as Error).message}`);
    }
    trees.push({ label: 'before: ', bin: path.join(dir, 'bin/switchboard.mjs'), native });
  }
  type Route = { name: string; tree?: Tree; shim?: { command: string; pre: string[] } };
  const routes: Route[] = [{ name: 'direct' }];
  for (const t of trees) {
    routes.push({ name: `${t.label}node shim`, tree: t, shim: { command: process.execPath, pre: [t.bin] } });
    if (t.native) routes.push({ name: `${t.label}native shim`, tree: t, shim: { command: t.native, pre: [] } });
  }

  // A known home per tree: its engine ran once with the server up (so its tools are pinned).
  const homes: string[] = [];
  const known = new Map<Tree, string>();
  for (const t of trees) {
    const home = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-boot-'));
    homes.push(home);
    writeFileSync(
      path.join(home, 'config.json'),
      JSON.stringify({ servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } }, profiles: { a: { servers: ['everything'] }, b: { servers: ['everything'] } } }, null, 2),
    );
    await twoShims({ command: process.execPath, pre: [t.bin] }, home, ['a', 'b']);
    known.set(t, home);
  }

  const got = new Map<string, { known: Timing[]; fresh: Timing[] }>(routes.map((r) => [r.name, { known: [], fresh: [] }]));
  try {
    for (let round = 0; round < d.rounds; round++) {
      for (let k = 0; k < routes.length; k++) {
        const r = routes[(round + k) % routes.length]!;
        const slot = got.get(r.name)!;
        if (!r.shim) {
          // The floor: the same server started by the client itself, to its first tools/list.
          const t0 = performance.now();
          const c = await timeClient(process.execPath, [everything, 'stdio'], (names) => names.length > 0, t0);
          await c.client.close();
          slot.known.push({ init: c.init, list: c.list });
          await sleep(300);
          continue;
        }
        slot.known.push(await twoShims(r.shim, known.get(r.tree!)!, ['a', 'b']));
        const fresh = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-boot-fresh-'));
        try {
          slot.fresh.push(await twoShims(r.shim, fresh, ['demo', 'demo']));
        } finally {
          await stopEngine(fresh);
          rmSync(fresh, { recursive: true, force: true });
        }
      }
    }
  } finally {
    for (const h of homes) {
      await stopEngine(h);
      if (existsSync(h)) rmSync(h, { recursive: true, force: true });
    }
  }

  const direct = got.get('direct')!.known;
  d.record('boot: direct start of server-everything → initialize (p50)', median(direct.map((t) => t.init)), 'ms');
  d.record('boot: direct start of server-everything → first tools/list (p50)', median(direct.map((t) => t.list)), 'ms');
  d.note('boot:   … direct tools/list, each round', range(direct.map((t) => t.list)));
  for (const r of routes.slice(1)) {
    const { known: k, fresh: f } = got.get(r.name)!;
    const mine = r.tree!.label === '';
    const p = `boot: ${r.name}`;
    d.record(`${p}, known home, two at once: initialize (p50)`, median(k.map((t) => t.init)), 'ms', mine ? { limit: 150, text: '≤ 150 ms' } : undefined);
    d.note(`${p}   … initialize, each round`, range(k.map((t) => t.init)));
    d.record(`${p}, known home, two at once: full tools/list (p50)`, median(k.map((t) => t.list)), 'ms', mine ? { limit: 300, text: '≤ 300 ms' } : undefined);
    d.note(`${p}   … full tools/list, each round`, range(k.map((t) => t.list)));
    d.record(`${p}, fresh home, two at once: initialize (p50)`, median(f.map((t) => t.init)), 'ms');
    d.record(`${p}, fresh home, two at once: full tools/list (p50)`, median(f.map((t) => t.list)), 'ms', mine ? { limit: 1500, text: '≤ 1.5 s' } : undefined);
    d.note(`${p}   … fresh full tools/list, each round`, range(f.map((t) => t.list)));
  }
  // Before/after as ratios of medians measured in the same rounds.
  if (trees.length > 1) {
    for (const kind of ['node shim', 'native shim']) {
      const a = got.get(kind);
      const b = got.get(`before: ${kind}`);
      if (!a || !b || !a.known.length || !b.known.length) continue;
      for (const [what, pick] of [['known home initialize', (x: { known: Timing[] }) => x.known.map((t) => t.init)], ['known home full tools/list', (x: { known: Timing[] }) => x.known.map((t) => t.list)], ['fresh home full tools/list', (x: { fresh: Timing[] }) => x.fresh.map((t) => t.list)]] as const) {
        d.record(`boot: ${kind}, ${what}: before ÷ after`, median(pick(b)) / median(pick(a)), 'x');
      }
    }
  }
}
