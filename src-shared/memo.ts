// Results of a pure function of one or two strings, kept for the strings that recur on a hot path
// (a client's name matched against the client catalog's patterns on every audited call).

/**
 * `fn` with its results kept by arguments, up to `max` of them (default 256): past that all are
 * forgotten at once, so that a stream of unique arguments costs a clear now and then, not growth.
 */
export function memoStrings<R>(fn: (a: string, b: string | undefined) => R, max = 256): (a: string, b?: string) => R {
  const kept = new Map<string | undefined, Map<string, R>>();
  let size = 0;
  return (a, b) => {
    let byA = kept.get(b);
    if (byA?.has(a)) return byA.get(a)!;
    if (size >= max) {
      kept.clear();
      size = 0;
      byA = undefined;
    }
    if (!byA) kept.set(b, (byA = new Map()));
    const r = fn(a, b);
    byA.set(a, r);
    size++;
    return r;
  };
}
