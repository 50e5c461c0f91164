// The files of a segment log's folder: their names, which leftovers to remove on open, and how a
// segment's bytes divide into whole record lines, and how they are read. Pure functions over names
// and buffers.

const SEGMENT_NAME = /^(\d{12})\.ndjson$/;
const INDEX_NAME = /^(\d{12})\.idx\.json$/;
const NEWLINE = 0x0a;

/**
 * How segment and index files are read (home-file.mjs): only regular files, so a pipe planted
 * under a segment's name cannot block the engine; any size, the log's caps bound them; and of
 * any owner, as a read-only home may be another user's (tests/engine/records/write-failure.test.ts).
 */
export const SEGMENT_READ = { maxBytes: Infinity, anyOwner: true };

/** `000000000042.ndjson`: twelve digits keep the folder listing in segment order. */
export function segmentFileName(seq: number): string {
  return `${String(seq).padStart(12, '0')}.ndjson`;
}

export function indexFileName(seq: number): string {
  return `${String(seq).padStart(12, '0')}.idx.json`;
}

/** The segment numbers among a folder's names, oldest first. */
export function segmentSeqs(names: readonly string[]): number[] {
  return names
    .flatMap((n) => {
      const m = SEGMENT_NAME.exec(n);
      return m ? [Number(m[1])] : [];
    })
    .sort((a, b) => a - b);
}

/** Leftovers of a crash mid-write or mid-drop: temp files, and index files whose segment is gone. */
export function leftoverNames(names: readonly string[], seqs: readonly number[]): string[] {
  const known = new Set(seqs);
  return names.filter((n) => {
    const idx = INDEX_NAME.exec(n);
    return n.endsWith('.tmp') || (idx !== null && !known.has(Number(idx[1])));
  });
}

/**
 * Calls `onLine(start, end)` for each newline-terminated line of `buf` (`end` is the newline's
 * offset) and returns the bytes they cover: anything past that is a torn last line.
 */
export function forEachLine(buf: Uint8Array, onLine: (start: number, end: number) => void): number {
  let start = 0;
  while (start < buf.length) {
    const nl = buf.indexOf(NEWLINE, start);
    if (nl < 0) break;
    onLine(start, nl);
    start = nl + 1;
  }
  return start;
}
