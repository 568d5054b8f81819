/**
 * The built-in reference, through the same in-process adapter vendors use.
 * It declares every capability it implements, omission_markers included, so
 * `ctxconform run` puts all of them to the test; the module's own describe()
 * states what assemble(request) does when told nothing (no markers). A given
 * manifest chooses the capabilities it answers with and the constants it
 * declares (SPEC section 17): the reference as a team tuned it.
 */
import { assemble, describe } from '../reference/index.js';
import { CAPABILITIES } from '../protocol/assembly.js';
import type { Implementation, Manifest } from '../protocol/types.js';
import { fromFunctions } from './inprocess.js';

export function referenceImplementation(manifest?: Manifest): Implementation {
  const m = manifest ?? ({ ...describe(), capabilities: [...CAPABILITIES] } as Manifest);
  const options = { capabilities: m.capabilities as never, ...(m.constants !== undefined ? { constants: m.constants } : {}) };
  return fromFunctions((req) => assemble(req, options), undefined, m, { readsOnly: true });
}
