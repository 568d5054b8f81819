/**
 * One answer judged at the any level (SPEC section 18): the transport
 * outcome, the error and result shapes, then the principles. The verdict of
 * a golden case of the any level, of a tiered case's request put to an
 * implementation that declares only `any`, and of a recorded request.
 */
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { Outcome } from '../../protocol/types.js';
import type { Result } from '../../protocol/assembly.js';
import type { Verdict } from '../../vocabulary/types.js';
import { malformedErrorVerdict, nonAnswerVerdict } from '../../vocabulary/outcome-verdict.js';
import type { Design } from './design.js';
import { principleFindings } from './checks.js';
import { declaredRefusal } from './refusals.js';
import type { Finding, PrincipleRequest } from './finding.js';

/** The requirement ids the principles are judged under, for a result's requirements. */
export const PRINCIPLE_IDS = [
  'ANY-1',
  'ANY-2',
  'ANY-3',
  'ANY-4',
  'ANY-5',
  'ANY-6',
  'ANY-10',
  'ANY-11',
  'ANY-13',
  'ANY-14',
  'ANY-15',
  'ANY-16',
  'LIF-1',
  'LIF-2',
] as const;

/**
 * The principles an answer is held to: ANY-6 only where pinned is declared, ANY-10 only for a
 * render that names its blocks, ANY-14 unless the fill is the design's own, ANY-15 only for a
 * declared order.
 */
export const principlesHeld = (capabilities: readonly string[], design?: Pick<Design, 'namesBlocks' | 'contextOrder' | 'fill' | 'groups'>): string[] =>
  PRINCIPLE_IDS.filter(
    (id) =>
      (id !== 'ANY-6' || capabilities.includes('pinned')) &&
      (!id.startsWith('LIF-') || capabilities.includes('lifecycle')) &&
      (id !== 'ANY-10' || design?.namesBlocks !== false) &&
      (id !== 'ANY-14' || design?.fill !== 'own') &&
      (id !== 'ANY-15' || design?.contextOrder !== undefined) &&
      (id !== 'ANY-16' || design?.groups !== undefined),
  );

/** Whether the request holds a live pinned block: then pinned_overflow is a loud failure the level accepts (ANY-6). */
function hasLivePinned(request: PrincipleRequest, design: Design): boolean {
  return request.blocks.some((b) => b.pinned === true && !design.expired(request.now, b));
}

export function principleVerdict(request: unknown, outcome: Outcome, design: Design, capabilities: readonly string[]): Verdict & { findings?: Finding[] } {
  const req = request as PrincipleRequest;
  switch (outcome.kind) {
    case 'timeout':
    case 'crash':
      // No answer to a valid request: the principle it blocks is ANY-13's, whatever else the answer would have broken.
      return {
        ...nonAnswerVerdict(outcome),
        findings: [
          {
            id: 'ANY-13',
            message: outcome.kind === 'timeout' ? 'a valid request got no answer in time' : 'a valid request got no answer: the implementation crashed',
          },
        ],
      };
    case 'protocol':
    case 'unsendable':
      return nonAnswerVerdict(outcome);
    case 'error': {
      const malformed = malformedErrorVerdict(outcome);
      if (malformed) return malformed;
      if (outcome.code === 'pinned_overflow' && capabilities.includes('pinned') && hasLivePinned(req, design)) return { status: 'pass' };
      const declared = declaredRefusal(request, design.refuses);
      if (declared) return { status: 'skip', message: declared };
      const finding: Finding = {
        id: 'ANY-13',
        message:
          `a valid request got the error ${String(outcome.code)}: ${String(outcome.message)}; it gets a ` +
          `result${capabilities.includes('pinned') ? ', or pinned_overflow when it holds a pinned block' : ''}`,
        expected: 'a result',
        actual: { error: { code: outcome.code, message: outcome.message } },
      };
      return failed([finding]);
    }
    case 'result': {
      const valid = validators.result('tiered', capabilities);
      if (!valid(outcome.value)) {
        return {
          status: 'error',
          message: `answer is not a valid result for capabilities [${capabilities.join(', ')}] (RES-1): ${formatErrors(valid.errors).join('; ')}`,
          actual: outcome.value,
        };
      }
      const findings = principleFindings(req, outcome.value as Result, design, capabilities);
      return findings.length === 0 ? { status: 'pass' } : failed(findings);
    }
  }
}

/** The principles findings break, each once, in the order first found. */
export function brokenPrinciples(findings: readonly Finding[] | undefined): string[] {
  return [...new Set((findings ?? []).map((f) => f.id))];
}

/** A failing verdict: one line per finding, its id first; expected and actual keyed by the id and a count. */
export function failed(findings: Finding[]): Verdict & { findings: Finding[] } {
  const expected: Record<string, unknown> = {};
  const actual: Record<string, unknown> = {};
  findings.forEach((f, i) => {
    const key = `${f.id} #${i + 1}`;
    if (f.expected !== undefined) expected[key] = f.expected;
    if (f.actual !== undefined) actual[key] = f.actual;
  });
  return { status: 'fail', message: findings.map((f) => `${f.id} ${f.message}`).join('\n'), expected, actual, findings };
}
