/**
 * The spec the kit judges by: the requirement ids of SPEC.md, read from the
 * document itself so that a case can only cite what the spec defines and
 * coverage counts what it says; the spec versions (`v1`, `v2`, ...): a case
 * holds since one (`since: v1`), and `--spec vN` runs the cases that hold in
 * vN, up to this kit's own SPEC_VERSION; and the kit's version, so reports
 * name the kit that judged.
 */
import { readFileSync } from 'node:fs';
import { packagePath } from '../protocol/package-root.js';

export interface SpecRequirement {
  id: string;
  section: string;
  text: string;
}

const SPEC_PATH = packagePath('SPEC.md');

export const SPEC_VERSION = 'v1';

export const KIT_VERSION: string = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;

/** Ids proved by the harness and contract suites (adapters, memory API, probes, declared constants, levels, declared designs, the shadow proxy), not by golden cases. */
export const CASE_EXEMPT_PREFIXES: readonly string[] = Object.freeze(['PROTO', 'MAPI', 'PROBE', 'DECL', 'LVL', 'DES', 'SHD']);

/** Ids of the any level proved by its properties and the harness (SPEC ANY-12): content-blindness, determinism, unknown members, errors to valid requests. */
export const CASE_EXEMPT_IDS: readonly string[] = Object.freeze(['ANY-7', 'ANY-8', 'ANY-9', 'ANY-13']);

export function isCaseExempt(id: string): boolean {
  return CASE_EXEMPT_IDS.includes(id) || CASE_EXEMPT_PREFIXES.some((p) => id.startsWith(p + '-'));
}

const HEADING = /^#{2,6}\s+(.*\S)\s*$/;
const BULLET = /^- \*\*([A-Z]+-[0-9]+)\*\*\s*(.*)$/;

/** Every `- **ID** text` bullet of SPEC.md, in document order, with its section heading and full text. */
export function specRequirements(specPath: string = SPEC_PATH): SpecRequirement[] {
  const lines = readFileSync(specPath, 'utf8').split(/\r?\n/);
  const out: SpecRequirement[] = [];
  let section = '';
  let current: SpecRequirement | undefined;
  for (const line of lines) {
    const h = HEADING.exec(line);
    const b = BULLET.exec(line);
    if (h) {
      section = h[1]!;
      current = undefined;
    } else if (b) {
      current = { id: b[1]!, section, text: b[2]!.trim() };
      out.push(current);
    } else if (current && /^\s+\S/.test(line)) {
      // A bullet's continuation lines are indented.
      current.text += ' ' + line.trim();
    } else {
      current = undefined;
    }
  }
  return out;
}

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
