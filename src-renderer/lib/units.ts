// Durations and sizes in the units people use: seconds and minutes, KB and MB, never ms or B.

/** 0.04 s, 3.5 s, 42 s, 2 min 5 s. */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  const s = ms / 1000;
  if (s < 10) return `${s < 0.01 ? '<0.01' : s.toFixed(2).replace(/\.?0+$/, '') || '0'} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s - m * 60);
  return rest ? `${m} min ${rest} s` : `${m} min`;
}

/** 16 bytes, 3.2 KB, 1.5 MB. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${trim(bytes / 1024)} KB`;
  return `${trim(bytes / (1024 * 1024))} MB`;
}

function trim(n: number): string {
  return n >= 10 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, '');
}
