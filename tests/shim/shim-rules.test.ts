// The rules the engine and both shims share (where a home is, its engine's socket, the boot
// answer's file and format, the claim on starting an engine) are defined once, as cases, in
// src-shared/shim-rules.json. Here the engine's and the Node shim's implementations run every
// case, and the native binary's `paths` command the cases of this platform; the native shim's
// functions run every case in its Rust tests (native/shim/src/rules_test.rs, cargo test).
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_DIR_NAME, homePaths, resolveHome } from '../../src-main/engine/platform/home.ts';
import { BootAnswers, bootKey } from '../../src-main/engine/gateway/boot-answers.ts';
import { BOOT_FILE_VERSION, BOOT_LIST_METHODS, MAX_BOOT_FILE_BYTES, answerFromBoot, initializeFromBoot, type BootFile } from '../../src-main/shim/boot-answer.mjs';
import { ENGINE_COMMAND_ENV, ENGINE_MALLOC_TUNABLES, START_CLAIM_FILE, START_CLAIM_STALE_MS, claimEngineStart } from '../../src-main/shim/engine-launch.mjs';
import { MAX_RUNTIME_DIR_BYTES, MAX_SOCKET_PATH_BYTES, socketPath } from '../../src-main/shim/home-paths.mjs';
import { NATIVE_SHIM_UNAVAILABLE, ROOT, makeHome, nativeShim } from '../helpers/home.ts';

type Platform = 'linux' | 'darwin' | 'win32';
interface Rules {
  constants: Record<string, unknown> & { startClaimFile: string };
  homes: { platform: Platform; env: NodeJS.ProcessEnv; flag?: string; cwd: string; home: string }[];
  sockets: { platform: Platform; home: string; uid: number; env: NodeJS.ProcessEnv; socket: string }[];
  bootFiles: { profile: string; connector: string; clientName: string; file: string }[];
  bootAnswer: { file: BootFile; initialize: { line: string; answer: string }[]; lines: { line: string; answer: string | null; served?: string }[] };
}
// Read with JSON.parse, not imported: a case holds a lone surrogate, which Vite's JSON loader refuses.
const rules = JSON.parse(readFileSync(path.join(ROOT, 'src-shared', 'shim-rules.json'), 'utf8')) as Rules;
const HOMES = rules.homes;
const SOCKETS = rules.sockets;
const c = rules.constants;

describe('the engine and the Node shim follow the shared rules', () => {
  it('with the same constants', () => {
    expect({
      appDirName: APP_DIR_NAME,
      maxSocketPathBytes: MAX_SOCKET_PATH_BYTES,
      maxRuntimeDirBytes: MAX_RUNTIME_DIR_BYTES,
      bootFileVersion: BOOT_FILE_VERSION,
      maxBootFileBytes: MAX_BOOT_FILE_BYTES,
      bootLists: BOOT_LIST_METHODS,
      startClaimFile: `run/${START_CLAIM_FILE}`,
      startClaimStaleMs: START_CLAIM_STALE_MS,
      engineCommandEnv: ENGINE_COMMAND_ENV,
      engineMallocTunables: ENGINE_MALLOC_TUNABLES,
    }).toEqual(c);
  });

  it.each(HOMES.map((h) => [`${h.platform} ${JSON.stringify(h.env)} ${h.flag ?? ''}`, h] as const))('finds the home for %s', (_, h) => {
    expect(resolveHome(h.flag, h.env, h.platform, h.cwd)).toBe(h.home);
  });

  it.each(SOCKETS.map((s) => [`${s.platform} ${s.home.slice(0, 40)} ${JSON.stringify(s.env)}`, s] as const))('names the socket for %s', (_, s) => {
    expect(socketPath(s.home, s.platform, s.env, s.uid)).toBe(s.socket);
  });

  it("gives the engine's home paths the socket of the rules where it depends on nothing else", () => {
    const plain = SOCKETS.filter((s) => s.platform === 'win32' || s.socket.startsWith(`${s.home}/`));
    expect(plain.length).toBeGreaterThan(2);
    for (const s of plain) expect(homePaths(s.home, s.platform).socket).toBe(s.socket);
  });

  it('names each boot answer file as the rules do, in the engine and in the shim', () => {
    expect(path.posix.join(BootAnswers.dirOf('run'), 'x')).toBe('run/boot/x');
    for (const f of rules.bootFiles) {
      expect(`run/boot/${bootKey(f.profile, f.connector, f.clientName)}.json`, JSON.stringify(f)).toBe(f.file);
    }
  });

  it('answers from a boot file as the rules say', () => {
    const file = rules.bootAnswer.file;
    for (const k of rules.bootAnswer.initialize) expect(initializeFromBoot(JSON.parse(k.line), file), k.line).toBe(k.answer);
    for (const k of rules.bootAnswer.lines) {
      const a = answerFromBoot(JSON.parse(k.line), file);
      const got = a === undefined ? null : a.drop ? 'drop' : a.reply;
      expect(got, k.line).toBe(k.answer);
      expect(a?.served, k.line).toBe(k.served);
    }
  });

  it('claims the start of an engine in the file of the rules, holding its pid', () => {
    const home = makeHome();
    const release = claimEngineStart(home);
    expect(readFileSync(path.join(home, c.startClaimFile), 'utf8')).toBe(`${process.pid}\n`);
    release!();
  });
});

// The binary itself, run with each case's environment and working folder: the cases of the
// platform it is built for (the others run in its Rust tests, where the platform is an input).
describe.skipIf(NATIVE_SHIM_UNAVAILABLE || process.platform === 'win32')('the native shim follows the shared rules', () => {
  function nativePaths(args: string[], env: NodeJS.ProcessEnv, cwd: string): { home: string; socket: string } {
    const r = spawnSync(nativeShim(), ['paths', ...args], { encoding: 'utf8', env: env as Record<string, string>, cwd });
    expect(r.status, r.stderr).toBe(0);
    const [home, socket] = r.stdout.trimEnd().split('\n');
    return { home: home!, socket: socket! };
  }
  // Built on first use: a release build, which takes minutes on a loaded machine.
  beforeAll(() => void nativeShim(), 300_000);
  // A working folder that is a link (macOS's /tmp) is reported resolved, by Node and Rust alike.
  const mine = (p: { platform: Platform }) => p.platform === process.platform;

  it('finds the home of each case', () => {
    const cases = HOMES.filter((h) => mine(h) && realpathSync(h.cwd) === h.cwd);
    expect(cases.length > 0 || process.platform !== 'linux').toBe(true);
    for (const h of cases) {
      const args = h.flag === undefined ? [] : [`--home=${h.flag}`];
      expect(nativePaths(args, h.env, h.cwd).home, JSON.stringify(h)).toBe(h.home);
    }
  });

  it('names the socket of each case', () => {
    const uid = process.getuid?.() ?? 0;
    // The short folder's name holds the user id, which the binary takes from the process.
    const cases = SOCKETS.filter((s) => mine(s) && (s.uid === uid || s.socket.startsWith(`${s.home}/`)));
    expect(cases.length > 0 || process.platform !== 'linux').toBe(true);
    for (const s of cases) expect(nativePaths(['--home', s.home], s.env, '/').socket, JSON.stringify(s)).toBe(s.socket);
  });
});
