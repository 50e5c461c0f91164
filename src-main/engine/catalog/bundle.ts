// MCP Bundles (.mcpb, formerly Claude Desktop Extensions): a zip with manifest.json at its root.
// The manifest names the server's command (mcp_config, with ${__dirname} and ${user_config.KEY}
// placeholders, per-OS overrides) and the values to ask the user for (user_config; `sensitive`
// ones become secrets). The zip is untrusted: sizes are capped, every entry's CRC is checked,
// and one entry that would land outside the bundle's folder (absolute, `..`, drive letters), is
// not a plain file or folder (symbolic links, devices), or collides with another (twice, by
// case, as file and folder, sharing bytes) refuses the whole bundle. Where it is unpacked and
// kept: bundle-store.ts. Field names follow anthropics/mcpb (MANIFEST.md, src/schemas,
// src/shared/config.ts).
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { SERVER_NAME_RE } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import type { InstallPlan, PlanInput } from './install-plan.ts';
import { cleanText } from './server-json.ts';
import { openZip, ZipTooManyEntries, type EntryKind, type ZipListing, type ZipReader } from './zip-reader.ts';

const MAX_BUNDLE_BYTES = 200 * 1024 * 1024;
const MAX_UNPACKED_BYTES = 500 * 1024 * 1024;
const MAX_FILES = 20_000;

export interface UserConfigOption {
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  title: string;
  description?: string;
  required: boolean;
  sensitive: boolean;
  default?: string;
}

export interface BundleManifest {
  name: string;
  version: string;
  displayName?: string;
  description: string;
  author?: string;
  serverType: 'node' | 'python' | 'binary' | 'uv';
  entryPoint: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  userConfig: Record<string, UserConfigOption>;
}

export interface Bundle {
  manifest: BundleManifest;
  files: Record<string, Uint8Array>;
  /** The first DIGEST_CHARS hex characters of the .mcpb file's SHA-256. */
  digest: string;
}

function refuse(why: string): never {
  throw new SwitchboardError('bad-request', `This is not a bundle Switchboard can install: ${why}. Nothing was written.`);
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function strings(v: unknown, what: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) refuse(`${what} is not a list of strings`);
  return v as string[];
}

function stringMap(v: unknown, what: string): Record<string, string> {
  if (v === undefined) return {};
  if (!isObj(v) || Object.values(v).some((s) => typeof s !== 'string')) refuse(`${what} is not an object of strings`);
  return v as Record<string, string>;
}

/**
 * A zip entry's path with `/` separators; refuses anything that could land outside the bundle's
 * folder or mean something else on another system: absolute paths, drive letters, `..`, empty or
 * `.` segments, control characters, and `:` (a Windows drive or alternate data stream).
 */
function safeEntryPath(name: string): string {
  const n = name.replace(/\\/g, '/').replace(/\/+$/, '');
  const segs = n.split('/');
  if (n.startsWith('/') || /^[A-Za-z]:/.test(n) || segs.some((seg) => seg === '..')) {
    refuse(`it contains the path "${cleanText(name, 200)}", which points outside the bundle`);
  }
  // eslint-disable-next-line no-control-regex
  if (segs.some((seg) => seg === '' || seg === '.') || /[\u0000-\u001f\u007f:]/.test(n)) {
    refuse(`it contains the path "${cleanText(name, 200)}", which is not a plain file name`);
  }
  return n;
}

const KIND_WORDS: Record<Exclude<EntryKind, 'file' | 'folder'>, string> = {
  symlink: 'a symbolic link',
  device: 'a device file',
  fifo: 'a named pipe',
  socket: 'a socket',
  unknown: 'a special file',
};

/**
 * The entries to unpack: plain files only, each path unique even where names ignore case or
 * Unicode form (macOS, Windows), none both a file and a folder, no two sharing their bytes (the
 * zip form of a hard link, and of overlapping-entry zip bombs).
 */
function checkListing(listing: ZipListing[]): ZipListing[] {
  const seen = new Map<string, string>();
  const offsets = new Map<number, string>();
  const files: ZipListing[] = [];
  const folders = new Set<string>();
  for (const l of listing) {
    const p = safeEntryPath(l.name);
    if (l.kind !== 'file' && l.kind !== 'folder') refuse(`it contains ${KIND_WORDS[l.kind]}, "${cleanText(l.name, 200)}"; a bundle may hold only files and folders`);
    const key = p.normalize('NFC').toLowerCase();
    if (l.kind === 'folder') {
      folders.add(key);
      continue;
    }
    const twin = seen.get(key);
    if (twin !== undefined) {
      refuse(twin === l.name ? `it contains "${cleanText(l.name, 200)}" twice` : `it contains both "${cleanText(twin, 200)}" and "${cleanText(l.name, 200)}", which are the same file on Windows and macOS`);
    }
    seen.set(key, l.name);
    const shared = offsets.get(l.localOffset);
    if (shared !== undefined) refuse(`its entries "${cleanText(shared, 200)}" and "${cleanText(l.name, 200)}" share their data`);
    offsets.set(l.localOffset, l.name);
    files.push(l);
  }
  // A file may not also be a folder of another entry ("data" and "data/x").
  for (const key of seen.keys()) {
    const segs = key.split('/');
    for (let i = 1; i < segs.length; i++) {
      const parent = segs.slice(0, i).join('/');
      const clash = seen.get(parent);
      if (clash !== undefined) refuse(`it contains "${cleanText(clash, 200)}" as a file and as a folder`);
    }
  }
  for (const f of folders) if (seen.has(f)) refuse(`it contains "${cleanText(seen.get(f)!, 200)}" as a file and as a folder`);
  return files;
}

export function parseManifest(raw: unknown, platform: NodeJS.Platform): BundleManifest {
  if (!isObj(raw)) refuse('manifest.json is not a JSON object');
  const str = (k: string) => (typeof raw[k] === 'string' ? (raw[k] as string) : refuse(`manifest.json has no "${k}"`));
  const server = isObj(raw.server) ? raw.server : refuse('manifest.json has no "server"');
  const type = server.type;
  if (type !== 'node' && type !== 'python' && type !== 'binary' && type !== 'uv') refuse(`server.type "${String(type)}" is not node, python, binary or uv`);
  const mcp = isObj(server.mcp_config) ? server.mcp_config : refuse('manifest.json has no server.mcp_config');
  if (typeof mcp.command !== 'string' || mcp.command === '') refuse('server.mcp_config.command is missing');
  let command = mcp.command;
  let args = strings(mcp.args, 'server.mcp_config.args');
  let env = stringMap(mcp.env, 'server.mcp_config.env');
  const overrides = isObj(mcp.platform_overrides) ? mcp.platform_overrides : {};
  const o = overrides[platform];
  if (isObj(o)) {
    if (typeof o.command === 'string' && o.command) command = o.command;
    if (o.args !== undefined) args = strings(o.args, `platform_overrides.${platform}.args`);
    if (o.env !== undefined) env = { ...env, ...stringMap(o.env, `platform_overrides.${platform}.env`) };
  }
  const userConfig: Record<string, UserConfigOption> = {};
  if (raw.user_config !== undefined) {
    if (!isObj(raw.user_config)) refuse('user_config is not an object');
    for (const [k, v] of Object.entries(raw.user_config)) {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(k) || !isObj(v)) refuse(`user_config "${cleanText(k, 80)}" is malformed`);
      const t = v.type;
      if (t !== 'string' && t !== 'number' && t !== 'boolean' && t !== 'directory' && t !== 'file') refuse(`user_config.${k}.type is unknown`);
      const def = v.default;
      userConfig[k] = {
        type: t,
        title: typeof v.title === 'string' ? cleanText(v.title, 200) : k,
        ...(typeof v.description === 'string' ? { description: cleanText(v.description, 500) } : {}),
        required: v.required === true,
        sensitive: v.sensitive === true,
        ...(typeof def === 'string' || typeof def === 'number' || typeof def === 'boolean' ? { default: String(def) } : {}),
      };
    }
  }
  const author = isObj(raw.author) && typeof raw.author.name === 'string' ? cleanText(raw.author.name, 200) : undefined;
  return {
    name: str('name'),
    version: str('version'),
    ...(typeof raw.display_name === 'string' ? { displayName: cleanText(raw.display_name, 100) } : {}),
    description: cleanText(typeof raw.description === 'string' ? raw.description : '', 500),
    ...(author ? { author } : {}),
    serverType: type,
    entryPoint: typeof server.entry_point === 'string' ? server.entry_point : '',
    command,
    args,
    env,
    userConfig,
  };
}

/**
 * Reads a .mcpb file's bytes: the manifest and every file, checked, nothing written. Whatever is
 * wrong with the zip, it is refused with the bundle's sentence (never another exception).
 */
export async function readBundle(bytes: Uint8Array, platform: NodeJS.Platform = process.platform): Promise<Bundle> {
  if (bytes.byteLength > MAX_BUNDLE_BYTES) refuse(`it is larger than ${MAX_BUNDLE_BYTES / 1024 / 1024} MB`);
  let zip: ZipReader;
  try {
    zip = await openZip(bytes, { maxEntries: MAX_FILES });
  } catch (err) {
    if (err instanceof ZipTooManyEntries) refuse(`it has more than ${MAX_FILES} files`);
    refuse(`it is not a readable zip file (${cleanText((err as Error).message, 200)})`);
  }
  const files: Record<string, Uint8Array> = {};
  try {
    const wanted = checkListing([...zip.entries]);
    let unpacked = 0;
    for (const l of wanted) {
      unpacked += l.size;
      if (unpacked > MAX_UNPACKED_BYTES) refuse(`it unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB`);
    }
    for (const l of wanted) {
      let data: Buffer;
      try {
        data = await zip.read(l);
      } catch {
        refuse(`its entry "${cleanText(l.name, 200)}" is damaged`);
      }
      // yauzl checks the size but no CRC: a lying entry is caught here.
      if (data.byteLength !== l.size || crc32(data) !== l.crc32) refuse(`its entry "${cleanText(l.name, 200)}" is damaged`);
      files[safeEntryPath(l.name)] = data;
    }
  } finally {
    zip.close();
  }
  const manifestBytes = files['manifest.json'];
  if (!manifestBytes) refuse('it has no manifest.json at its root');
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(manifestBytes).toString('utf8'));
  } catch {
    refuse('manifest.json is not valid JSON');
  }
  return { manifest: parseManifest(raw, platform), files, digest: createHash('sha256').update(bytes).digest('hex').slice(0, DIGEST_CHARS) };
}

/** Hex characters of the bundle's SHA-256 in its folder's name (128 bits: no two bundles share one). */
export const DIGEST_CHARS = 32;

/**
 * The folder a bundle is unpacked to, named by its content: <name>-<version>-<digest>. A
 * different bundle with the same name and version gets a folder of its own; the same bundle
 * twice, the same folder (bundle-store.ts never writes into an existing one).
 */
export function bundleFolderName(m: BundleManifest, digest: string): string {
  const safe = `${m.name}-${m.version}`.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[._]+/, '').slice(0, 120) || 'bundle';
  return `${safe}-${digest}`;
}

/** Folders the manifest may name: ${HOME}, ${DESKTOP}, ${DOCUMENTS}, ${DOWNLOADS}. */
function systemDirs(env: NodeJS.ProcessEnv): Record<string, string> {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  return { HOME: home, DESKTOP: path.join(home, 'Desktop'), DOCUMENTS: path.join(home, 'Documents'), DOWNLOADS: path.join(home, 'Downloads') };
}

/**
 * The install plan of a bundle unpacked at `dir`: its command line with every placeholder filled
 * in, and one question per user_config value it uses. Unknown placeholders stay as written.
 */
export function bundlePlan(m: BundleManifest, dir: string, opts: { env: NodeJS.ProcessEnv; serverName?: string; proposed?: boolean }): InstallPlan {
  const fixed: Record<string, string> = { __dirname: dir, pathSeparator: path.sep, '/': path.sep, ...systemDirs(opts.env) };
  const inputs: PlanInput[] = [];
  const idOf = new Map<string, number>();
  const ask = (key: string): number => {
    let id = idOf.get(key);
    if (id === undefined) {
      const o = m.userConfig[key]!;
      id = inputs.length;
      idOf.set(key, id);
      inputs.push({
        id,
        label: o.title,
        ...(o.description ? { description: o.description } : {}),
        isSecret: o.sensitive,
        isRequired: o.required,
        ...(o.default !== undefined ? { default: o.default } : {}),
      });
    }
    return id;
  };
  const template = (s: string) => {
    const parts: ({ text: string } | { input: number })[] = [];
    let secret = false;
    let last = 0;
    const re = /\$\{([^{}]+)\}/g;
    for (let mm = re.exec(s); mm; mm = re.exec(s)) {
      const key = mm[1]!;
      const uc = key.startsWith('user_config.') ? key.slice('user_config.'.length) : null;
      if (uc !== null && m.userConfig[uc]) {
        if (mm.index > last) parts.push({ text: s.slice(last, mm.index) });
        parts.push({ input: ask(uc) });
        secret ||= m.userConfig[uc]!.sensitive;
      } else if (fixed[key] !== undefined) {
        if (mm.index > last) parts.push({ text: s.slice(last, mm.index) });
        parts.push({ text: fixed[key]! });
      } else continue;
      last = mm.index + mm[0].length;
    }
    if (last < s.length) parts.push({ text: s.slice(last) });
    return { template: parts, secret };
  };
  const args = m.args.map((a) => {
    const t = template(a);
    if (t.secret) {
      throw new SwitchboardError(
        'bad-request',
        `This bundle puts a sensitive value into the command line ("${cleanText(a, 100)}"); Switchboard keeps secrets only in env, never in config.json, so it cannot install it.`,
      );
    }
    return t.template;
  });
  const env: InstallPlan['env'] = {};
  for (const [k, v] of Object.entries(m.env)) env[k] = template(v);
  let serverName = opts.serverName ?? m.name.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  if (!SERVER_NAME_RE.test(serverName)) serverName = 'bundle';
  return {
    entry: { name: m.name, version: m.version, description: m.description, ...(m.displayName ? { title: m.displayName } : {}), packages: [], remotes: [], status: 'active' },
    serverName,
    kind: 'package',
    source: `bundle ${m.name} ${m.version}${m.author ? ` by ${m.author}` : ''}, ${opts.proposed ? 'kept packed until you approve it, then unpacked to' : 'unpacked to'} ${dir}`,
    runner: m.command,
    inputs,
    command: template(m.command).template.map((p) => ('text' in p ? p.text : '')).join(''),
    args,
    env,
    headers: {},
  };
}
