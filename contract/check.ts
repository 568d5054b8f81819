/**
 * The contract checks of one exchange with a memory service (SPEC section 16):
 * what was ingested, what the service says about each memory's status, what it
 * retrieves for the task with nothing pressing on it, the assemble-context
 * request sent and the answer (twice, for MAPI-12). Pure, so the published
 * example answers can be checked too.
 *
 * Besides its findings, an exchange says which clauses it put to the test and
 * which of their needs it met (clauses.ts): a clause no exchange tested is
 * reported `skip`, never `pass`.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AssembleContextRequest, MemoryRef } from '../adapters/memory-api/wire.js';
import { refKey } from '../adapters/memory-api/wire.js';
import type { ClauseId, Facet } from './clauses.js';
import { DEFAULT_ESTIMATOR, segmentsCost, type Estimator } from './estimator.js';
import { workingContextProblems } from './schema.js';

export interface IngestedMemory {
  blockId: string;
  /** The ingested text, marker included. */
  text: string;
  /** The ingested content object (`{text}`); a segment may carry it as JSON text. */
  content?: unknown;
  /** What the episode was ingested with, as sent; a segment's provenance must name one of them (MAPI-10). Unknown when absent. */
  createdBy?: { id: string; kind: string };
  dedupeKey?: string;
}

export interface Exchange {
  /** Every memory written into the scope, by refKey. */
  ingested: ReadonlyMap<string, IngestedMemory>;
  /** The service's status of each memory (from hydrate), by refKey; a memory not listed counts as active. */
  statuses: ReadonlyMap<string, string>;
  sent: AssembleContextRequest;
  body: unknown;
  /** The answer to the same request sent again; MAPI-12 is checked only when present. */
  again?: unknown;
  /**
   * The answer to the unconstrained request (same task and filters, no budget
   * pressure, cap, exclusions or requirements): what the service retrieves.
   * When absent, every ingested memory counts as retrieved, each as itself.
   */
  unconstrained?: unknown;
  /**
   * The unconstrained request with the status filters opened, asked only when
   * a memory the request's filters keep out was ingested: whether the service
   * retrieves it for the task, so that keeping it out was put to the test (MAPI-13).
   */
  opened?: unknown;
  /** How the service counts tokens (default NUM-2's 4 code points a token). */
  estimator?: Estimator;
}

export interface Finding {
  clause: ClauseId;
  message: string;
}

export interface CheckOutcome {
  findings: Finding[];
  /** The clauses this exchange put to the test (every clause with a finding is among them). */
  tested: Set<ClauseId>;
  /** The needs of those clauses this exchange met, and the hints it saw (clauses.ts). */
  facets: Set<Facet>;
  /** The answer's tokenEstimate and the kit's count of its segments, when it has segments. */
  budget?: { estimate?: number; counted: number };
}

interface Seg {
  ref?: unknown;
  content?: unknown;
  provenance?: unknown;
}

function obj(x: unknown): Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : {};
}

function segmentsOf(body: unknown): Seg[] {
  const s = obj(obj(body).context).segments;
  return Array.isArray(s) ? (s.map(obj) as Seg[]) : [];
}

function keyOf(ref: unknown): string | undefined {
  return typeof ref === 'object' && ref !== null ? refKey(ref as { id: unknown; type: unknown }) : undefined;
}

/** The refs a segment's `provenance.sourceRefs` names; undefined when it names none. */
function sourcesOf(s: Seg): string[] | undefined {
  const refs = obj(s.provenance).sourceRefs;
  if (!Array.isArray(refs) || refs.length === 0) return undefined;
  return refs.map((r) => keyOf(r) ?? JSON.stringify(r));
}

/** Every memory the segments represent: each segment's own ref and every ref its provenance names. */
function representedBy(segs: readonly Seg[]): Set<string> {
  const out = new Set<string>();
  for (const s of segs) {
    const k = keyOf(s.ref);
    if (k !== undefined) out.add(k);
    for (const src of sourcesOf(s) ?? []) out.add(src);
  }
  return out;
}

function refList(refs: readonly MemoryRef[] | undefined): string[] {
  return (refs ?? []).map(refKey);
}

/** A text for a message: long contents are shown by their start and length. */
function clip(x: unknown): string {
  const s = JSON.stringify(x) ?? String(x);
  return s.length > 120 ? `${s.slice(0, 100)}…" (${typeof x === 'string' ? [...x].length : s.length} chars)` : s;
}

function list(keys: readonly string[], ex: Exchange): string {
  return keys.map((k) => (ex.ingested.get(k) ? `${k} (block ${ex.ingested.get(k)!.blockId})` : k)).join(', ');
}

/**
 * Does the request let a memory of this status into the context: `yes`, `no`,
 * or `unsaid` when nothing sent decides it (SPEC section 16: a disputed memory
 * is kept out when either includeDisputed, in filters or constraints, is
 * false; tombstoned memories never enter; the contract says nothing of
 * pending and failed ones).
 */
export function statusAdmitted(status: string, sent: Pick<AssembleContextRequest, 'filters' | 'constraints'>): 'yes' | 'no' | 'unsaid' {
  if (status === 'active') return 'yes';
  if (status === 'disputed') {
    const said = [sent.filters?.includeDisputed, sent.constraints?.includeDisputed];
    return said.includes(false) ? 'no' : said.includes(true) ? 'yes' : 'unsaid';
  }
  if (status === 'superseded') return sent.filters?.includeSuperseded === false ? 'no' : sent.filters?.includeSuperseded === true ? 'yes' : 'unsaid';
  if (status === 'tombstoned') return 'no';
  return 'unsaid';
}

/** Which part of the request keeps a memory of this status out, for a message. */
function keptOutBy(status: string, sent: AssembleContextRequest): string {
  if (status === 'disputed') return sent.filters?.includeDisputed === false ? 'filters.includeDisputed false' : 'constraints.includeDisputed false';
  if (status === 'superseded') return 'filters.includeSuperseded false';
  return 'the contract (tombstoned memories never enter a working context)';
}

/** Does the memory's status pass the request's filters? Only a status the request admits makes a candidate. */
function passesFilters(key: string, ex: Exchange): boolean {
  return statusAdmitted(ex.statuses.get(key) ?? 'active', ex.sent) === 'yes';
}

/**
 * The ingested memories a segment of this answer must not be (MAPI-13): a
 * status the request keeps out, unless a required ref names it (the contract
 * does not order the two; a required memory may appear or be left out with
 * required_ref_omitted). A tombstoned memory never may.
 */
export function keptOut(ex: Pick<Exchange, 'ingested' | 'statuses' | 'sent'>): Set<string> {
  const must = new Set(refList(ex.sent.constraints?.mustIncludeRefs));
  const out = new Set<string>();
  for (const k of ex.ingested.keys()) {
    const status = ex.statuses.get(k);
    if (status === undefined || statusAdmitted(status, ex.sent) !== 'no') continue;
    if (must.has(k) && status !== 'tombstoned') continue;
    out.add(k);
  }
  return out;
}

/** Is the segment's content what was ingested: the text itself, or the ingested content object as JSON text? */
function sameContent(content: unknown, mem: IngestedMemory): boolean {
  if (content === mem.text) return true;
  if (typeof content !== 'string' || mem.content === undefined) return false;
  try {
    return isDeepStrictEqual(JSON.parse(content), mem.content);
  } catch {
    return false;
  }
}

/** A memory the service retrieves: its ref and the refs its provenance names. */
interface Retrieved {
  key: string;
  sources: string[];
}

/** What the service retrieves for the task: the unconstrained answer's segments, or every ingested memory passing the filters. */
function retrievedBy(ex: Exchange): { memories: Retrieved[]; complete: boolean } {
  if (ex.unconstrained === undefined) {
    return { memories: [...ex.ingested.keys()].filter((k) => passesFilters(k, ex)).map((key) => ({ key, sources: [] })), complete: true };
  }
  const memories = segmentsOf(ex.unconstrained).flatMap((s) => {
    const key = keyOf(s.ref);
    return key === undefined ? [] : [{ key, sources: sourcesOf(s) ?? [] }];
  });
  return { memories, complete: obj(obj(ex.unconstrained).context).truncated === false };
}

/** A ref as the schema has it: an object with a string id and type. Anything else is MAPI-2's to report. */
function wellFormedRef(ref: unknown): boolean {
  return typeof ref === 'object' && ref !== null && typeof (ref as { id?: unknown }).id === 'string' && typeof (ref as { type?: unknown }).type === 'string';
}

/**
 * Why an ingested memory's provenance does not say what it was ingested with
 * (undefined when it does): it must name the actor (`createdBy`), the
 * `dedupeKey`, or the memory itself in `sourceRefs`, and what it names must be
 * what was sent. A provenance that is not an object is MAPI-2's to report;
 * when the kit does not know what a memory was ingested with, nothing is judged.
 */
function provenanceProblem(s: Seg, key: string, mem: IngestedMemory): string | undefined {
  const p = s.provenance;
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return undefined;
  if (mem.createdBy === undefined && mem.dedupeKey === undefined) return undefined;
  const prov = p as Record<string, unknown>;
  let named = false;
  if (prov.createdBy !== undefined && mem.createdBy !== undefined) {
    const c = prov.createdBy;
    const id = typeof c === 'string' ? c : obj(c).id;
    const kind = typeof c === 'string' ? undefined : obj(c).kind;
    if (id !== mem.createdBy.id || (kind !== undefined && kind !== mem.createdBy.kind)) {
      return `provenance.createdBy is ${clip(c)}, not ${JSON.stringify(mem.createdBy)}, the actor it was ingested with`;
    }
    named = true;
  }
  if (prov.dedupeKey !== undefined && mem.dedupeKey !== undefined) {
    if (prov.dedupeKey !== mem.dedupeKey)
      return `provenance.dedupeKey is ${clip(prov.dedupeKey)}, not ${JSON.stringify(mem.dedupeKey)}, the dedupeKey it was ingested with`;
    named = true;
  }
  if (sourcesOf(s)?.includes(key)) named = true;
  if (named) return undefined;
  return (
    `provenance ${clip(p)} names nothing it was ingested with (createdBy ` +
    `${JSON.stringify(mem.createdBy?.id ?? null)}${mem.dedupeKey !== undefined ? `, dedupeKey ${JSON.stringify(mem.dedupeKey)}` : ''}, or the memory itself in sourceRefs)`
  );
}

/**
 * Why each segment is not legitimate (undefined when it is): an ingested
 * memory must carry exactly its ingested content and a provenance naming what
 * it was ingested with; any other memory must be one the service derived,
 * with provenance naming only memories ingested into the scope or other such
 * derived segments of the same answer. A ref or content of the wrong type is
 * MAPI-2's to report, not judged again here (`not-string` counts them).
 */
function illegitimate(segs: readonly Seg[], ex: Exchange): { problems: (string | undefined)[]; notString: number } {
  const keys = segs.map((s) => (wellFormedRef(s.ref) ? keyOf(s.ref) : undefined));
  const derived = new Set<string>();
  // Derived segments may name one another (a consolidation of atoms): grow the traced set to a fixpoint.
  for (let grew = true; grew; ) {
    grew = false;
    segs.forEach((s, i) => {
      const k = keys[i];
      if (k === undefined || ex.ingested.has(k) || derived.has(k)) return;
      const src = sourcesOf(s);
      if (src?.every((r) => ex.ingested.has(r) || derived.has(r))) {
        derived.add(k);
        grew = true;
      }
    });
  }
  let notString = 0;
  const problems = segs.map((s, i) => {
    const k = keys[i];
    if (k === undefined) return undefined;
    const mem = ex.ingested.get(k);
    if (mem) {
      if (typeof s.content !== 'string') {
        notString++;
      } else if (!sameContent(s.content, mem)) {
        return `segment ${i} (block ${mem.blockId}) has content ${clip(s.content)}, not the ingested ${clip(mem.text)}`;
      }
      const p = provenanceProblem(s, k, mem);
      return p ? `segment ${i} (block ${mem.blockId}): ${p}` : undefined;
    }
    if (derived.has(k)) return undefined;
    const src = sourcesOf(s);
    if (!src) return `segment ${i} has ref ${k}, which is not a memory ingested into the scope, and its provenance names no sourceRefs it was derived from`;
    const foreign = src.filter((r) => !ex.ingested.has(r) && !derived.has(r));
    return `segment ${i} has ref ${k}, which is not a memory ingested into the scope, and its provenance.sourceRefs names ${foreign.join(', ')}, not ingested into the scope`;
  });
  return { problems, notString };
}

export function checkExchange(ex: Exchange): CheckOutcome {
  const findings: Finding[] = [];
  const tested = new Set<ClauseId>();
  const facets = new Set<Facet>();
  const fail = (clause: ClauseId, message: string) => {
    findings.push({ clause, message });
    tested.add(clause);
  };
  const meet = (clause: ClauseId, facet: string) => {
    tested.add(clause);
    facets.add(`${clause}:${facet}`);
  };
  const ctx = obj(obj(ex.body).context);
  const segs = segmentsOf(ex.body);
  const keys = segs.map((s) => keyOf(s.ref));
  const present = new Set(keys.filter((k): k is string => k !== undefined));
  const represented = representedBy(segs);
  const warnings = (Array.isArray(ctx.warnings) ? ctx.warnings : []).map((w) => obj(w).code);
  const has = (code: string) => warnings.includes(code);

  tested.add('MAPI-2');
  if (segs.length) meet('MAPI-2', 'segments');
  if (warnings.length) meet('MAPI-2', 'warnings');
  const problems = workingContextProblems(ex.body);
  if (problems.length) fail('MAPI-2', `the answer does not validate against the AssembleContextResponse schema: ${problems.join('; ')}`);

  // In play: what the service retrieves for the task, as a segment or named by one's provenance.
  const excluded = new Set(refList(ex.sent.constraints?.excludedRefs));
  const retrieved = retrievedBy(ex);
  const inPlay = new Set(retrieved.memories.flatMap((m) => [m.key, ...m.sources]));
  const candidates = [...ex.ingested.keys()].filter((k) => inPlay.has(k) && !excluded.has(k) && passesFilters(k, ex));
  // Retrieved memories the answer must hold for nothing to have been left out (an excluded memory and its derivations aside).
  const wanted = retrieved.memories.filter((m) => !excluded.has(m.key) && !m.sources.some((r) => excluded.has(r)));

  const must = refList(ex.sent.constraints?.mustIncludeRefs);
  const absent = must.filter((k) => !present.has(k));

  // MAPI-3 on the larger of the service's number and the kit's own count of what came back (SPEC section 16).
  const estimator = ex.estimator ?? DEFAULT_ESTIMATOR;
  const maxTokens = ex.sent.budget.maxTokens;
  const reserved = ex.sent.budget.reservedTokens ?? 0;
  const available = maxTokens - reserved;
  const estimate = typeof ctx.tokenEstimate === 'number' ? ctx.tokenEstimate : undefined;
  const counted = segmentsCost(
    segs.map((s) => s.content),
    estimator,
  );
  const pressed = candidates.reduce((n, k) => n + estimator.cost(ex.ingested.get(k)!.text), 0) > available;
  if (segs.length && pressed) meet('MAPI-3', 'pressed');
  if (estimate !== undefined && estimate > available && estimate >= counted) {
    fail('MAPI-3', `tokenEstimate ${estimate} exceeds maxTokens ${maxTokens} - reservedTokens ${reserved} = ${available}`);
  } else if (counted > available) {
    const said = estimate === undefined ? 'no tokenEstimate' : `tokenEstimate ${estimate}`;
    fail(
      'MAPI-3',
      `the segments cost ${counted} tokens by the kit's count (${estimator.name}), more than maxTokens ${maxTokens} - reservedTokens ${reserved} = ${available} (the answer says ${said})`,
    );
  }

  if (typeof ctx.truncated === 'boolean') {
    const leftOut = candidates.filter((k) => !represented.has(k));
    if (leftOut.length) {
      meet('MAPI-4', 'left-out');
      if (!ctx.truncated)
        fail('MAPI-4', `truncated is false, but candidates the service retrieves for the task are represented by no segment: ${list(leftOut, ex)}`);
    } else if (excluded.size === 0 && absent.length === 0 && retrieved.complete && wanted.every((m) => present.has(m.key))) {
      // With exclusions the service may count an excluded memory's derivations as left out, and an absent required ref
      // (too large, kept out by a filter, or naming nothing) as something it could not include: the kit cannot tell, so it does not judge.
      meet('MAPI-4', 'complete');
      if (ctx.truncated)
        fail('MAPI-4', `truncated is true, but the answer holds all ${wanted.length} memories the service retrieves for the task with no budget or cap`);
    }
    meet('MAPI-5', ctx.truncated ? 'truncated' : 'untruncated');
    if (ctx.truncated !== has('truncated')) {
      fail('MAPI-5', ctx.truncated ? 'truncated is true but there is no truncated warning' : 'a truncated warning is given but truncated is false');
    }
  }

  meet('MAPI-6', segs.length ? 'segments' : 'empty');
  if ((segs.length === 0) !== has('empty_context')) {
    fail(
      'MAPI-6',
      segs.length === 0 ? 'there are no segments but no empty_context warning' : `an empty_context warning is given with ${segs.length} segment(s)`,
    );
  }

  if (absent.length) meet('MAPI-7', 'omitted');
  else if (must.length) meet('MAPI-7', 'kept');
  if (absent.length && !has('required_ref_omitted'))
    fail('MAPI-7', `required refs are absent but there is no required_ref_omitted warning: ${list(absent, ex)}`);
  // "Exactly when": a warning with no required ref sent breaks the clause as well.
  if (!absent.length && has('required_ref_omitted')) {
    fail(
      'MAPI-7',
      must.length
        ? 'a required_ref_omitted warning is given but every required ref is among the segments'
        : 'a required_ref_omitted warning is given but no mustIncludeRefs were sent',
    );
  }

  if (excluded.size) {
    if (retrieved.memories.some((m) => excluded.has(m.key))) meet('MAPI-8', 'retrieved');
    const shown = [...excluded].filter((k) => present.has(k));
    if (shown.length) fail('MAPI-8', `excluded refs appear among the segments: ${list(shown, ex)}`);
  }

  const caps = [ex.sent.budget.maxSegments, ex.sent.constraints?.maxSegments].filter((x): x is number => typeof x === 'number');
  if (caps.length) {
    const cap = Math.min(...caps);
    if (wanted.length > cap) meet('MAPI-9', 'pressed');
    if (segs.length > cap) fail('MAPI-9', `${segs.length} segments, more than maxSegments ${cap}`);
  }

  if (segs.length) tested.add('MAPI-10');
  const legit = illegitimate(segs, ex);
  if (keys.some((k, i) => k !== undefined && ex.ingested.has(k) && typeof segs[i]!.content === 'string')) meet('MAPI-10', 'ingested');
  if (legit.notString) facets.add('MAPI-10:not-string');
  // One finding per exchange: "N of M exchanges" counts exchanges, and the first bad segment shows the fault.
  const bad = legit.problems.filter((m): m is string => m !== undefined);
  if (bad.length) fail('MAPI-10', bad.length > 1 ? `${bad[0]} (and ${bad.length - 1} more segment(s))` : bad[0]!);

  for (const [status, code] of [
    ['disputed', 'disputed_memory_included'],
    ['superseded', 'superseded_memory_included'],
  ] as const) {
    const shown = [...present].filter((k) => ex.statuses.get(k) === status);
    if (!shown.length) continue;
    meet('MAPI-11', status);
    if (!has(code)) fail('MAPI-11', `${status} memories appear without a ${code} warning: ${list(shown, ex)}`);
  }

  // MAPI-13: put to the test by a kept-out memory the service retrieves once the filters are opened; broken by any kept-out segment.
  const barred = keptOut(ex);
  if (barred.size && ex.opened !== undefined) {
    const found = new Set(segmentsOf(ex.opened).map((s) => keyOf(s.ref)));
    for (const k of barred) {
      const status = ex.statuses.get(k)!;
      if (found.has(k) && (status === 'disputed' || status === 'superseded')) meet('MAPI-13', status);
    }
  }
  const shownBarred = keys.flatMap((k, i) => (k !== undefined && barred.has(k) ? [i] : []));
  if (shownBarred.length) {
    const i = shownBarred[0]!;
    const k = keys[i]!;
    const status = ex.statuses.get(k)!;
    const more = shownBarred.length > 1 ? ` (and ${shownBarred.length - 1} more segment(s))` : '';
    fail(
      'MAPI-13',
      `segment ${i} (block ${ex.ingested.get(k)!.blockId}) is a memory the service marks ${status}, which ${keptOutBy(status, ex.sent)} keeps out${more}`,
    );
  }

  const again = ex.again === undefined ? [] : segmentsOf(ex.again);
  // Two empty answers put nothing to the test; one empty and one not is a violation like any other.
  if (ex.again !== undefined && (segs.length || again.length)) {
    tested.add('MAPI-12');
    if (segs.length > 1 || again.length > 1) meet('MAPI-12', 'order');
    const a = segs.map((s) => [keyOf(s.ref), s.content]);
    const b = again.map((s) => [keyOf(s.ref), s.content]);
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      fail('MAPI-12', `the same request gave different segments: first ${JSON.stringify(a.map((x) => x[0]))}, then ${JSON.stringify(b.map((x) => x[0]))}`);
    }
  }

  return { findings, tested, facets, ...(segs.length ? { budget: { ...(estimate !== undefined ? { estimate } : {}), counted } } : {}) };
}
