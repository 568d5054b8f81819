/**
 * A vendor's own context packer in JavaScript, as it might ship before anyone
 * thought of ctxconform: its own document shape, its own estimate, its own prompt
 * format. Nothing here knows the kit; wrapper.mjs translates.
 *
 * Packing: documents by rank, highest first (equal ranks keep their order), each
 * one taken whole when its estimate fits what is left; an expired document is
 * skipped. Estimate: ceil(string length / 4), the UTF-16 length JavaScript gives,
 * with no minimum (an empty body is free).
 */

export const estimate = (body) => Math.ceil(body.length / 4);

/**
 * @param {{key: string, body: string, rank: number, origin: string, expiresAt?: number}[]} docs
 * @param {{maxTokens: number, now: number}} options
 */
export function packContext(docs, { maxTokens, now }) {
  const skipped = [];
  const fresh = [];
  for (const d of docs) {
    if (d.expiresAt !== undefined && now > d.expiresAt) skipped.push({ key: d.key, because: 'expired' });
    else fresh.push(d);
  }
  const used = [];
  let tokens = 0;
  for (const d of [...fresh].sort((a, b) => b.rank - a.rank)) {
    const cost = estimate(d.body);
    if (tokens + cost <= maxTokens) {
      tokens += cost;
      used.push(d);
    } else skipped.push({ key: d.key, because: 'over_budget' });
  }
  const prompt = used.map((d) => `--- ${d.origin} / ${d.key} ---\n${d.body}\n--- end ---`).join('\n');
  return { prompt, used: used.map((d) => d.key), skipped, tokens };
}
