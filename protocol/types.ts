/**
 * The types every layer shares: what an implementation declares (Manifest),
 * what an adapter hands back (Outcome, Implementation), and the report the
 * runner writes and report/ renders. Adapters and report writers import them
 * from here, never from the runner's folder. The JSON shapes are the schemas
 * beside this file: protocol/schemas/*.schema.json. The request and result
 * themselves are in assembly.ts, re-exported here.
 */
import type { DeclaredConstants } from './assembly.js';

export * from './assembly.js';

/** `flaky`: answers differed between the repeats of `--repeat N` (REQ-2); it fails a run like `fail`. */
export type Status = 'pass' | 'fail' | 'error' | 'timeout' | 'crash' | 'flaky' | 'skip';
export const STATUSES: readonly Status[] = ['pass', 'fail', 'error', 'timeout', 'crash', 'flaky', 'skip'];

export interface Manifest {
  name: string;
  version: string;
  language?: string;
  profiles: string[];
  capabilities: string[];
  /** Declared constants of profile tiered (SPEC section 17); absent: the specification's. */
  constants?: DeclaredConstants;
}

/**
 * What an adapter got back for one request, before any judging. Adapters never
 * throw for a misbehaving implementation: every failure mode is an Outcome.
 */
export type Outcome =
  /** The implementation answered with something that is not an error answer (not yet validated). */
  | { kind: 'result'; value: unknown; stderr?: string }
  /** The implementation answered with an error answer (code and message as it gave them). */
  | { kind: 'error'; code: unknown; message: unknown; value: unknown; stderr?: string }
  /** No answer within the time limit; the adapter has restarted or abandoned the process. */
  | { kind: 'timeout'; message: string; stderr?: string }
  /** The process died or the connection was lost; the adapter restarts on the next request. */
  | { kind: 'crash'; message: string; stderr?: string }
  /** An answer that could not be read: not JSON, wrong id, too large, wrong HTTP status. */
  | { kind: 'protocol'; message: string; raw?: string; stderr?: string }
  /** The transport cannot carry this request (adapters/wire.ts: NaN over JSON); nothing was sent. */
  | { kind: 'unsendable'; message: string; stderr?: string };

/** One implementation under test, behind any adapter. */
export interface Implementation {
  /** The manifest: from `describe`, or from --manifest when given. */
  describe(): Promise<Manifest>;
  assemble(request: unknown, options: { timeoutMs: number }): Promise<Outcome>;
  /**
   * The implementation's stderr for an outcome it gave, when reading it takes a
   * moment longer than the answer (stdio: a log line may arrive after the
   * answer). Asked only for a case that did not pass; without it, outcome.stderr.
   */
  stderrFor?(outcome: Outcome): Promise<string | undefined>;
  /** Answers that answered no request in flight (stdio: a second answer to one already answered), a fault of the run. */
  unexpectedAnswers?(): UnexpectedAnswers | undefined;
  close(): Promise<void>;
}

/** How many answers came that answered no request in flight, and the first few of them, quoted. */
export interface UnexpectedAnswers {
  count: number;
  lines: string[];
}

export interface CaseResult {
  id: string;
  kind: 'case' | 'property' | 'contract' | 'replay' | 'sweep';
  status: Status;
  requirements: string[];
  description?: string;
  tags?: string[];
  duration_ms: number;
  message?: string;
  expected?: unknown;
  actual?: unknown;
  request?: unknown;
  stderr?: string;
  rerun?: string;
  seed?: number;
  path?: string;
  counterexample?: unknown;
  num_runs?: number;
  /** Contract clauses: how many exchanges put the clause to the test (SPEC section 16). */
  exchanges_tested?: number;
  /** Golden cases: the spec version since which the case holds. */
  since?: string;
  /** Golden cases judged with declared constants: the matchers whose expected values came from the reference computed with them (DECL-4). */
  declared_constants?: string[];
  /** A `flaky` result: each distinct answer with the repeats (1-based) that gave it. */
  answers?: RepeatAnswer[];
  /** A result that did not pass: what its failure is, as a baseline entry keys it (conformance/defect.ts). */
  defect?: Defect;
}

/**
 * What a failure is, as a baseline entry accepts it: a failure with another
 * defect is a new failure. A property's or replayed request's values are
 * those of its shrunk counterexample.
 */
export interface Defect {
  /** A replayed request: the checks that failed (differential, partition, budget, whole-blocks, expired-never-included, determinism). */
  checks?: string[];
  /** The members on which the answer differs from what was expected (included, context, omissions, partition, error ...), sorted. */
  members: string[];
  /** Where they differ: JSON Pointers into the expected and actual values, sorted (the first ones in document order); absent in a golden case's entry. */
  paths?: string[];
  /** The defect catalogue's diagnosis, when one was made: an entry that holds one matches only it. */
  diagnosis?: string;
}

/** One of the answers a case gave under `--repeat N`. */
export interface RepeatAnswer {
  repeats: number[];
  /** The status this answer alone would have been judged. */
  status: Status;
  message?: string;
  /** What came back: the result or error answer (a property: its counterexample); absent for a timeout or crash. */
  answer?: unknown;
}

export interface Summary {
  total: number;
  pass: number;
  fail: number;
  error: number;
  timeout: number;
  crash: number;
  /** Absent from reports of kits before `--repeat` (read as 0). */
  flaky: number;
  skip: number;
}

/**
 * The transport a run went through, by its name in the kit's registry
 * (conformance/runner/transports.ts): reference, module, stdio, http, or the
 * memory-api contract (SPEC section 16); a new transport brings its own.
 */
export type AdapterName = string;

export interface Report {
  kit: { name: 'ctxconform'; version: string; spec: string };
  implementation: Manifest;
  run?: {
    adapter?: AdapterName;
    target?: string;
    seed?: number;
    properties_runs?: number;
    shard?: string | null;
    filter?: string | null;
    /** `--spec`: the spec version whose cases ran. */
    spec?: string;
    /** `--repeat`: how many times each case was sent. */
    repeat?: number;
    /** Present when tiered was judged with declared constants that are not the specification's: the run is tiered with declared constants (SPEC section 17). */
    constants?: DeclaredConstants;
    /** The run was ended by this signal: the report holds what was judged before it, and is no verdict on the rest. */
    interrupted?: 'SIGINT' | 'SIGTERM';
    started_at?: string;
    duration_ms?: number;
  };
  summary: Summary;
  cases: CaseResult[];
  baseline?: BaselineSummary;
  /** `ctxconform replay`: what was read and how fast (docs/replay.md). */
  replay?: ReplayInfo;
  /** `ctxconform sweep`: the block set at every budget, for the inclusion chart. */
  sweep?: SweepInfo;
  /** A judging run with failures: the known defects that reproduce them, best first (docs/diagnosis.md); absent when nothing failed. */
  diagnosis?: DiagnosisEntry[];
}

/** One likely cause of a run's failures: a catalogue defect (or two together) whose model answers as the implementation did. */
export interface DiagnosisEntry {
  /** The catalogue id, or two joined by `+`. */
  id: string;
  requirements: string[];
  summary: string;
  /** Failing results whose answer it reproduces exactly. */
  explains: number;
  /** Passing results it would have made fail. */
  contradicts: number;
  /** Failing results the diagnosis read. */
  failing: number;
  /** The catalogue entries it is made of. */
  defects?: string[];
  /** The ids of the failing results it explains, and of the passing ones it contradicts. */
  explained?: string[];
  contradicted?: string[];
  /** Catalogue entries the run cannot tell from it (the same failures explained, the same contradictions). */
  alike?: string[];
}

/** A baseline entry's why, as `ctxconform baseline` files carry it. */
export interface BaselineNote {
  kind: 'bug' | 'by-design';
  reason?: string;
  link?: string;
}

export interface BaselineSummary {
  file: string;
  /** Failing cases the baseline expects (bugs and deviations by design). */
  known: string[];
  /** Baseline ids whose case now passes. */
  stale: string[];
  /** Of `known`, those the baseline marks `by-design`: shown apart. */
  by_design?: string[];
  /** The reasons and links of the known and stale entries that have one. */
  notes?: Record<string, BaselineNote>;
  /** Failing ids the baseline has an entry for, with that status, whose failure is not the one the entry accepts: new failures. */
  changed?: string[];
  /** Known ids whose entry has no defect key: it accepts any failure of that status (a baseline of a kit before keys). */
  unkeyed?: string[];
}

export interface ReplayInfo {
  files: { file: string; requests: number; unreadable: number }[];
  /** Records read: requests judged or skipped, and unreadable lines. */
  requests: number;
  unreadable: number;
  /** Records per second over the whole replay. */
  rate_per_s: number;
  /** Each request sent twice, the answers compared (REQ-2). */
  sent_twice: boolean;
  /** Results in `cases`; the others are counted in `summary` only (passes past --max-listed, failures past it). */
  listed: number;
  unlisted: number;
  /** Failing requests shrunk to a smaller one that still fails. */
  shrunk: number;
}

/** Budgets as inclusive intervals `[from, to]` of the swept budgets. */
export type BudgetIntervals = [number, number][];

export interface SweepInfo {
  /** Where the block set came from: a case id, `FILE:LINE`, or `generated (seed N)`. */
  source: string;
  budgets: { from: number; to: number; step: number; count: number };
  /** The smallest swept budget from which the reference includes every block it includes at the last one. */
  admits_all_from: number | null;
  first_disagreement: number | null;
  /** Budgets where the implementation's answer is not the reference's. */
  disagreements: BudgetIntervals;
  /** Budgets where either side answered with an error (pinned_overflow, or the implementation's failure). */
  reference_errors: BudgetIntervals;
  implementation_errors: BudgetIntervals;
  blocks: { block_id: string; reference: BudgetIntervals; implementation: BudgetIntervals }[];
}

/** Statuses that make a run fail unless a baseline expects them. */
export const FAILING: ReadonlySet<Status> = new Set(['fail', 'error', 'timeout', 'crash', 'flaky']);

/** Case-id order: the order of every report, sharded or merged. */
export function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function summarize(cases: readonly { status: Status }[]): Summary {
  const s: Summary = { total: cases.length, pass: 0, fail: 0, error: 0, timeout: 0, crash: 0, flaky: 0, skip: 0 };
  for (const c of cases) s[c.status]++;
  return s;
}

/** `ctxconform tokens`: the token estimate against real tokenizers (conformance/tokens.ts computes it). */
export type EncodingName = 'o200k_base' | 'cl100k_base';

export interface TokenRow {
  id: string;
  /** The result's `estimated_tokens`: what the budget was enforced with (block contents only, TIER-9). */
  estimated_tokens: number;
  /** `estimate_tokens(context)`: the estimator applied to the whole context, headers included. */
  context_estimate: number;
  real: Record<EncodingName, number>;
}

export interface Undercount {
  id: string;
  estimated_tokens: number;
  real: number;
  ratio: number;
}

export interface EncodingStats {
  encoding: EncodingName;
  contexts: number;
  /** Ratios estimated_tokens / real tokens. */
  median: number;
  p5: number;
  p95: number;
  /** The same ratios for the estimator applied to the whole context. */
  context_median: number;
  undercounts: Undercount[];
}

/** What omission markers (SPEC 8.5) add to the contexts: not charged against the budget (MRK-4), so reported here. */
export interface MarkerOverhead {
  /** Contexts of the corpus that get at least one marker, and the markers in them. */
  contexts: number;
  markers: number;
  /** Per encoding: real tokens one marker adds (median over those contexts, added tokens / markers). */
  per_marker: Record<EncodingName, number>;
  /** Per encoding: the median share of a context's real tokens that its markers take. */
  share_median: Record<EncodingName, number>;
  /** Per encoding: the largest such share. */
  share_max: Record<EncodingName, number>;
}

export interface TokenTable {
  threshold: number;
  encodings: EncodingStats[];
  rows: TokenRow[];
  markers?: MarkerOverhead;
}
