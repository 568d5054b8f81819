/**
 * The built-in reference, through the same in-process adapter vendors use.
 * A given manifest chooses the capabilities it answers with and the constants
 * it declares (SPEC section 17): the reference as a team tuned it.
 */
import { assemble, describe } from '../reference/index.js';
import type { Implementation, Manifest } from '../protocol/types.js';
import { fromFunctions } from './inprocess.js';

export function referenceImplementation(manifest?: Manifest): Implementation {
  const m = manifest ?? (describe() as Manifest);
  const options = { capabilities: m.capabilities as never, ...(m.constants !== undefined ? { constants: m.constants } : {}) };
  return fromFunctions((req) => assemble(req, options), undefined, m);
}
