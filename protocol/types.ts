/**
 * The types every layer shares: what an implementation declares (Manifest),
 * what an adapter hands back (Outcome, Implementation), and the report the
 * runner writes and report/ renders. Adapters and report writers import them
 * from here, never from the runner's folder. The JSON shapes are the schemas
 * beside this file: protocol/schemas/*.schema.json. The request and result
 * themselves are in assembly.ts, imported from there.
 */
import type { DeclaredConstants } from './assembly.js';

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
  /** Whether the implementation refuses invalid requests as section 3 says: the validation level (SPEC LVL-2). */
  validates?: boolean;
  /** The declared design the `any` level measures and reads answers with (SPEC section 18, DES-1 to DES-4). */
  design?: DeclaredDesign;
}

/** How a declared design counts a block's cost (DES-1): units of its content, or a real tokenizer; per block, or over the contents joined. */
export type DeclaredEstimator =
  | ({ unit: 'code_points' | 'utf16' | 'utf8_bytes' | 'words'; per_token?: number; rounding?: 'floor' | 'ceil'; min?: 0 | 1 } & DeclaredOverheads)
  | ({ tokenizer: EncodingName } & DeclaredOverheads);

/** What a declared estimator adds to the contents' count (DES-1), and whether it counts them as one text. */
export interface DeclaredOverheads {
  /** Per included block; may be a fraction (3.8 per message). */
  overhead?: number;
  /** Once for a selection that includes at least one block (24 per conversation). */
  context_overhead?: number;
  /** The contents are counted once, joined by this text in `included`'s order, not block by block (with `counts` "content" only). */
  join?: string;
  /** What is counted: each content (default), each rendered block (header, content, footer), that and the separator after it, or the rendered context as one text. */
  counts?: 'content' | 'block' | 'block_and_separator' | 'context';
}

/** A header or footer (DES-2): a template of the block's fields, or a choice of one by a member's value. */
export type DeclaredTemplate = string | DeclaredChoice;

export interface DeclaredChoice {
  /** `pinned`, `source`, `status` or a declared member (DES-5). */
  by: string;
  cases: Record<string, DeclaredTemplate>;
  default?: DeclaredTemplate;
}

/** How a declared design writes its context (DES-2). */
export interface DeclaredRender {
  header?: DeclaredTemplate;
  footer?: DeclaredTemplate;
  separator?: string;
  empty?: string;
  /** How a block whose content is "" is written: as any block (default), its header alone, or nothing at all (no separator either). */
  empty_content?: 'block' | 'header' | 'nothing';
}

export interface DeclaredDesign {
  estimator?: DeclaredEstimator;
  render?: DeclaredRender;
  /** DES-3: `not_reported` when the implementation does not say what it dropped (every drop is then silent). */
  omissions?: 'reported' | 'not_reported';
  /** DES-5: block members beyond section 2 the implementation reads, each with the values it knows; the kit's requests carry them. */
  members?: Record<string, string[]>;
  /** DES-6: valid requests the implementation refuses with an error, by what they hold; such a refusal is skipped, not failed (ANY-13). */
  refuses?: DeclaredRefusal[];
  /** DES-7: the order it considers blocks in and what it does at one that does not fit: the selection the kit computes (ANY-14). */
  fill?: DeclaredFill | 'own';
  /** DES-8: the order of `included` and of the context (ANY-15). */
  context_order?: DeclaredContextOrder;
  /** DES-9: the block member whose equal values link blocks kept or dropped together (a tool call and its result, ANY-16). */
  groups?: string;
  /** DES-10: the sentence written where blocks were left out, with their count or ids. */
  marker?: DeclaredMarker;
  /** DES-11: whether a block is expired at the instant now == created_at + ttl_seconds (`inclusive`) or only after it (`exclusive`, EXP-1). */
  expiry?: 'exclusive' | 'inclusive';
  /** DES-12: the design shortens a block to fit on purpose, keeping its head or tail at a boundary, with an optional marker. */
  cut?: DeclaredCut;
}

export interface DeclaredCut {
  keep: 'head' | 'tail';
  /** `whitespace`: the kept head ends before a white-space character of the content (a kept tail begins after one); `token`: the kept part is the text of whole tokens of the declared tokenizer. */
  at: 'character' | 'whitespace' | 'token';
  /** Written right after the kept head, or right before the kept tail. */
  marker?: string;
  /** A cut block listed in `omissions` with this reason (its kept part written last, after the included blocks), instead of in `included`. */
  reason?: string;
}

export interface DeclaredMarker {
  /** With `{count}` (the blocks not included) or `{ids}` (their ids joined by ", "). */
  text: string;
  /** `after_pinned`: right after the pinned blocks the context starts with (first when none), as a head-and-tail trimmer writes it. */
  where: 'first' | 'last' | 'after_pinned';
}

export interface DeclaredFill {
  order: 'priority' | 'newest_first' | 'oldest_first' | 'input';
  misfit: 'skip' | 'stop';
  /** How blocks equal under `order` are ordered: the request's order (default; newest first: the later first), the later first, by block id, the newest first. */
  ties?: 'input' | 'later_first' | 'block_id' | 'newest_first';
  /** `whole`: blocks equal under `order` are one level, taken together when they fit (a priority cutoff); default: one by one. */
  levels?: 'whole' | 'apart';
}

export interface DeclaredContextOrder {
  by: 'priority' | 'chronological' | 'input';
  pinned_first?: boolean;
}

/** What makes a valid request one a design refuses (DES-6). */
export type DeclaredRefusal = 'budget_zero' | 'empty_content' | 'lone_surrogate' | 'special_tokens';
export const DECLARED_REFUSALS: readonly DeclaredRefusal[] = ['budget_zero', 'empty_content', 'lone_surrogate', 'special_tokens'];

/**
 * What an adapter read of the implementation's stderr while one request was
 * in flight. The count is said apart from the text, so no reader has to
 * find it in the text.
 */
export interface RequestStderr {
  stderr?: string;
  /** How many other requests were in flight meanwhile: some of the lines may be theirs. */
  stderrInFlight?: number;
}

/** The stderr members of an outcome (or window), without absent ones. */
export function requestStderrOf(o: RequestStderr): RequestStderr {
  if (!o.stderr) return {};
  return o.stderrInFlight ? { stderr: o.stderr, stderrInFlight: o.stderrInFlight } : { stderr: o.stderr };
}

/**
 * What an adapter got back for one request, before any judging. Adapters never
 * throw for a misbehaving implementation: every failure mode is an Outcome.
 */
export type Outcome = RequestStderr &
  /** The implementation answered with something that is not an error answer (not yet validated). */
  (
    | { kind: 'result'; value: unknown }
    /** The implementation answered with an error answer (code and message as it gave them). */
    | { kind: 'error'; code: unknown; message: unknown; value: unknown }
    /** No answer within the time limit; the adapter has restarted or abandoned the process. */
    | { kind: 'timeout'; message: string }
    /** The process died or the connection was lost; the adapter restarts on the next request. */
    | { kind: 'crash'; message: string }
    /** An answer that could not be read: not JSON, wrong id, too large, wrong HTTP status. */
    | { kind: 'protocol'; message: string; raw?: string }
    /** The transport cannot carry this request (adapters/wire.ts: NaN over JSON); nothing was sent. */
    | { kind: 'unsendable'; message: string }
  );

/** One implementation under test, behind any adapter. */
export interface Implementation {
  /** The manifest: from `describe`, or from --manifest when given. */
  describe(): Promise<Manifest>;
  assemble(request: unknown, options: { timeoutMs: number }): Promise<Outcome>;
  /**
   * The implementation's stderr for an outcome it gave, when reading it takes a
   * moment longer than the answer (stdio: a log line may arrive after the
   * answer). Asked only for a case that did not pass; without it, the outcome's.
   */
  stderrFor?(outcome: Outcome): Promise<RequestStderr>;
  /** Answers that answered no request in flight (stdio: a second answer to one already answered), a fault of the run. */
  unexpectedAnswers?(): UnexpectedAnswers | undefined;
  close(): Promise<void>;
}

/** How many answers came that answered no request in flight, and the first few of them, quoted. */
export interface UnexpectedAnswers {
  count: number;
  lines: string[];
}

/**
 * Which part of conformance a result speaks for: `validation`, the checks on
 * input validation (golden cases whose expectation is an `invalid_request`
 * error, the invalid-requests property); `contract`, the memory-api clauses
 * (SPEC section 16); `profile`, the behaviour of a declared profile (every
 * other result); `any`, what holds whatever the profile.
 */
export type Level = 'any' | 'profile' | 'validation' | 'contract';
export const LEVELS: readonly Level[] = ['any', 'profile', 'validation', 'contract'];

/** What a run says of one level (SPEC LVL-1): the words are the verdict's, or why nothing at the level was put to the test. */
export type LevelWord = 'PASS' | 'PASS (known failures only)' | 'FAIL' | 'not declared' | 'not run';

export interface LevelReached {
  level: Level;
  /** `any design`, the exact profiles declared (`tiered`, `tiered with declared constants`, `ranked`), `validation`, `contract`. */
  name: string;
  word: LevelWord;
  pass: number;
  /** Results at the level that did not pass (fail, error, timeout, crash). */
  failing: number;
  skip: number;
  /** Principles of the level no result could put to the test, with why (ANY-10 for a render that names no block): never a pass. */
  not_judged?: NotJudged[];
}

export interface NotJudged {
  principle: string;
  /** The principle in a word, as the levels line writes it: `provenance`. */
  name: string;
  reason: string;
  /** The principle is judged, but not for every block: `reason` says for which it is not (a render that names some blocks, ANY-10). */
  partly?: boolean;
}

/** What every result has, whatever its kind. */
interface ResultBase {
  id: string;
  level: Level;
  status: Status;
  requirements: string[];
  /** Of a result that did not pass at the any level: the principles its answer broke, said apart from what it tests (a pinned case whose block was cut broke ANY-1). */
  broke?: string[];
  description?: string;
  duration_ms: number;
  message?: string;
  /** The command that reruns just this result. */
  rerun?: string;
  /** A result that did not pass: what its failure is, as a baseline entry keys it (vocabulary/defect.ts). */
  defect?: Defect;
}

/** What came of one exchange that did not pass: the values compared, the request, the implementation's stderr. */
interface Exchanged {
  expected?: unknown;
  actual?: unknown;
  request?: unknown;
  stderr?: string;
  /** How many other requests were in flight while `stderr` was read: some of its lines may be theirs. */
  stderr_in_flight?: number;
}

/** A golden case (cases/): its request sent, its answer judged against the case's expectation. */
export interface GoldenResult extends ResultBase, Exchanged {
  kind: 'case';
  tags?: string[];
  /** The spec version since which the case holds. */
  since?: string;
  /** Judged with declared constants: the matchers whose expected values came from the reference computed with them (DECL-4). */
  declared_constants?: string[];
  /** A `flaky` result: each distinct answer with the repeats (1-based) that gave it. */
  answers?: RepeatAnswer[];
}

/** A property (property/NAME): generated requests from a seed, a failure shrunk to its counterexample. */
export interface PropertyResult extends ResultBase, Pick<Exchanged, 'expected' | 'actual'> {
  kind: 'property';
  seed?: number;
  /** fast-check's path to the shrunk counterexample. */
  path?: string;
  counterexample?: unknown;
  num_runs?: number;
  /** A `flaky` result: each distinct outcome with the repeats (1-based) that gave it. */
  answers?: RepeatAnswer[];
}

/** A memory-api contract clause (contract/NAME, SPEC section 16). */
export interface ContractResult extends ResultBase, Pick<Exchanged, 'actual' | 'request'> {
  kind: 'contract';
  seed?: number;
  /** Exchanges the run attempted. */
  num_runs?: number;
  /** How many exchanges put the clause to the test. */
  exchanges_tested?: number;
  counterexample?: unknown;
  /** A `flaky` clause: each distinct outcome with the repeats (1-based) that gave it. */
  answers?: RepeatAnswer[];
}

/** A recorded request replayed (replay/FILE:LINE, `ctxconform replay`). */
export interface RecordResult extends ResultBase, Exchanged {
  kind: 'replay';
  /** The request shrunk from the recorded one that still fails. */
  counterexample?: unknown;
}

/** One block set at every budget of a range (sweep/SOURCE, `ctxconform sweep`). */
export interface SweepResult extends ResultBase, Exchanged {
  kind: 'sweep';
  /** The request at the first disagreeing budget, shrunk. */
  counterexample?: unknown;
}

/** One result of a report, by its kind: each kind has only its own members. */
export type CaseResult = GoldenResult | PropertyResult | ContractResult | RecordResult | SweepResult;
export type ResultKind = CaseResult['kind'];
export const RESULT_KINDS: readonly ResultKind[] = ['case', 'property', 'contract', 'replay', 'sweep'];
export type ResultOf<K extends ResultKind> = Extract<CaseResult, { kind: K }>;

/** The results of one kind, typed as that kind. */
export function resultsOf<K extends ResultKind>(cases: readonly CaseResult[], kind: K): ResultOf<K>[] {
  return cases.filter((c): c is ResultOf<K> => c.kind === kind);
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
 * (running/transports.ts): reference, module, stdio, http, or the
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
    /** Working out the likely cause threw: what it said. The verdict and the results stand; the likely cause is missing. */
    likely_cause_failed?: string;
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
  /**
   * The design-agnostic principles (SPEC section 18) the failures no catalogue model explains
   * break (all failures when none does), most failures first: the causes that hold whatever
   * the design. Present with `diagnosis` when a reading was made.
   */
  principles?: PrincipleCause[];
  /** The levels the run reached (SPEC LVL-1), as the JSON report writes them: derived from `cases`, the manifest and the baseline. */
  levels?: LevelReached[];
}

/** A principle the failing answers break, as the likely cause names it: "the budget is overrun (ANY-2): explains 12 of 40 failures". */
export interface PrincipleCause {
  requirement: string;
  summary: string;
  explains: number;
  failing: number;
  /** The failing results that break it. */
  explained: string[];
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
  /** `swept`: the budgets answered before an interrupt, when one came; nothing is said of the others. */
  budgets: { from: number; to: number; step: number; count: number; swept?: number };
  /** The smallest swept budget from which the reference includes every block it includes at the last one. */
  admits_all_from: number | null;
  /**
   * What each budget's answer is held to: the reference (an exact profile), or the design-agnostic
   * principles (a manifest of the any level alone, SPEC section 18), where the reference's column
   * is tiered's selection shown beside it, no verdict. Absent: the reference (a kit before it).
   */
  judged_by?: 'reference' | 'principles';
  first_disagreement: number | null;
  /** Budgets where the implementation's answer is not the reference's (by the principles: breaks one). */
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

/** `ctxconform tokens`: the token estimate against real tokenizers (running/tokens.ts computes it). */
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
