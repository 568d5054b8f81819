/**
 * The contract checks of one exchange with a memory service (SPEC section 16):
 * what was ingested, what the service says about each memory's status, the
 * assemble-context request sent and the answer (twice, for MAPI-12). Pure, so
 * the published example answers can be checked too.
 */
import type { AssembleContextRequest, MemoryRef } from '../../adapters/memory-api/wire.js';
import { refKey } from '../../adapters/memory-api/wire.js';
import type { ClauseId } from './clauses.js';
import { workingContextProblems } from './schema.js';

export interface Exchange {
  /** Every memory written into the scope, by refKey: its text and the kit block id. */
  ingested: ReadonlyMap<string, { blockId: string; text: string }>;
  /** The service's status of each memory (from hydrate), by refKey; a memory not listed counts as active. */
  statuses: ReadonlyMap<string, string>;
  sent: AssembleContextRequest;
  body: unknown;
  /** The answer to the same request sent again; MAPI-12 is checked only when present. */
  again?: unknown;
}

export interface Finding {
  clause: ClauseId;
  message: string;
}

export interface CheckOutcome {
  findings: Finding[];
  /** The clauses this exchange actually put to the test (a clause never exercised is reported `skip`). */
  exercised: Set<ClauseId>;
}

interface Seg {
  ref?: { id?: unknown; type?: unknown };
  content?: unknown;
}

function obj(x: unknown): Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : {};
}

function segmentsOf(body: unknown): Seg[] {
  const s = obj(obj(body).context).segments;
  return Array.isArray(s) ? (s.map(obj) as Seg[]) : [];
}

function segKey(s: Seg): string | undefined {
  return s.ref && typeof s.ref === 'object' ? refKey(s.ref as { id: unknown; type: unknown }) : undefined;
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

/** Is the memory a candidate for this request: not excluded, not filtered out by its status? */
function isCandidate(key: string, ex: Exchange, excluded: ReadonlySet<string>): boolean {
  if (excluded.has(key)) return false;
  const status = ex.statuses.get(key) ?? 'active';
  if (status === 'active') return true;
  if (status === 'disputed') return ex.sent.filters?.includeDisputed ?? ex.sent.constraints?.includeDisputed ?? true;
  if (status === 'superseded') return ex.sent.filters?.includeSuperseded ?? false;
  return false; // tombstoned, pending, failed
}

export function checkExchange(ex: Exchange): CheckOutcome {
  const findings: Finding[] = [];
  const exercised = new Set<ClauseId>();
  const fail = (clause: ClauseId, message: string) => findings.push({ clause, message });
  const ctx = obj(obj(ex.body).context);
  const segs = segmentsOf(ex.body);
  const keys = segs.map(segKey);
  const present = new Set(keys.filter((k): k is string => k !== undefined));
  const warnings = (Array.isArray(ctx.warnings) ? ctx.warnings : []).map((w) => obj(w).code);
  const has = (code: string) => warnings.includes(code);

  exercised.add('MAPI-2');
  const problems = workingContextProblems(ex.body);
  if (problems.length) fail('MAPI-2', `the answer does not validate against the AssembleContextResponse schema: ${problems.join('; ')}`);

  const maxTokens = ex.sent.budget.maxTokens;
  const reserved = ex.sent.budget.reservedTokens ?? 0;
  if (typeof ctx.tokenEstimate === 'number') {
    exercised.add('MAPI-3');
    if (ctx.tokenEstimate > maxTokens - reserved) {
      fail('MAPI-3', `tokenEstimate ${ctx.tokenEstimate} exceeds maxTokens ${maxTokens} - reservedTokens ${reserved} = ${maxTokens - reserved}`);
    }
  }

  const excluded = new Set(refList(ex.sent.constraints?.excludedRefs));
  const leftOut = [...ex.ingested.keys()].filter((k) => isCandidate(k, ex, excluded) && !present.has(k));
  if (typeof ctx.truncated === 'boolean') {
    exercised.add('MAPI-4');
    if (ctx.truncated && leftOut.length === 0) fail('MAPI-4', 'truncated is true, but every candidate memory of the scope is among the segments');
    if (!ctx.truncated && leftOut.length > 0) fail('MAPI-4', `truncated is false, but candidate memories were left out: ${list(leftOut, ex)}`);
    exercised.add('MAPI-5');
    if (ctx.truncated !== has('truncated')) {
      fail('MAPI-5', ctx.truncated ? 'truncated is true but there is no truncated warning' : 'a truncated warning is given but truncated is false');
    }
  }

  exercised.add('MAPI-6');
  if ((segs.length === 0) !== has('empty_context')) {
    fail('MAPI-6', segs.length === 0 ? 'there are no segments but no empty_context warning' : `an empty_context warning is given with ${segs.length} segment(s)`);
  }

  const must = refList(ex.sent.constraints?.mustIncludeRefs);
  // "Exactly when": a warning with no required ref sent breaks the clause as well.
  if (must.length || has('required_ref_omitted')) {
    exercised.add('MAPI-7');
    const absent = must.filter((k) => !present.has(k));
    if (absent.length && !has('required_ref_omitted')) fail('MAPI-7', `required refs are absent but there is no required_ref_omitted warning: ${list(absent, ex)}`);
    if (!absent.length && has('required_ref_omitted')) {
      fail('MAPI-7', must.length ? 'a required_ref_omitted warning is given but every required ref is among the segments' : 'a required_ref_omitted warning is given but no mustIncludeRefs were sent');
    }
  }

  if (excluded.size) {
    exercised.add('MAPI-8');
    const shown = [...excluded].filter((k) => present.has(k));
    if (shown.length) fail('MAPI-8', `excluded refs appear among the segments: ${list(shown, ex)}`);
  }

  const caps = [ex.sent.budget.maxSegments, ex.sent.constraints?.maxSegments].filter((x): x is number => typeof x === 'number');
  if (caps.length) {
    exercised.add('MAPI-9');
    const cap = Math.min(...caps);
    if (segs.length > cap) fail('MAPI-9', `${segs.length} segments, more than maxSegments ${cap}`);
  }

  if (segs.length) exercised.add('MAPI-10');
  segs.forEach((s, i) => {
    const k = keys[i];
    const mem = k === undefined ? undefined : ex.ingested.get(k);
    if (!mem) fail('MAPI-10', `segment ${i} has ref ${k ?? '(none)'}, which is not a memory ingested into the scope`);
    else if (s.content !== mem.text) {
      fail('MAPI-10', `segment ${i} (block ${mem.blockId}) has content ${clip(s.content)}, not the ingested ${clip(mem.text)}`);
    }
  });

  for (const [status, code] of [
    ['disputed', 'disputed_memory_included'],
    ['superseded', 'superseded_memory_included'],
  ] as const) {
    const shown = [...present].filter((k) => ex.statuses.get(k) === status);
    if (!shown.length) continue;
    exercised.add('MAPI-11');
    if (!has(code)) fail('MAPI-11', `${status} memories appear without a ${code} warning: ${list(shown, ex)}`);
  }

  const again = ex.again === undefined ? [] : segmentsOf(ex.again);
  // Two empty answers put nothing to the test; one empty and one not is a violation like any other.
  if (ex.again !== undefined && (segs.length || again.length)) {
    exercised.add('MAPI-12');
    const a = segs.map((s) => [segKey(s), s.content]);
    const b = again.map((s) => [segKey(s), s.content]);
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      fail('MAPI-12', `the same request gave different segments: first ${JSON.stringify(a.map((x) => x[0]))}, then ${JSON.stringify(b.map((x) => x[0]))}`);
    }
  }

  return { findings, exercised };
}
