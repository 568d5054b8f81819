import { BLOCK_MEMBERS, CONSTRAINT_MEMBERS, REQUEST_MEMBERS } from '../../protocol/assembly.js';
import { defineDefect } from '../defect-registry.js';
import { isObject } from '../json-object.js';
import type { Rec } from '../hooks.js';

const REQUEST = new Set(REQUEST_MEMBERS);
const BLOCK = new Set(BLOCK_MEMBERS);
const CONSTRAINT = new Set(CONSTRAINT_MEMBERS);

const unknownIn = (o: Rec, known: ReadonlySet<string>): boolean => Object.keys(o).some((k) => !known.has(k));

function hasUnknownMember(r: Rec): boolean {
  if (unknownIn(r, REQUEST)) return true;
  if (Array.isArray(r.blocks) && r.blocks.some((b: unknown) => isObject(b) && unknownIn(b, BLOCK))) return true;
  return isObject(r.constraints) && unknownIn(r.constraints, CONSTRAINT);
}

export default defineDefect({
  id: 'unknown-members-refused',
  section: 'validation',
  requirements: ['REQ-3'],
  summary: 'a request with a member the spec does not define is refused; REQ-3 says such members are ignored',
  defects: {
    refuses: hasUnknownMember,
  },
  when: ['valid', 'invalid'],
});
