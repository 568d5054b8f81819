/**
 * The token estimate (SPEC NUM-2: code points / 4) against real tokenizers.
 * Information only (SPEC section 12): budgets are enforced with the estimate,
 * and this shows how far that estimate is from what a model would count.
 * The tokenizers' ranks ship inside gpt-tokenizer: nothing is downloaded.
 */
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { assemble, DEFAULT_CAPABILITIES, estimateTokens, isErrorAnswer } from '../reference/index.js';
import { CAPABILITIES } from '../protocol/assembly.js';
import { byId } from '../protocol/types.js';
import { tokenCount } from '../vocabulary/encodings.js';
import type { GoldenCase } from '../vocabulary/types.js';
import type { EncodingName, EncodingStats, MarkerOverhead, TokenRow, TokenTable } from '../protocol/types.js';

export const ENCODINGS: Record<EncodingName, (s: string) => number> = {
  o200k_base: tokenCount(encodeO200k),
  cl100k_base: tokenCount(encodeCl100k),
};

/** An estimate below this share of the real count is an undercount worth listing. */
export const UNDERCOUNT_THRESHOLD = 0.9;

/** Nearest-rank percentile of sorted values (p in 0..100): the smallest value with at least p% of values at or below it. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export function median(sorted: readonly number[]): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  return n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

/** Rows for every case whose reference answer (without markers) has a non-empty context. */
export function measureCases(cases: readonly GoldenCase[]): TokenRow[] {
  const rows: TokenRow[] = [];
  for (const c of cases) {
    const r = assemble(c.request, { capabilities: DEFAULT_CAPABILITIES });
    if (isErrorAnswer(r) || r.context === '') continue;
    rows.push({
      id: c.id,
      estimated_tokens: r.estimated_tokens,
      context_estimate: estimateTokens(r.context),
      real: { o200k_base: ENCODINGS.o200k_base(r.context), cl100k_base: ENCODINGS.cl100k_base(r.context) },
    });
  }
  return rows.sort(byId);
}

export function tokenTable(rows: readonly TokenRow[]): TokenTable {
  const threshold = UNDERCOUNT_THRESHOLD;
  const encodings = (Object.keys(ENCODINGS) as EncodingName[]).map((encoding): EncodingStats => {
    const ratios = rows.map((r) => r.estimated_tokens / r.real[encoding]).sort((a, b) => a - b);
    const whole = rows.map((r) => r.context_estimate / r.real[encoding]).sort((a, b) => a - b);
    const undercounts = rows
      .filter((r) => r.estimated_tokens < threshold * r.real[encoding])
      .map((r) => ({ id: r.id, estimated_tokens: r.estimated_tokens, real: r.real[encoding], ratio: r.estimated_tokens / r.real[encoding] }))
      .sort((a, b) => a.ratio - b.ratio || (a.id < b.id ? -1 : 1));
    return {
      encoding,
      contexts: rows.length,
      median: median(ratios),
      p5: percentile(ratios, 5),
      p95: percentile(ratios, 95),
      context_median: median(whole),
      undercounts,
    };
  });
  return { threshold, encodings, rows: [...rows] };
}

/**
 * What the omission markers of SPEC 8.5 add: each case assembled with and
 * without them; where the contexts differ, the real tokens the markers add.
 */
export function markerOverhead(cases: readonly GoldenCase[]): MarkerOverhead {
  const names = Object.keys(ENCODINGS) as EncodingName[];
  const perMarker: Record<string, number[]> = {};
  const shares: Record<string, number[]> = {};
  let contexts = 0;
  let markers = 0;
  for (const c of cases) {
    const plain = assemble(c.request, { capabilities: DEFAULT_CAPABILITIES });
    const marked = assemble(c.request, { capabilities: CAPABILITIES });
    if (isErrorAnswer(plain) || isErrorAnswer(marked) || marked.context === plain.context) continue;
    const count = marked.context.split('\n[OMITTED: ').length - 1;
    contexts++;
    markers += count;
    for (const e of names) {
      const total = ENCODINGS[e](marked.context);
      const added = total - (plain.context === '' ? 0 : ENCODINGS[e](plain.context));
      perMarker[e] ??= [];
      perMarker[e].push(added / count);
      shares[e] ??= [];
      shares[e].push(added / total);
    }
  }
  const each = (f: (e: EncodingName) => number): Record<EncodingName, number> =>
    Object.fromEntries(names.map((e) => [e, f(e)])) as Record<EncodingName, number>;
  const sorted = (xs: number[] | undefined): number[] => (xs ?? []).sort((a, b) => a - b);
  return {
    contexts,
    markers,
    per_marker: each((e) => median(sorted(perMarker[e]))),
    share_median: each((e) => median(sorted(shares[e]))),
    share_max: each((e) => Math.max(...(shares[e] ?? [NaN]))),
  };
}
