/**
 * What a property is and what it runs against: the shapes the catalogue
 * (catalog.ts) and the any level's principles (any-level.ts) both define
 * properties by, and the runner, the replay and the sweep call. Below both,
 * so neither imports the other for them.
 */
import type fc from 'fast-check';
import type { ContentLengths } from '../../reference/index.js';
import type { Implementation } from '../../protocol/types.js';
import type { Design } from '../principles/design.js';
import type { GenContext } from './arbitraries.js';
import type { Answer } from './answers.js';
import type { BlockIndex } from './block-index.js';

export interface PropertyEnv {
  impl: Implementation;
  gen: GenContext;
  /** The declared design, prepared with its tokenizer (SPEC section 18): what the any level's properties measure with. */
  design?: Design;
  timeoutMs: number;
  /** The lengths of the request's contents, when the env serves one request (a replay): counted once for every check. */
  lengths?: ContentLengths;
  /** The request's blocks by id, when the env serves one request (a replay): made once for every check. */
  blocks?: BlockIndex;
  /** The reference's answer to `request`, when the env serves that one request and it is known already. */
  reference?: { request: unknown; answer: Answer };
}

export interface PropertyDef<T> {
  name: string;
  description: string;
  requirements(gen: GenContext): string[];
  /** False when the manifest makes the property meaningless (order independence without `tiered`). */
  applies(gen: GenContext): boolean;
  /** Why it does not apply, when that is not the profiles (a capability, a validation level not declared). */
  notApplicable?(gen: GenContext): string;
  arbitrary(gen: GenContext): fc.Arbitrary<T>;
  check(env: PropertyEnv, input: T): Promise<void>;
  /**
   * For a property that sends its one request and reads the answers: the
   * check of answers already received, in the order check() asks for them,
   * which check() makes after asking. A replay has the answers and calls
   * this; it throws a PropertyFailure as check() does.
   */
  verify?(env: PropertyEnv, input: T, answers: readonly Answer[]): void;
  /** The requests the check sends, first the one a counterexample is best saved as. */
  requests(input: T): unknown[];
  /**
   * A shrink keeps to failures of the first requirement the first failure names (a principle
   * property names them most severe first): a cut shrinks to a cut, not to a header a smaller
   * request happens to break.
   */
  shrinksWithinFirst?: boolean;
}
