// Hand-made .mcpb bundles for the bundle tests, honest and hostile: a tiny stdio MCP server that
// says which bundle it came from, zips with Unix entry types (symbolic links, devices), and
// byte-level edits of a zip's headers (renamed entries, shared data, lying sizes) that no zip
// library writes on purpose.
import { zipSync, strToU8, type Zippable } from 'fflate';
import { writeFileSync } from 'node:fs';

/** A dependency-free stdio MCP server whose one tool, `which`, answers `mark` (baked in). */
export function markServer(mark: string): string {
  return `
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
if (process.argv.includes('--print')) { console.log(${JSON.stringify(mark)}); process.exit(0); }
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method === 'initialize') send({ id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'marked', version: '1.0.0' } } });
  else if (msg.method === 'tools/list') send({ id: msg.id, result: { tools: [{ name: 'which', description: 'Says which bundle it is.', inputSchema: { type: 'object' } }] } });
  else if (msg.method === 'tools/call') send({ id: msg.id, result: { content: [{ type: 'text', text: ${JSON.stringify(mark)} }] } });
  else send({ id: msg.id, error: { code: -32601, message: 'no' } });
});
`;
}

export function markManifest(name: string, version: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    manifest_version: '0.3',
    name,
    version,
    description: 'A test bundle.',
    server: { type: 'node', entry_point: 'server.js', mcp_config: { command: process.execPath, args: ['${__dirname}/server.js'] } },
    ...extra,
  };
}

export type Entry = string | { data?: string; unix: number };

const S_IFLNK = 0o120000;
const S_IFCHR = 0o020000;
const S_IFIFO = 0o010000;
const S_IFREG = 0o100000;
export const MODE = { symlink: S_IFLNK | 0o777, device: S_IFCHR | 0o644, fifo: S_IFIFO | 0o644, file: S_IFREG | 0o644 };

/** Zips `files`; an entry given as { unix } carries that Unix mode (a symlink's data is its target). */
export function zip(files: Record<string, Entry>): Uint8Array {
  const z: Zippable = {};
  for (const [name, e] of Object.entries(files)) {
    z[name] = typeof e === 'string' ? strToU8(e) : [strToU8(e.data ?? ''), { os: 3, attrs: (e.unix << 16) >>> 0 }];
  }
  return zipSync(z);
}

export function writeZip(file: string, files: Record<string, Entry>): string {
  writeFileSync(file, zip(files));
  return file;
}

/** Replaces every occurrence of the bytes of `from` (names in local and central headers) with `to` (same length). */
export function renameEntries(data: Uint8Array, from: string, to: string): Uint8Array {
  const a = Buffer.from(from);
  const b = Buffer.from(to);
  if (a.length !== b.length) throw new Error('renameEntries: names must have the same length');
  const out = Buffer.from(data);
  for (let i = out.indexOf(a); i >= 0; i = out.indexOf(a, i + 1)) b.copy(out, i);
  return out;
}

/** The offsets of each central directory header, in order. */
function centralHeaders(data: Uint8Array): number[] {
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let e = data.length - 22;
  while (dv.getUint32(e, true) !== 0x06054b50) e--;
  const count = dv.getUint16(e + 10, true);
  const out: number[] = [];
  let o = dv.getUint32(e + 16, true);
  for (let i = 0; i < count; i++) {
    out.push(o);
    o += 46 + dv.getUint16(o + 28, true) + dv.getUint16(o + 30, true) + dv.getUint16(o + 32, true);
  }
  return out;
}

/** Edits one central directory entry: its declared size, or where its data is (another entry's). */
export function patchCentral(data: Uint8Array, index: number, patch: { size?: number; localOffsetOf?: number }): Uint8Array {
  const out = Buffer.from(data);
  const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const heads = centralHeaders(out);
  const h = heads[index]!;
  if (patch.size !== undefined) dv.setUint32(h + 24, patch.size, true);
  if (patch.localOffsetOf !== undefined) dv.setUint32(h + 42, dv.getUint32(heads[patch.localOffsetOf]! + 42, true), true);
  return out;
}

/** Bundles that must be refused whole, each with what it tries and the refusal it must get. */
export function hostileBundles(manifest: string, server: string): [string, () => Uint8Array, RegExp][] {
  return [
    ['a symbolic link', () => zip({ 'manifest.json': manifest, 'server.js': server, 'server/config-link': { data: '/etc/passwd', unix: MODE.symlink } }), /it contains a symbolic link, "server\/config-link"/],
    ['a device file', () => zip({ 'manifest.json': manifest, 'server.js': server, 'dev/tty0': { unix: MODE.device } }), /it contains a device file, "dev\/tty0"/],
    ['a named pipe', () => zip({ 'manifest.json': manifest, 'server.js': server, fifo: { unix: MODE.fifo } }), /it contains a named pipe, "fifo"/],
    ['an absolute path', () => zip({ 'manifest.json': manifest, '/etc/cron.d/x': 'x' }), /"\/etc\/cron\.d\/x", which points outside the bundle/],
    ['".." inside a path', () => zip({ 'manifest.json': manifest, 'a/../../x': 'x' }), /points outside the bundle/],
    ['a backslash path outside', () => zip({ 'manifest.json': manifest, '..\\x': 'x' }), /points outside the bundle/],
    ['a "." or empty segment', () => zip({ 'manifest.json': manifest, 'a/./server.js': 'x' }), /is not a plain file name/],
    ['a name twice', () => renameEntries(zip({ 'manifest.json': manifest, 'server.js': server, 'servex.js': 'evil' }), 'servex.js', 'server.js'), /it contains "server\.js" twice/],
    ['two names that are one where case is ignored', () => zip({ 'manifest.json': manifest, 'server.js': server, 'Server.js': 'evil' }), /both "server\.js" and "Server\.js"/],
    ['two Unicode forms of one name', () => zip({ 'manifest.json': manifest, 'caf\u00e9.js': 'a', 'cafe\u0301.js': 'b' }), /which are the same file on Windows and macOS/],
    ['a file that is also a folder', () => zip({ 'manifest.json': manifest, data: 'file', 'data/x': 'x' }), /"data" as a file and as a folder/],
    ['two entries sharing their data (a hard link)', () => patchCentral(zip({ 'manifest.json': manifest, 'server.js': server, 'copy.js': 'x' }), 2, { localOffsetOf: 1 }), /share their data/],
    ['an entry whose declared size lies', () => patchCentral(zip({ 'manifest.json': manifest, 'server.js': server }), 1, { size: 10 }), /its entry "server\.js" is damaged/],
    ['a zip bomb declaring 600 MB', () => patchCentral(zip({ 'manifest.json': manifest, 'server.js': server }), 1, { size: 600 * 1024 * 1024 }), /it unpacks to more than 500 MB/],
  ];
}
