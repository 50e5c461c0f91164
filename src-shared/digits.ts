// Numbers in messages, grouped the way en-US writes them (1,234,567), without ICU: the first
// toLocaleString or Intl call loads ~5 MB of the node binary's locale data into the process,
// resident for the engine's whole life (measured: file-backed RSS 35.2 → 41–43 MB in a bare
// node, and the engine ran one such call at load).

/** An integer with en-US digit grouping, as `n.toLocaleString('en-US')` writes it. */
export function groupDigits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
