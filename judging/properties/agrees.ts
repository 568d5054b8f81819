/**
 * The differential property's verdict on one answer, at once and without
 * asking anyone: whether an answer to a request agrees with the reference as
 * `differential` compares them (comparableView). The diagnosis judges
 * another answer to a replayed, swept or generated request with it, as the
 * replay judged the implementation's.
 */
import type { Outcome } from '../../protocol/types.js';
import { comparableView, readAnswer, viewsAgree } from './answers.js';
import type { GenContext } from './arbitraries.js';
import { referenceAnswer, withWorkingContext } from './catalog.js';

/** A judge of answers to `request`: true when an answer agrees with the reference's (the reference's view computed once). */
export function agreesWithReference(request: unknown, gen: GenContext): (outcome: Outcome) => boolean {
  const wc = withWorkingContext(request, gen);
  let expected: Record<string, unknown> | undefined;
  return (outcome) => {
    let view: Record<string, unknown>;
    try {
      view = comparableView(readAnswer(outcome, request, gen.capabilities), wc);
    } catch {
      // Unreadable, schema-invalid or not sendable: no answer the differential property passes.
      return false;
    }
    expected ??= comparableView(referenceAnswer(request, gen.capabilities, gen.constants), wc);
    return viewsAgree(expected, view);
  };
}
