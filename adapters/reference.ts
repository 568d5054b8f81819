/** The built-in reference, through the same in-process adapter vendors use. */
import { assemble, describe } from '../reference/index.js';
import type { Implementation, Manifest } from '../protocol/types.js';
import { fromFunctions } from './inprocess.js';

export function referenceImplementation(manifest?: Manifest): Implementation {
  const m = manifest ?? (describe() as Manifest);
  return fromFunctions((req) => assemble(req, { capabilities: m.capabilities as never }), undefined, m);
}
