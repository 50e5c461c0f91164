// Reads a zip held in memory with yauzl, the one zip reader of the engine: its central directory
// (names, sizes, CRC-32, where each entry's data starts) and the entries asked for. A bundle is
// untrusted (bundle.ts), so anything yauzl cannot read — truncated, corrupted, lying Zip64
// fields, encrypted or unknown compression — comes out as one ZipUnreadable, never as another
// exception. yauzl reports what the central directory says but not the kind of file an entry is
// (a Unix mode's type bits: file, folder, symbolic link, device, fifo, socket), which decides
// whether it may be unpacked at all; `kindOf` reads it.
import type { Entry, ZipFile } from 'yauzl';

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

/** The zip cannot be read; `message` is yauzl's (or ours) and says where. */
export class ZipUnreadable extends Error {}

/** The zip lists more entries than the reader was allowed to take. */
export class ZipTooManyEntries extends Error {
  constructor(readonly count: number) {
    super(`the zip lists ${count} entries`);
  }
}

export interface ZipReader {
  /** Every entry of the central directory, in order. */
  readonly entries: readonly ZipListing[];
  /**
   * The bytes of `entry` (one of `entries`), unpacked. yauzl stops with an error as soon as they
   * differ from the declared size, so a lying size cannot unpack more than the listing said.
   */
  read(entry: ZipListing): Promise<Buffer>;
  close(): void;
}

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

/**
 * Opens the zip in `bytes` and lists its entries. Throws ZipTooManyEntries past `maxEntries`
 * (before reading any), ZipUnreadable for anything else that is wrong with it.
 */
export async function openZip(bytes: Uint8Array, opts: { maxEntries: number }): Promise<ZipReader> {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Loaded on first use: only installing a bundle reads a zip, and an engine that never does
  // need not hold yauzl's code (docs/measurements.md, "Hot path").
  // A CommonJS module: its exports object is `default` both in Node and in the bundle, where
  // esbuild does not copy them out as named exports of a dynamic import.
  const { fromBufferPromise, getFileNameLowLevel } = (await import('yauzl')).default;
  let zip: ZipFile;
  try {
    // Names are decoded below without yauzl's own path check, so the caller's refusal (naming the
    // path) applies; validateEntrySizes makes an entry's stream fail at the first byte too many.
    zip = await fromBufferPromise(buf, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true });
  } catch (err) {
    throw unreadable(err);
  }
  if (zip.entryCount > opts.maxEntries) {
    zip.close();
    throw new ZipTooManyEntries(zip.entryCount);
  }
  const entries: ZipListing[] = [];
  const raw = new Map<ZipListing, Entry>();
  try {
    for await (const e of zip.eachEntry()) {
      const name = getFileNameLowLevel(e.generalPurposeBitFlag, e.fileNameRaw, e.extraFields, false);
      const l: ZipListing = {
        name,
        kind: kindOf(e.versionMadeBy, e.externalFileAttributes, name),
        localOffset: e.relativeOffsetOfLocalHeader,
        crc32: e.crc32,
        compressedSize: e.compressedSize,
        size: e.uncompressedSize,
      };
      entries.push(l);
      raw.set(l, e);
    }
  } catch (err) {
    zip.close();
    throw unreadable(err);
  }
  return {
    entries,
    async read(l) {
      const e = raw.get(l);
      if (!e) throw new ZipUnreadable(`"${l.name}" is not an entry of this zip`);
      try {
        const stream = await zip.openReadStreamPromise(e);
        const chunks: Buffer[] = [];
        for await (const c of stream) chunks.push(c as Buffer);
        return Buffer.concat(chunks);
      } catch (err) {
        throw unreadable(err);
      }
    },
    close: () => zip.close(),
  };
}

function unreadable(err: unknown): ZipUnreadable {
  return err instanceof ZipUnreadable ? err : new ZipUnreadable(err instanceof Error ? err.message : String(err));
}
