/**
 * How a memory service counts tokens, as its user declares it
 * (`--estimator`, SPEC section 16 MAPI-3): characters per token (code points,
 * NUM-2's 4 unless said otherwise) or one of the real tokenizers the kit ships
 * (running/tokens.ts). The kit recounts every answer's segments with it,
 * so a service whose own `tokenEstimate` undercounts cannot pass the budget.
 */
import { estimateTokens } from '../reference/index.js';
import type { EncodingName } from '../protocol/types.js';

export interface Estimator {
  /** As the option spells it: `4`, `o200k_base`. */
  spec: string;
  /** As a message says it: `4 code points a token (NUM-2)`. */
  name: string;
  cost(text: string): number;
}

export const DEFAULT_ESTIMATOR_SPEC = '4';

const ENCODING_NAMES: readonly string[] = ['o200k_base', 'cl100k_base'] satisfies EncodingName[];

/** Is this an `--estimator` value the kit knows? */
export function isEstimatorSpec(spec: string): boolean {
  return ENCODING_NAMES.includes(spec) || (/^\d+(\.\d+)?$/.test(spec) && Number(spec) > 0);
}

function charsEstimator(spec: string): Estimator {
  const perToken = Number(spec);
  // NUM-2's form with another divisor: whole tokens, at least one per text.
  return { spec, name: `${spec} code points a token${perToken === 4 ? ', NUM-2' : ''}`, cost: (s) => estimateTokens(s, perToken) };
}

export const DEFAULT_ESTIMATOR: Estimator = charsEstimator(DEFAULT_ESTIMATOR_SPEC);

/** The estimator an `--estimator` value names (a tokenizer's ranks load only when one is asked for); undefined when it names none. */
export async function loadEstimator(spec: string): Promise<Estimator | undefined> {
  if (!isEstimatorSpec(spec)) return undefined;
  if (!ENCODING_NAMES.includes(spec)) return charsEstimator(spec);
  const { loadEncoding } = await import('../vocabulary/encodings.js');
  return { spec, name: `${spec} tokens`, cost: await loadEncoding(spec as EncodingName) };
}

export const ESTIMATOR_CHOICES = 'a number of code points per token (default 4, NUM-2), o200k_base or cl100k_base';

/**
 * What the segments of an answer cost: the sum of each segment's content
 * cost. Formatting between segments is the caller's (the contract keeps
 * formatting out of assembly), so nothing is counted for it. A content that
 * is not a string is MAPI-2's to report and costs nothing here.
 */
export function segmentsCost(contents: readonly unknown[], e: Estimator): number {
  let n = 0;
  for (const c of contents) if (typeof c === 'string') n += e.cost(c);
  return n;
}

/** The largest undercount seen over a run: how far an answer's tokenEstimate fell below the kit's count. */
export interface Undercount {
  /** Answers with segments whose tokenEstimate was below the kit's count. */
  answers: number;
  /** Answers with segments whose tokenEstimate was compared. */
  of: number;
  worst?: { by: number; estimate: number; counted: number; scenario: string };
}

export function noUndercount(): Undercount {
  return { answers: 0, of: 0 };
}

export function addUndercount(u: Undercount, estimate: number, counted: number, scenario: string): void {
  u.of++;
  if (counted <= estimate) return;
  u.answers++;
  const by = counted - estimate;
  if (!u.worst || by > u.worst.by) u.worst = { by, estimate, counted, scenario };
}

/** The sentence MAPI-3's result carries about the kit's own count. */
export function undercountNote(u: Undercount, e: Estimator): string {
  if (u.of === 0) return '';
  const by = `by the kit's count (${e.name})`;
  if (!u.worst) return `; ${by}, tokenEstimate never undercounted the segments (${u.of} answers with segments)`;
  const w = u.worst;
  return (
    `; ${by}, tokenEstimate undercounted the segments in ${u.answers} of ${u.of} answers with segments, by ` +
    `at most ${w.by} token(s) (${w.estimate} said, ${w.counted} counted, in "${w.scenario}")`
  );
}
