/**
 * The requirement ids of SPEC.md, read from the document itself so that a
 * case can only cite what the spec defines and coverage counts what it says.
 */
import { readFileSync } from 'node:fs';
import { packagePath } from '../protocol/package-root.js';

export interface SpecRequirement {
  id: string;
  section: string;
  text: string;
}

const SPEC_PATH = packagePath('SPEC.md');

/** Ids proved by the harness and contract suites (adapters, memory API, probes, declared constants), not by golden cases. */
export const CASE_EXEMPT_PREFIXES: readonly string[] = Object.freeze(['PROTO', 'MAPI', 'PROBE', 'DECL']);

export function isCaseExempt(id: string): boolean {
  return CASE_EXEMPT_PREFIXES.some((p) => id.startsWith(p + '-'));
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
