/**
 * Which exchanges are judged: each one on its own with probability `rate`
 * (0 none, 1 all), so a sample says the same of the traffic whatever its
 * rhythm. `random` is there for a test that wants to know the draw.
 */
export function sampler(rate: number, random: () => number = Math.random): () => boolean {
  if (!(rate >= 0 && rate <= 1)) throw new RangeError(`the sampled fraction must be within 0..1, not ${rate}`);
  if (rate === 0) return () => false;
  if (rate === 1) return () => true;
  return () => random() < rate;
}
