/**
 * The built-in reference, through the same in-process adapter vendors use.
 * It declares every capability it implements, omission_markers included, so
 * `ctxconform run` puts all of them to the test; the module's own describe()
 * states what assemble(request) does when told nothing (no markers).
 */
import { assemble, CAPABILITIES, describe } from '../reference/index.js';
import type { Implementation, Manifest } from '../protocol/types.js';
import { fromFunctions } from './inprocess.js';

export function referenceImplementation(manifest?: Manifest): Implementation {
  const m = manifest ?? ({ ...describe(), capabilities: [...CAPABILITIES] } as Manifest);
  return fromFunctions((req) => assemble(req, { capabilities: m.capabilities as never }), undefined, m);
}
