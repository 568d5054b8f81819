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
import type { AssembleContextRequest, MemoryRef } from '../../adapters/memory-api/wire.js';
import { refKey } from '../../adapters/memory-api/wire.js';
import { estimateTokens } from '../../reference/index.js';
import type { ClauseId, Facet } from './clauses.js';
import { workingContextProblems } from './schema.js';

export interface IngestedMemory {
  blockId: string;
  /** The ingested text, marker included. */
  text: string;
  /** The ingested content object (`{text}`); a segment may carry it as JSON text. */
  content?: unknown;
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
}

export interface Finding {
  clause: ClauseId;
  message: string;
}

export interface CheckOutcome {
  findings: Finding[];
  /** The clauses this exchange put to the test (every clause with a finding is among them). */
  tested: Set<ClauseId>;
  /** The needs of those clauses this exchange met. */
  facets: Set<Facet>;
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

/** Does the memory's status pass the request's filters? */
function passesFilters(key: string, ex: Exchange): boolean {
  const status = ex.statuses.get(key) ?? 'active';
  if (status === 'active') return true;
  if (status === 'disputed') return ex.sent.filters?.includeDisputed ?? ex.sent.constraints?.includeDisputed ?? true;
  if (status === 'superseded') return ex.sent.filters?.includeSuperseded ?? false;
  return false; // tombstoned, pending, failed
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

/**
 * Why each segment is not legitimate (undefined when it is): an ingested
 * memory must carry exactly its ingested content; any other memory must be
 * one the service derived, with provenance naming only memories ingested into
 * the scope or other such derived segments of the same answer.
 */
function illegitimate(segs: readonly Seg[], ex: Exchange): (string | undefined)[] {
  const keys = segs.map((s) => keyOf(s.ref));
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
  return segs.map((s, i) => {
    const k = keys[i];
    if (k === undefined) return `segment ${i} has no ref`;
    const mem = ex.ingested.get(k);
    if (mem) return sameContent(s.content, mem) ? undefined : `segment ${i} (block ${mem.blockId}) has content ${clip(s.content)}, not the ingested ${clip(mem.text)}`;
    if (derived.has(k)) return undefined;
    const src = sourcesOf(s);
    if (!src) return `segment ${i} has ref ${k}, which is not a memory ingested into the scope, and its provenance names no sourceRefs it was derived from`;
    const foreign = src.filter((r) => !ex.ingested.has(r) && !derived.has(r));
    return `segment ${i} has ref ${k}, which is not a memory ingested into the scope, and its provenance.sourceRefs names ${foreign.join(', ')}, not ingested into the scope`;
  });
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

  const maxTokens = ex.sent.budget.maxTokens;
  const reserved = ex.sent.budget.reservedTokens ?? 0;
  if (typeof ctx.tokenEstimate === 'number') {
    const pressed = candidates.reduce((n, k) => n + estimateTokens(ex.ingested.get(k)!.text), 0) > maxTokens - reserved;
    if (segs.length && pressed) meet('MAPI-3', 'pressed');
    if (ctx.tokenEstimate > maxTokens - reserved) {
      fail('MAPI-3', `tokenEstimate ${ctx.tokenEstimate} exceeds maxTokens ${maxTokens} - reservedTokens ${reserved} = ${maxTokens - reserved}`);
    }
  }

  if (typeof ctx.truncated === 'boolean') {
    const leftOut = candidates.filter((k) => !represented.has(k));
    if (leftOut.length) {
      meet('MAPI-4', 'left-out');
      if (!ctx.truncated) fail('MAPI-4', `truncated is false, but candidates the service retrieves for the task are represented by no segment: ${list(leftOut, ex)}`);
    } else if (excluded.size === 0 && retrieved.complete && wanted.every((m) => present.has(m.key))) {
      // With exclusions the service may count an excluded memory's derivations as left out; the kit cannot tell, so it does not judge.
      meet('MAPI-4', 'complete');
      if (ctx.truncated) fail('MAPI-4', `truncated is true, but the answer holds all ${wanted.length} memories the service retrieves for the task with no budget or cap`);
    }
    meet('MAPI-5', ctx.truncated ? 'truncated' : 'untruncated');
    if (ctx.truncated !== has('truncated')) {
      fail('MAPI-5', ctx.truncated ? 'truncated is true but there is no truncated warning' : 'a truncated warning is given but truncated is false');
    }
  }

  meet('MAPI-6', segs.length ? 'segments' : 'empty');
  if ((segs.length === 0) !== has('empty_context')) {
    fail('MAPI-6', segs.length === 0 ? 'there are no segments but no empty_context warning' : `an empty_context warning is given with ${segs.length} segment(s)`);
  }

  const must = refList(ex.sent.constraints?.mustIncludeRefs);
  const absent = must.filter((k) => !present.has(k));
  if (absent.length) meet('MAPI-7', 'omitted');
  else if (must.length) meet('MAPI-7', 'kept');
  if (absent.length && !has('required_ref_omitted')) fail('MAPI-7', `required refs are absent but there is no required_ref_omitted warning: ${list(absent, ex)}`);
  // "Exactly when": a warning with no required ref sent breaks the clause as well.
  if (!absent.length && has('required_ref_omitted')) {
    fail('MAPI-7', must.length ? 'a required_ref_omitted warning is given but every required ref is among the segments' : 'a required_ref_omitted warning is given but no mustIncludeRefs were sent');
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
  if (keys.some((k) => k !== undefined && ex.ingested.has(k))) meet('MAPI-10', 'ingested');
  // One finding per exchange: "N of M exchanges" counts exchanges, and the first bad segment shows the fault.
  const bad = illegitimate(segs, ex).filter((m): m is string => m !== undefined);
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

  return { findings, tested, facets };
}
