/**
 * The diagnosis of a run with failures: which known defects (catalogue.ts,
 * families.ts) reproduce the implementation's failing answers, best first.
 * Pure: it sees only the observations it is given.
 *
 * A candidate (one defect, or two together) is the model with those
 * defects' hooks, under each observation's own capabilities, declared
 * constants and the implementation's spelling of reasons. Everything is
 * measured against the model without defects (the *base*), so a request a
 * defect cannot change counts neither for nor against it:
 *
 * - it *explains* a failing observation when its answer is the
 *   implementation's answer (compare.ts) and the base's is not;
 * - it *contradicts* a passing observation when its answer would have failed
 *   there (the observation's own judge; without one, any answer but the
 *   implementation's) and the base's would not.
 *
 * Candidates rank by explains minus contradicts, then by fewer
 * contradictions, then by how many passing answers they reproduce that the
 * base does not (less those the base reproduces and they do not), then
 * singles before pairs, then catalogue order. When some failure is
 * explained by no single, pairs are tried on it: one of the best singles
 * with any candidate that also changes that answer (pairs, below), and a pair
 * that explains one is a candidate too. The causes reported are a greedy cover of the failures
 * (cover, below).
 */
import { isDeepStrictEqual } from 'node:util';
import { deepStrictEqualJson, stringifyJson } from '../protocol/deep-json.js';
import type { DiagnosisEntry, Manifest, Outcome } from '../protocol/types.js';
import type { DeclaredConstants } from '../protocol/assembly.js';
import { anyOnly } from '../protocol/levels.js';
import { declaredConstants } from '../judging/expectation.js';
import { CATALOGUE, reachOf } from './catalogue.js';
import type { Feature } from './defect-registry.js';
import { asOutcome, reproduces, sameAnswer } from './compare.js';
import { isObject } from './json-object.js';
import { FAMILIES } from './families.js';
import type { Evidence } from './families.js';
import { modelAssemble } from './model.js';
import type { Answer, Defects, ModelConfig, ValidationMemo } from './model.js';
import { fitSpelling, spellingRequirements, spellingSummary } from './spelling.js';

/** One judged request of a run: a golden case, a property's shrunk counterexample, a replayed or swept request. */
export interface Observation {
  /** What the report calls it (a case id, `property/<name>`, ...). */
  id: string;
  request: unknown;
  /** What the implementation declared: its capabilities and constants apply to every answer (PROTO-1, section 17). */
  manifest: Pick<Manifest, 'capabilities'> & { constants?: DeclaredConstants | undefined; profiles?: readonly string[] };
  /** What it answered. A timeout, a crash or an unreadable answer is explained by nothing. */
  outcome: Outcome;
  passed: boolean;
  /** For a passing observation: whether another answer would have passed too (the judge). Without it only the same answer passes. */
  accepts?: (answer: Outcome) => boolean;
  /** Of a failing property of two requests: the principles its relation broke, which no one answer shows (ANY-7's twin). */
  relation?: readonly string[];
}

/** One likely cause of the failures. */
export interface Cause {
  /** The catalogue id, or the ids of a pair joined by `+`. */
  id: string;
  /** The catalogue entries it is made of (one, or two for a pair). */
  defects: string[];
  requirements: string[];
  summary: string;
  /** Failing observations whose answer it reproduces exactly. */
  explains: number;
  /** Passing observations it would have made fail. */
  contradicts: number;
  /** Failing observations in the run. */
  failing: number;
  explained: string[];
  contradicted: string[];
  /**
   * Other catalogue entries this run cannot tell from it: each explains the
   * same failures and contradicts the same passing results (a few requests,
   * such as the constants probe's, often leave two defects alike).
   */
  alike: string[];
}

export interface Diagnosis {
  /** Best first. */
  causes: Cause[];
  /** Failing observations none of the causes above explains. */
  unexplained: string[];
  failing: number;
}

export interface DiagnoseOptions {
  /** How many causes to report at most (default 5). */
  limit?: number;
  /** Pairs are formed from this many best singles (default 8). */
  pairsOf?: number;
  /** What the diagnosis keeps of the model's answers (diagnosisMemo); default: a memo of its own, dropped when it returns. */
  memo?: DiagnosisMemo;
  /** Catalogue entries and families not offered, by id: what the diagnosis says of a defect it has no model of (the catalogue's tests). */
  leaveOut?: ReadonlySet<string>;
}

/**
 * The model's answers a diagnosis keeps, and what it knows of them. One
 * diagnosis asks the model for each answer at most once. The kit keeps no
 * memo between calls: a caller that diagnoses many runs over the same
 * requests (the catalogue's tests, a repeated run) may hand each the same
 * memo, and then asks the model once in all. The model is pure, and nothing
 * here changes an answer, so a kept answer can be handed out again.
 */
export interface DiagnosisMemo {
  /** By request (identity), configuration (configKey) and defect set (identity). */
  readonly answers: WeakMap<object, Map<string, WeakMap<Defects, Answer>>>;
  /** Configurations as keys: the same capabilities, constants and spelling are one key, whichever object carries them. */
  readonly configKeys: WeakMap<ModelConfig, string>;
  /** Validation of the requests kept, shared by every defect set that reads a request unchanged. */
  readonly validated: ValidationMemo;
  /** Whether a kept answer is its base's, by the same reading (sameAnswer), kept with the answer. */
  readonly alikeBase: WeakMap<Answer, { base: Answer; same: boolean }>;
  /** Family instances by value (sameInstance). */
  readonly instances: Map<string, Defects>;
}

export function diagnosisMemo(): DiagnosisMemo {
  return { answers: new WeakMap(), configKeys: new WeakMap(), validated: new WeakMap(), alikeBase: new WeakMap(), instances: new Map() };
}

/** An observation with what the diagnosis needs of it, computed once. */
interface Seen {
  o: Observation;
  config: ModelConfig;
  base: Answer;
  features: ReadonlySet<Feature>;
  /** Whether the base reproduces the implementation's answer. */
  baseReproduces: boolean;
  /** Passing observations: whether the base's answer would have passed (computed when first needed). */
  baseAccepted?: boolean;
  /**
   * Judged at the any level alone: the design declares no tiers, so the catalogue's models (all
   * of them tiered's or ranked's algorithm) cannot describe it; only the validation entries,
   * which read no design, may show, and only on the requests whose features they name.
   */
  anyAlone: boolean;
}

/** A candidate: a defect set, how to name it, and which requests can show it. */
interface Candidate {
  ids: string[];
  requirements: string[];
  summary: string;
  defects: Defects;
  order: number;
  shows: (s: Seen) => boolean;
}

/** How a candidate's answer fared on one observation it can change. */
interface Reading {
  reproduced: boolean;
  /** The answer is not the base's: the candidate changes this observation. */
  changed: boolean;
  /** Passing observations: the answer would have failed where the base's passes. */
  contradicted: boolean;
}

interface Scored extends Candidate {
  /** Its readings of the failing observations it can change, and of the passing ones once settled. */
  readings: Map<Seen, Reading>;
  explained: Seen[];
  /** A pair: the singles it is made of, whose readings it shares where only one of them can change the answer. */
  parts?: [Scored, Scored];
  /** Whether the passing observations have been read (settle): until then contradicted and disagrees are unknown. */
  settled: boolean;
  contradicted: Seen[];
  /** Passing answers it fails to reproduce where the base does, less those it reproduces where the base does not. */
  disagrees: number;
}

/** The likely causes of a run's failures, or undefined when nothing failed. */
export function diagnose(observations: readonly Observation[], options: DiagnoseOptions = {}): Diagnosis | undefined {
  const failingCount = observations.filter((o) => !o.passed).length;
  if (failingCount === 0) return undefined;
  const memo = options.memo ?? diagnosisMemo();
  const seen = prepare(observations, memo);
  const failing = seen.filter((s) => !s.o.passed);
  // A failure the base reproduces is the spelling's (or nobody's): no defect is credited with it.
  const bySpelling = failing.filter((s) => s.baseReproduces);
  const targets = failing.filter((s) => !s.baseReproduces);
  const passing = seen.filter((s) => s.o.passed);

  const causes: Scored[] = [];
  const spelling = seen[0]?.config.reasons;
  if (spelling && bySpelling.length > 0) {
    const none = (): boolean => false;
    causes.push({
      ids: ['reason-spelling'],
      requirements: spellingRequirements(spelling),
      summary: spellingSummary(spelling),
      defects: {},
      order: -1,
      shows: none,
      readings: new Map(),
      explained: bySpelling,
      settled: true,
      contradicted: [],
      disagrees: 0,
    });
  }

  // Every candidate on the failing answers first: most explain none and are never asked about the passing ones.
  const all: Scored[] = [];
  for (const c of candidates(targets, memo, options.leaveOut)) {
    const readings = new Map<Seen, Reading>();
    for (const s of targets) if (c.shows(s)) readings.set(s, read(c, s, memo));
    all.push({ ...c, readings, explained: targets.filter((s) => readings.get(s)?.reproduced === true), settled: false, contradicted: [], disagrees: 0 });
  }
  const singles = all.filter((c) => c.explained.length > 0);
  causes.push(...singles);
  causes.push(...pairs(singles, all, targets, options.pairsOf ?? 8, memo));
  const top = cover(causes, passing, options.limit ?? 5, memo);
  const covered = new Set(top.flatMap((c) => c.explained));
  return {
    causes: sameWords(
      top.map((c) => ({
        id: c.ids.join('+'),
        defects: c.ids,
        requirements: c.requirements,
        summary: c.summary,
        explains: c.explained.length,
        contradicts: c.contradicted.length,
        failing: failingCount,
        explained: c.explained.map((s) => s.o.id),
        contradicted: c.contradicted.map((s) => s.o.id),
        alike: alike(c, causes, top, passing, memo),
      })),
    ),
    unexplained: failing.filter((s) => !covered.has(s)).map((s) => s.o.id),
    failing: failingCount,
  };
}

/**
 * Causes told in the same words, as one: instances of one entry whose values the summary does
 * not show (the members an answer adds, each with other values) would read as one line repeated.
 */
function sameWords(causes: readonly Cause[]): Cause[] {
  const out: Cause[] = [];
  for (const c of causes) {
    const seen = out.find((x) => x.id === c.id && x.summary === c.summary);
    if (!seen) {
      out.push({ ...c });
      continue;
    }
    seen.explained = [...new Set([...seen.explained, ...c.explained])];
    seen.contradicted = [...new Set([...seen.contradicted, ...c.contradicted])];
    seen.explains = seen.explained.length;
    seen.contradicts = seen.contradicted.length;
  }
  return out;
}

/**
 * A cause as a report's `diagnosis` member holds it. `lists: false` leaves out
 * the ids of the results it explains and contradicts (the constants probe's
 * cross-check, whose results are its own exchanges).
 */
export function diagnosisEntry(c: Cause, lists = true): DiagnosisEntry {
  return {
    id: c.id,
    requirements: c.requirements,
    summary: c.summary,
    explains: c.explains,
    contradicts: c.contradicts,
    failing: c.failing,
    defects: c.defects,
    ...(lists ? { explained: c.explained, contradicted: c.contradicted } : {}),
    ...(c.alike.length > 0 ? { alike: c.alike } : {}),
  };
}

/** Each observation's configuration, its base answer with the implementation's spelling, and its features. */
function prepare(observations: readonly Observation[], memo: DiagnosisMemo): Seen[] {
  const configs = observations.map((o): ModelConfig => ({ capabilities: o.manifest.capabilities, constants: declaredConstants(o.manifest) }));
  const plain = observations.map((o, i) => keptAnswer(o.request, configs[i]!, undefined, memo));
  const alone = observations.map((o) => o.manifest.profiles !== undefined && anyOnly({ profiles: o.manifest.profiles }));
  // The any level reads reasons by class (ANY-4): tiered's spelling of them is not a design it owes.
  const spelling = fitSpelling(observations.flatMap((o, i) => (alone[i] ? [] : [{ request: o.request, outcome: o.outcome, base: plain[i]! }])));
  const spelled = Object.keys(spelling).length > 0;
  return observations.map((o, i) => {
    const config = spelled ? { ...configs[i]!, reasons: spelling } : configs[i]!;
    const base = spelled ? keptAnswer(o.request, config, undefined, memo) : plain[i]!;
    const features = featuresOf(o.request, config, base);
    const anyAlone = alone[i]!;
    return {
      o,
      config,
      base,
      features: anyAlone ? new Set<Feature>(features.has('invalid') ? ['invalid'] : []) : features,
      baseReproduces: reproduces(base, o.outcome),
      anyAlone,
    };
  });
}

/** The features of a request (catalogue.ts, Feature), as the model without defects reads it. */
export function featuresOf(request: unknown, config: ModelConfig, base: Answer): Set<Feature> {
  const f = new Set<Feature>();
  const error = base.error;
  if (isObject(error) && error.code === 'invalid_request') {
    f.add('invalid');
    return f;
  }
  f.add('valid');
  const r = request as Record<string, unknown>;
  if (r.profile === 'ranked') {
    f.add('ranked');
    return f;
  }
  f.add('tiered');
  const blocks = r.blocks as Record<string, unknown>[];
  if (blocks.some((b) => b.pinned === true)) f.add('pinned');
  if (r.constraints !== undefined) f.add('constraints');
  if (blocks.some((b) => b.status !== undefined && b.status !== 'active')) f.add('status');
  if (config.capabilities.includes('working_context')) f.add('working_context');
  if (config.capabilities.includes('omission_markers')) f.add('omission_markers');
  if (config.constants !== undefined) f.add('declared');
  return f;
}

/** Whether an entry reaching `when` can show on an observation: at the any level alone, only one that names a feature the request has. */
const reaches =
  (when: readonly Feature[] | undefined) =>
  (s: Seen): boolean =>
    when === undefined ? !s.anyAlone : when.some((w) => s.features.has(w));

/** Every catalogue entry, and the instances of each family that the failing answers suggest. */
function candidates(targets: readonly Seen[], memo: DiagnosisMemo, leaveOut: ReadonlySet<string> = new Set()): Candidate[] {
  const out: Candidate[] = [];
  CATALOGUE.forEach((e, order) => {
    if (!leaveOut.has(e.id))
      out.push({ ids: [e.id], requirements: [...e.requirements], summary: e.summary, defects: e.defects, order, shows: reaches(reachOf(e)) });
  });
  const evidence: Evidence[] = targets.map((s) => ({ request: s.o.request, config: s.config, outcome: s.o.outcome, base: s.base }));
  FAMILIES.forEach((f, k) => {
    if (leaveOut.has(f.id)) return;
    const reach = reaches(f.when);
    for (const i of f.instances(evidence)) {
      const shows = i.shows;
      out.push({
        ids: [f.id],
        requirements: [...f.requirements],
        summary: i.summary,
        defects: sameInstance(i.defects, memo),
        order: CATALOGUE.length + k,
        shows: shows ? (s) => reach(s) && shows(s.o.request) : reach,
      });
    }
  });
  return out;
}

/**
 * Family instances by value. A diagnosis reads its instances off its own
 * failures, as new objects, and answers are kept by defect set (keptAnswer,
 * below): an instance of the same value as one an earlier diagnosis with the
 * same memo made (the same preamble, the same source moved) is that one, so
 * its answers are asked of the model once in all. Looked up by JSON and held
 * to deep equality (JSON would read -0 as 0 and drop an undefined member);
 * past INSTANCES_KEPT values it starts afresh, so a long-lived memo does not
 * gather them all.
 */
const INSTANCES_KEPT = 1000;

function sameInstance(d: Defects, memo: DiagnosisMemo): Defects {
  const { instances } = memo;
  // At any depth: a defect's instance may carry an answer's member nested deeper than JSON.stringify goes.
  const key = stringifyJson(d) ?? '';
  const known = instances.get(key);
  if (known !== undefined && deepStrictEqualJson(known, d, isDeepStrictEqual)) return known;
  if (instances.size >= INSTANCES_KEPT) instances.clear();
  instances.set(key, d);
  return d;
}

const NONE: Defects = {};

function configKey(config: ModelConfig, memo: DiagnosisMemo): string {
  let key = memo.configKeys.get(config);
  if (key === undefined) {
    key = JSON.stringify([config.capabilities, config.constants ?? null, config.reasons ?? null]);
    memo.configKeys.set(config, key);
  }
  return key;
}

/** The model's answer to a request, kept in `memo` when the request is an object (defect sets by identity); without a memo, asked afresh. */
export function keptAnswer(request: unknown, config: ModelConfig, defects: Defects | undefined, memo?: DiagnosisMemo): Answer {
  if (memo === undefined || typeof request !== 'object' || request === null) return modelAssemble(request, config, defects);
  let byConfig = memo.answers.get(request);
  if (!byConfig) {
    byConfig = new Map();
    memo.answers.set(request, byConfig);
  }
  const key = configKey(config, memo);
  let byDefects = byConfig.get(key);
  if (!byDefects) {
    byDefects = new WeakMap();
    byConfig.set(key, byDefects);
  }
  const d = defects ?? NONE;
  let answer = byDefects.get(d);
  if (!answer) {
    answer = modelAssemble(request, config, defects, memo.validated);
    byDefects.set(d, answer);
  }
  return answer;
}

/**
 * Whether a candidate's answer is the base's, by the same reading (sameAnswer),
 * kept with the answer: a kept answer belongs to one request and
 * configuration, whose base is kept too, so diagnoses that share a memo
 * compare each answer with its base once (most candidates change few of the
 * requests they can reach).
 */
function isBase(s: Seen, answer: Answer, memo: DiagnosisMemo): boolean {
  const known = memo.alikeBase.get(answer);
  if (known !== undefined && known.base === s.base) return known.same;
  const same = sameAnswer(answer, s.base);
  memo.alikeBase.set(answer, { base: s.base, same });
  return same;
}

/** How the candidate's answer to this observation fares. */
function read(c: Candidate, s: Seen, memo: DiagnosisMemo): Reading {
  const answer = keptAnswer(s.o.request, s.config, c.defects, memo);
  const changed = !isBase(s, answer, memo);
  // An answer alike the base's reproduces exactly what the base's does: compare.ts reads both with one equivalence.
  const reproduced = changed ? reproduces(answer, s.o.outcome) : s.baseReproduces;
  return { reproduced, changed, contradicted: s.o.passed && !reproduced && changed && !accepted(s, answer, memo) && baseAccepted(s) };
}

/**
 * The singles pairs are made of: first those that each explain failures the
 * ones before them do not (so one defect's many near-equivalents do not
 * crowd out the other defect), then the others by how much they explain.
 */
function partners(singles: readonly Scored[], count: number, left: readonly Seen[]): Scored[] {
  const touched = (c: Scored): number => left.reduce((n, s) => (c.readings.get(s)?.changed ? n + 1 : n), 0);
  const byExplains = singles.slice().sort((a, b) => b.explained.length - a.explained.length || touched(b) - touched(a) || a.order - b.order);
  const out: Scored[] = [];
  const covered = new Set<Seen>();
  for (;;) {
    let best: Scored | undefined;
    let most = 0;
    for (const c of byExplains) {
      const n = c.explained.reduce((k, s) => (covered.has(s) ? k : k + 1), 0);
      if (n > most) [best, most] = [c, n];
    }
    if (best === undefined || out.length >= count) break;
    out.push(best);
    for (const s of best.explained) covered.add(s);
  }
  for (const c of byExplains) if (out.length < count && !out.includes(c)) out.push(c);
  return out;
}

/** Reads the passing observations the candidate can change: its contradictions and disagreements. */
function settle(c: Scored, passing: readonly Seen[], memo: DiagnosisMemo): void {
  if (c.settled) return;
  c.settled = true;
  const [a, b] = c.parts ?? [];
  if (a && b) {
    settle(a, passing, memo);
    settle(b, passing, memo);
  }
  for (const s of passing) {
    if (!c.shows(s)) continue;
    let r: Reading | undefined;
    if (a && b && a.shows(s) !== b.shows(s)) r = (a.shows(s) ? a : b).readings.get(s);
    r ??= read(c, s, memo);
    c.readings.set(s, r);
    if (r.contradicted) c.contradicted.push(s);
    if (r.reproduced !== s.baseReproduces) c.disagrees += r.reproduced ? -1 : 1;
  }
}

/**
 * Pairs, for the failures no single explains: an implementation with both
 * defects. One defect of the pair is among the best singles (partners) and
 * changes such a failure's answer; the other is any candidate that can show
 * there and changes some failure's answer: there, or only together with the
 * first (another split of the tiers may change nothing at 4 characters per
 * token and change the answer at 2). A pair is kept when it explains one of
 * those failures.
 */
function pairs(singles: readonly Scored[], all: readonly Scored[], targets: readonly Seen[], count: number, memo: DiagnosisMemo): Scored[] {
  const bySingles = new Set(singles.flatMap((c) => c.explained));
  const left = targets.filter((s) => !bySingles.has(s));
  if (left.length === 0) return [];
  const changes = (c: Scored, s: Seen): boolean => c.readings.get(s)?.changed === true;
  const changesSome = new Set(all.filter((c) => targets.some((s) => changes(c, s))));
  const best = partners(singles.length > 0 ? singles : all.filter((c) => left.some((s) => changes(c, s))), count, left);
  const out: Scored[] = [];
  const tried = new Set<string>();
  for (const s of left) {
    for (const a of best) {
      if (!changes(a, s)) continue;
      for (const b of all) {
        if (b === a || !changesSome.has(b) || !b.shows(s) || Object.keys(a.defects).some((k) => Object.hasOwn(b.defects, k))) continue;
        const [x, y] = a.order <= b.order ? [a, b] : [b, a];
        const key = stringifyJson([x.ids, x.defects, y.ids, y.defects]) ?? '';
        if (tried.has(key)) continue;
        tried.add(key);
        const p = pair(x, y, targets, left, memo);
        if (p) out.push(p);
      }
    }
  }
  return out;
}

/** Two candidates together; an observation only one of them can change reads as that one read it. Undefined unless it explains one of `left`. */
function pair(a: Scored, b: Scored, targets: readonly Seen[], left: readonly Seen[], memo: DiagnosisMemo): Scored | undefined {
  const c: Candidate = {
    ids: [...a.ids, ...b.ids],
    requirements: [...new Set([...a.requirements, ...b.requirements])],
    summary: `${a.summary}; and ${b.summary}`,
    defects: { ...a.defects, ...b.defects },
    order: Math.max(a.order, b.order),
    shows: (s) => a.shows(s) || b.shows(s),
  };
  const both = (s: Seen): boolean => a.shows(s) && b.shows(s);
  const readings = new Map<Seen, Reading>();
  for (const s of left) if (both(s) && (a.readings.get(s)?.changed || b.readings.get(s)?.changed)) readings.set(s, read(c, s, memo));
  if (![...readings.values()].some((r) => r.reproduced)) return undefined;
  for (const s of targets) {
    if (readings.has(s) || !c.shows(s)) continue;
    readings.set(s, both(s) ? read(c, s, memo) : (a.shows(s) ? a : b).readings.get(s)!);
  }
  const explained = targets.filter((s) => readings.get(s)?.reproduced === true);
  return { ...c, readings, explained, parts: [a, b], settled: false, contradicted: [], disagrees: 0 };
}

/**
 * The causes to report, as a greedy cover of the failures: each next cause is
 * the one that explains the most failures the causes before it leave
 * unexplained, less its contradictions (ties: byRank). So an implementation
 * with one defect gets that one, and one with two independent defects gets
 * both, each with its own failures. A candidate's passing observations are
 * read only when it could still be the next cause.
 */
function cover(causes: Scored[], passing: readonly Seen[], limit: number, memo: DiagnosisMemo): Scored[] {
  const out: Scored[] = [];
  const covered = new Set<Seen>();
  const fresh = (c: Scored): number => c.explained.reduce((n, s) => (covered.has(s) ? n : n + 1), 0);
  while (out.length < limit) {
    const open = causes
      .filter((c) => !out.includes(c))
      .map((c) => ({ c, bound: fresh(c) }))
      .filter((x) => x.bound > 0);
    open.sort((x, y) => y.bound - x.bound);
    let best: Scored | undefined;
    let most = 0;
    for (const { c, bound } of open) {
      if (best !== undefined && bound < most) break; // cannot do better: its gain is at most its bound
      settle(c, passing, memo);
      const gain = bound - c.contradicted.length;
      if (gain <= 0) continue;
      if (best === undefined || gain > most || (gain === most && byRank(c, best) < 0)) [best, most] = [c, gain];
    }
    if (best === undefined) break;
    out.push(best);
    for (const s of best.explained) covered.add(s);
  }
  return out;
}

/** The singles not reported that explain exactly what `c` explains and contradict exactly what it contradicts. */
function alike(c: Scored, causes: readonly Scored[], top: readonly Scored[], passing: readonly Seen[], memo: DiagnosisMemo): string[] {
  if (c.ids.length !== 1 || c.order < 0) return [];
  const explained = new Set(c.explained);
  const out: string[] = [];
  for (const x of causes) {
    if (
      x === c ||
      x.ids[0] === c.ids[0] ||
      x.ids.length !== 1 ||
      x.order < 0 ||
      top.includes(x) ||
      x.explained.length !== explained.size ||
      !x.explained.every((s) => explained.has(s))
    )
      continue;
    settle(x, passing, memo);
    const contradicted = new Set(c.contradicted);
    if (x.contradicted.length === contradicted.size && x.contradicted.every((s) => contradicted.has(s)) && !out.includes(x.ids[0]!)) out.push(x.ids[0]!);
  }
  return out;
}

/** Whether this answer would have passed where the implementation passed. */
function accepted(s: Seen, answer: Answer, memo: DiagnosisMemo): boolean {
  if (isBase(s, answer, memo)) return baseAccepted(s);
  return s.o.accepts?.(asOutcome(answer)) ?? false;
}

function baseAccepted(s: Seen): boolean {
  s.baseAccepted ??= s.baseReproduces || (s.o.accepts?.(asOutcome(s.base)) ?? false);
  return s.baseAccepted;
}

/** Between two causes of equal gain: the one that explains more in all, contradicts less, disagrees less, is a single, comes first in the catalogue. */
function byRank(a: Scored, b: Scored): number {
  const score = (c: Scored): number => c.explained.length - c.contradicted.length;
  return score(b) - score(a) || a.contradicted.length - b.contradicted.length || a.disagrees - b.disagrees || a.ids.length - b.ids.length || a.order - b.order;
}
