// Where bundles live in the home, and the rules that keep an approved server's code what was
// approved:
//   bundles/<name>-<version>-<digest>/   one folder per bundle, named by its content, written once
//                                         (through a temp folder renamed into place) and never again
//   bundles/.pending/<folder>.mcpb       a proposed bundle (`install --propose`), kept packed: no
//                                         entry can run a byte of it until the user approves it,
//                                         when it is checked against its digest and unpacked
//   bundles/<folder>.tmp-<pid>-<n>/      an unpack under way; a dead pid's is cleared at the next
//                                         install or engine start
// A folder or pending file that no config.json entry names is removed (sweepBundles); a pending
// bundle whose entry was approved by hand is unpacked by the engine (bundleUpkeep). Unpacking
// and sweeping take bundles/.lock, so a sweep never removes a folder an install is adding.
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { readHomeFile } from '../../shim/home-file.mjs';
import { isProcessAlive, writeFileAtomic } from '../config/atomic-file.ts';
import { tryLock, withFileLock } from '../config/file-lock.ts';
import { bundleFolderName, DIGEST_CHARS, readBundle, type Bundle } from './bundle.ts';

const PENDING = '.pending';
const LOCK = '.lock';
const FOLDER_RE = new RegExp(`^[A-Za-z0-9_.-]+-[0-9a-f]{${DIGEST_CHARS}}$`);
const TEMP_RE = /\.tmp-(\d+)-\d+$/;
let tempCounter = 0;

export function bundlesDir(home: string): string {
  return path.join(home, 'bundles');
}

/** The folder a bundle is (or will be) unpacked to. */
export function bundleDir(home: string, b: Bundle): string {
  return path.join(bundlesDir(home), bundleFolderName(b.manifest, b.digest));
}

function pendingFile(home: string, folder: string): string {
  return path.join(bundlesDir(home), PENDING, `${folder}.mcpb`);
}

const exists = (p: string) => stat(p).then(() => true, () => false);

/** Runs `fn` holding bundles/.lock (waits for a live holder; a dead one's lock is broken). */
export async function withBundleLock<T>(home: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(bundlesDir(home), { recursive: true, mode: 0o700 });
  return withFileLock(path.join(bundlesDir(home), LOCK), fn, { staleMs: 10 * 60_000, timeoutMs: 60_000, busy: 'A bundle is being installed' });
}

/**
 * Unpacks `b` into its own folder, unless that folder is already there (the same bundle: its
 * files are left exactly as they are). Every file is created new (`wx`, so nothing is followed or
 * overwritten) in a temp folder that is renamed into place whole; on any failure the temp folder
 * is removed. Returns the folder.
 */
export async function unpackBundle(home: string, b: Bundle): Promise<string> {
  const dir = bundleDir(home, b);
  if (await exists(dir)) return dir;
  await mkdir(bundlesDir(home), { recursive: true, mode: 0o700 });
  const tmp = `${dir}.tmp-${process.pid}-${++tempCounter}`;
  try {
    await mkdir(tmp);
    const entry = b.manifest.entryPoint.replace(/\\/g, '/').replace(/^\.\//, '');
    for (const [rel, data] of Object.entries(b.files)) {
      const target = path.join(tmp, ...rel.split('/'));
      if (!target.startsWith(tmp + path.sep)) throw new SwitchboardError('bad-request', `This is not a bundle Switchboard can install: "${rel}" points outside the bundle. Nothing was written.`);
      await mkdir(path.dirname(target), { recursive: true });
      // A binary server's entry point has to be executable; nothing else gets that bit.
      const exec = b.manifest.serverType === 'binary' && rel === entry;
      await writeFile(target, data, { mode: exec ? 0o755 : 0o644, flag: 'wx' });
    }
    try {
      await rename(tmp, dir);
    } catch (err) {
      // Another install of the very same bundle got there first: its folder is this one.
      if (!(await exists(dir))) throw err;
    }
  } catch (err) {
    if (err instanceof SwitchboardError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw new SwitchboardError('io-error', `Could not unpack the bundle into ${path.dirname(dir)} (${e.code ?? e.message}). Nothing was written; check the free space and permissions of that folder.`);
  } finally {
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
  return dir;
}

/**
 * Keeps a proposed bundle packed in bundles/.pending until it is approved; its entry points at
 * the folder it will be unpacked to, which does not exist until then. The same bundle already
 * unpacked needs nothing kept.
 */
export async function stageProposedBundle(home: string, b: Bundle, bytes: Uint8Array): Promise<void> {
  if (await exists(bundleDir(home, b))) return;
  const file = pendingFile(home, bundleFolderName(b.manifest, b.digest));
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, bytes);
}

/** The bundle folders an entry (or any JSON value) names. */
function foldersNamedIn(value: unknown, candidates: Iterable<string>): string[] {
  const text = JSON.stringify(value) ?? '';
  return [...candidates].filter((f) => text.includes(f));
}

/** The pending bundles (folder names) that `entry` names. */
async function pendingNamedIn(home: string, entry: unknown): Promise<string[]> {
  const pending = await readdir(path.join(bundlesDir(home), PENDING)).catch(() => [] as string[]);
  return foldersNamedIn(entry, pending.filter((n) => n.endsWith('.mcpb')).map((n) => n.slice(0, -'.mcpb'.length)).filter((f) => FOLDER_RE.test(f)));
}

/** Unpacks the pending bundle of `folder` after checking its bytes are the ones proposed; the caller holds the lock. */
async function release(home: string, folder: string): Promise<void> {
  const file = pendingFile(home, folder);
  let bytes: Buffer;
  try {
    // Only our own pending file, never a pipe or link planted under its name.
    bytes = await readHomeFile(file, { maxBytes: Infinity });
  } catch {
    return; // Released meanwhile, or not a file of ours.
  }
  let bundle: Bundle | undefined;
  try {
    bundle = await readBundle(bytes);
  } catch {
    bundle = undefined;
  }
  if (!bundle || bundleFolderName(bundle.manifest, bundle.digest) !== folder) {
    throw new SwitchboardError('denied', `The bundle waiting for approval in ${file} is not the one that was proposed (it changed since). Nothing was approved; install the bundle again.`);
  }
  await unpackBundle(home, bundle);
  await rm(file, { force: true });
}

/**
 * On approval: unpacks every bundle an entry names that waits in bundles/.pending, after checking
 * that its bytes are still the ones proposed (their digest is in the folder's name).
 */
export async function releaseProposedBundles(home: string, entry: unknown): Promise<void> {
  const folders = await pendingNamedIn(home, entry);
  if (!folders.length) return;
  await withBundleLock(home, async () => {
    for (const folder of folders) await release(home, folder);
  });
}

/**
 * Removes what no entry of `servers` names: bundle folders, pending bundles, and the temp folders
 * and files of installs that were killed (their pid is gone). With `wait: false` (the engine) a
 * held lock means an install is under way: the sweep is skipped, the next one does it.
 */
export async function sweepBundles(home: string, servers: Record<string, unknown>, opts: { wait?: boolean } = {}): Promise<string[]> {
  const root = bundlesDir(home);
  if (!(await exists(root))) return [];
  const sweep = async () => {
    const removed: string[] = [];
    const text = JSON.stringify(servers) ?? '';
    const remove = async (p: string) => {
      await rm(p, { recursive: true, force: true });
      removed.push(p);
    };
    for (const name of await readdir(root)) {
      const temp = TEMP_RE.exec(name);
      if (temp) {
        if (!isProcessAlive(Number(temp[1]))) await remove(path.join(root, name));
      } else if (FOLDER_RE.test(name) && !text.includes(name)) await remove(path.join(root, name));
    }
    const pendingDir = path.join(root, PENDING);
    for (const name of await readdir(pendingDir).catch(() => [] as string[])) {
      const folder = name.endsWith('.mcpb') ? name.slice(0, -'.mcpb'.length) : null;
      if (folder !== null && FOLDER_RE.test(folder)) {
        if (!text.includes(folder) || (await exists(path.join(root, folder)))) await remove(path.join(pendingDir, name));
        continue;
      }
      // The atomic writer's temp files: .<name>.<pid>.<random>.tmp
      const pid = /^\..+\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name)?.[1];
      if (pid && !isProcessAlive(Number(pid))) await remove(path.join(pendingDir, name));
    }
    return removed;
  };
  if (opts.wait !== false) return withBundleLock(home, sweep);
  return (await withLockIfFree(home, sweep)) ?? [];
}

/** Runs `fn` holding bundles/.lock if nobody holds it; undefined (not run) when someone does. */
async function withLockIfFree<T>(home: string, fn: () => Promise<T>): Promise<T | undefined> {
  const lock = tryLock(path.join(bundlesDir(home), LOCK), { staleMs: 10 * 60_000 });
  if (!lock.ok) return undefined;
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/**
 * The engine's upkeep at start and at each config change: a proposed bundle whose entry the user
 * approved another way (removing `proposedBy` from config.json by hand) is unpacked, then what no
 * entry names is swept. Never waits for an install under way; the next change does it. Returns
 * the servers that name a bundle unpacked now (they may have started without it).
 */
export async function bundleUpkeep(home: string, servers: Record<string, { proposedBy?: unknown }>): Promise<string[]> {
  if (!(await exists(bundlesDir(home)))) return [];
  const approved = Object.values(servers).filter((s) => s.proposedBy === undefined);
  const folders = await pendingNamedIn(home, approved);
  const missing: string[] = [];
  for (const f of folders) if (!(await exists(path.join(bundlesDir(home), f)))) missing.push(f);
  const released = await withLockIfFree(home, async () => {
    for (const f of missing) await release(home, f);
    return missing;
  });
  await sweepBundles(home, servers, { wait: false });
  return Object.keys(servers).filter((name) => foldersNamedIn(servers[name], released ?? []).length > 0);
}
