/**
 * Spec versions (`v1`, `v2`, ...): a case holds since one (`since: v1`), and
 * `--spec vN` runs the cases that hold in vN. The kit knows the versions up
 * to its own SPEC.md (SPEC_VERSION).
 */
import { SPEC_VERSION } from './version.js';

const VERSION = /^v([1-9][0-9]*)$/;

/** The number of `vN`, or undefined when the text is not a spec version. */
export function specNumber(v: string): number | undefined {
  const m = VERSION.exec(v);
  return m ? Number(m[1]) : undefined;
}

/** Why `v` cannot be used with this kit, or undefined when it can. */
export function specVersionProblem(v: string): string | undefined {
  const n = specNumber(v);
  if (n === undefined) return `${JSON.stringify(v)} is not a spec version (v1, v2, ...)`;
  if (n > specNumber(SPEC_VERSION)!) return `${v} is later than this kit's SPEC.md (${SPEC_VERSION})`;
  return undefined;
}

/** Whether a case that holds since `since` holds in spec version `spec`. */
export function holdsIn(since: string, spec: string): boolean {
  const a = specNumber(since);
  const b = specNumber(spec);
  return a !== undefined && b !== undefined && a <= b;
}
