// What a zip's central directory says about each entry beyond its name and sizes, which fflate
// does not report: the kind of file (a Unix mode's type bits: file, folder, symbolic link,
// device, fifo, socket), where its data starts, and its CRC-32. A bundle is untrusted, so these
// decide whether an entry may be unpacked at all (bundle.ts). Read-only; nothing is unpacked here.

export type EntryKind = 'file' | 'folder' | 'symlink' | 'device' | 'fifo' | 'socket' | 'unknown';

export interface ZipListing {
  name: string;
  kind: EntryKind;
  /** Offset of the entry's local header: two entries with one offset share their bytes. */
  localOffset: number;
  crc32: number;
  compressedSize: number;
  size: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const HOST_UNIX = 3;
const HOST_MAC = 19;

function kindOf(versionMadeBy: number, external: number, name: string): EntryKind {
  const host = versionMadeBy >>> 8;
  const mode = external >>> 16;
  if ((host === HOST_UNIX || host === HOST_MAC) && mode !== 0) {
    switch (mode & 0o170000) {
      case 0o100000:
        return 'file';
      case 0o040000:
        return 'folder';
      case 0o120000:
        return 'symlink';
      case 0o020000:
      case 0o060000:
        return 'device';
      case 0o010000:
        return 'fifo';
      case 0o140000:
        return 'socket';
      case 0:
        break; // Type bits not set: fall back to the name and MS-DOS attributes.
      default:
        return 'unknown';
    }
  }
  return name.endsWith('/') || (external & 0x10) !== 0 ? 'folder' : 'file';
}

/** The central directory's entries in order, or null when the zip has no readable one. */
export function listZip(data: Uint8Array): ZipListing[] | null {
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const u16 = (o: number) => dv.getUint16(o, true);
  const u32 = (o: number) => dv.getUint32(o, true);
  const u64 = (o: number) => Number(dv.getBigUint64(o, true));
  if (data.length < 22) return null;
  let e = data.length - 22;
  while (u32(e) !== EOCD) {
    if (e === 0 || data.length - e > 65_557) return null;
    e--;
  }
  let count = u16(e + 10);
  let offset = u32(e + 16);
  if (e >= 20 && u32(e - 20) === ZIP64_LOCATOR) {
    const z = u64(e - 12);
    if (z + 56 <= data.length && u32(z) === ZIP64_EOCD) {
      count = u64(z + 32);
      offset = u64(z + 48);
    }
  }
  const out: ZipListing[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > data.length || u32(offset) !== CENTRAL) return null;
    const versionMadeBy = u16(offset + 4);
    const utf8 = (u16(offset + 8) & 0x800) !== 0;
    const crc32 = u32(offset + 16);
    let compressedSize = u32(offset + 20);
    let size = u32(offset + 24);
    const nameLen = u16(offset + 28);
    const extraLen = u16(offset + 30);
    const commentLen = u16(offset + 32);
    const external = u32(offset + 38);
    let localOffset = u32(offset + 42);
    const nameStart = offset + 46;
    if (nameStart + nameLen + extraLen > data.length) return null;
    const raw = data.subarray(nameStart, nameStart + nameLen);
    const name = utf8 ? new TextDecoder().decode(raw) : String.fromCharCode(...raw);
    // Zip64 extra field (id 1): the sizes and offset that did not fit, in that order.
    for (let x = nameStart + nameLen; x + 4 <= nameStart + nameLen + extraLen; ) {
      const id = u16(x);
      const len = u16(x + 2);
      if (id === 1) {
        let p = x + 4;
        if (size === 0xffffffff) (size = u64(p)), (p += 8);
        if (compressedSize === 0xffffffff) (compressedSize = u64(p)), (p += 8);
        if (localOffset === 0xffffffff) localOffset = u64(p);
      }
      x += 4 + len;
    }
    out.push({ name, kind: kindOf(versionMadeBy, external, name), localOffset, crc32, compressedSize, size });
    offset = nameStart + nameLen + extraLen + commentLen;
  }
  return out;
}
