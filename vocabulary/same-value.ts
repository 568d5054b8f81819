/**
 * Two answer values alike as the spec reads them: deep equality of JSON
 * values where numbers compare by value, so -0 equals 0 (NUM-5) and `1.0`
 * is `1` (SPEC section 7, how answers are compared). The judge and the
 * diagnosis compare with it; `--repeat` does not (PROTO-7: two spellings
 * from one implementation are two answers).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b); // NaN, which only in-process answers can hold
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) if (!Object.hasOwn(y, k) || !sameValue(x[k], y[k])) return false;
  return true;
}
