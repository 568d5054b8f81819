/**
 * How the reference is called: which capabilities it applies and the declared
 * constants it computes with. The shapes it reads and answers are the
 * protocol's (protocol/assembly.ts).
 */
import type { Capability, DeclaredConstants, ErrorAnswer } from '../protocol/assembly.js';
import type { ContentLengths } from './lengths.js';

/**
 * What `assemble(request)` applies when told nothing: every capability but
 * omission_markers, the four that change nothing for a request that does not
 * use them. So a plain request gets the lesson's answer, byte for byte, unless
 * markers are asked for (SPEC section 8).
 */
export const DEFAULT_CAPABILITIES: readonly Capability[] = ['working_context', 'constraints', 'lifecycle', 'pinned'];

export interface AssembleOptions {
  /** The capabilities to apply (default: DEFAULT_CAPABILITIES, every one but omission_markers). */
  capabilities?: readonly Capability[];
  /** Declared constants of profile `tiered` (SPEC section 17); absent: the specification's. */
  constants?: DeclaredConstants;
  /** The code-point lengths of this request's contents, as far as the caller has counted them (ContentLengths). */
  lengths?: ContentLengths;
}

export function isErrorAnswer(x: unknown): x is ErrorAnswer {
  return typeof x === 'object' && x !== null && 'error' in x;
}
