// Record times: ISO 8601 strings on disk, milliseconds in the index and in queries.

/** Unparseable times sort as the epoch rather than failing the record. */
export function timeOf(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

/** A query bound that does not parse is ignored rather than matching nothing. */
export function parseTime(iso: string | undefined): number | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
}
