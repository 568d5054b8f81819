/**
 * mulberry32: small, fast and seeded, so every run sees the same data. Shared
 * by the benchmarks' workloads and the reference tests that need many
 * reproducible blocks faster than fast-check would draw them.
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
