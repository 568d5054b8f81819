/**
 * What a failure is, in a form a baseline entry can hold and compare: the
 * checks that failed (a replayed request is judged by several), the members
 * of the answer that differ from what was expected, and where they differ
 * (JSON Pointers into the expected and actual values: the fingerprint of the
 * defect). A property's and a replayed request's values are those of the
 * shrunk counterexample, so the same defect on the same seed gives the same
 * key run after run, and another defect another key. A catalogue diagnosis
 * may join it later (`diagnosis`); matching compares only what an entry holds.
 */
import { pointerToken } from '../protocol/deep-json.js';
import type { Defect } from '../protocol/types.js';

/** Pointers kept in a key: the first ones in document order, which a human can still read in a baseline file. */
const MAX_DEFECT_PATHS = 20;
/** Values compared at most, so a 28 MB answer costs no more to key than a small one. */
const MAX_VISITED = 100_000;

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The top-level members either side has (when both are objects), or of the one that is. */
function membersOf(expected: unknown, actual: unknown): string[] {
  const keys = new Set<string>();
  if (isObj(expected)) for (const k of Object.keys(expected)) keys.add(k);
  if (isObj(actual)) for (const k of Object.keys(actual)) keys.add(k);
  return [...keys].sort();
}

/** Where two values differ, as JSON Pointers, in document order; without recursion, at most `max`. */
export function differingPaths(expected: unknown, actual: unknown, max = MAX_DEFECT_PATHS): string[] {
  const out: string[] = [];
  // A stack in reverse document order, so that popping walks the values in order.
  const stack: Array<[string, unknown, unknown, boolean, boolean]> = [['', expected, actual, expected !== undefined, actual !== undefined]];
  let visited = 0;
  while (stack.length > 0 && out.length < max && visited++ < MAX_VISITED) {
    const [at, a, b, hasA, hasB] = stack.pop()!;
    if (hasA !== hasB) {
      out.push(at || '/');
      continue;
    }
    if (Object.is(a, b) || (a === 0 && b === 0)) continue;
    const bothArrays = Array.isArray(a) && Array.isArray(b);
    const bothObjects = isObj(a) && isObj(b);
    if (!bothArrays && !bothObjects) {
      out.push(at || '/');
      continue;
    }
    const keys = bothArrays
      ? Array.from({ length: Math.max((a as unknown[]).length, (b as unknown[]).length) }, (_, i) => String(i))
      : [...new Set([...Object.keys(a as Obj), ...Object.keys(b as Obj)])];
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      const x = a as Obj;
      const y = b as Obj;
      stack.push([`${at}/${pointerToken(k)}`, x[k], y[k], Object.hasOwn(x, k), Object.hasOwn(y, k)]);
    }
  }
  return out.sort();
}

/** The defect of a failing result: from its own key when the engine made one, else from its expected and actual values. */
export function defectOf(c: { expected?: unknown; actual?: unknown; defect?: Defect }): Defect {
  return c.defect ?? defectFrom(c);
}

/** The key of a verdict's values, with the checks that failed when there were several kinds (replay). */
export function defectFrom(v: { expected?: unknown; actual?: unknown; checks?: readonly string[] }): Defect {
  return {
    ...(v.checks !== undefined ? { checks: [...new Set(v.checks)].sort() } : {}),
    members: membersOf(v.expected, v.actual),
    paths: differingPaths(v.expected, v.actual),
  };
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
};

/**
 * Whether a failure is the one an entry accepts: every part the entry holds
 * is the failure's (a golden case's entry holds members only).
 */
export function sameDefect(accepted: Defect, failure: Defect): boolean {
  if (accepted.checks !== undefined && !sameSet(accepted.checks, failure.checks ?? [])) return false;
  if (!sameSet(accepted.members, failure.members)) return false;
  if (accepted.paths !== undefined && !sameSet(accepted.paths, failure.paths ?? [])) return false;
  if (accepted.diagnosis !== undefined && accepted.diagnosis !== failure.diagnosis) return false;
  return true;
}

/** `checks differential; members context, included; paths /context, /included/1` for a message. */
export function describeDefect(d: Defect): string {
  const parts: string[] = [];
  if (d.checks !== undefined) parts.push(`checks ${d.checks.join(', ') || 'none'}`);
  parts.push(`members ${d.members.join(', ') || 'none'}`);
  if (d.paths !== undefined) parts.push(`paths ${d.paths.join(', ') || 'none'}`);
  if (d.diagnosis !== undefined) parts.push(`diagnosis ${d.diagnosis}`);
  return parts.join('; ');
}
