/** The JSON report: the single source every other format is rendered from. */
import type { Report } from '../protocol/types.js';
import { stringifyJson } from '../protocol/deep-json.js';
import { levelsReached } from '../protocol/verdict.js';

/**
 * At any depth: a recorded request in a result may nest deeper than JSON.stringify goes.
 * The levels are written from the results, so a reader of the JSON need not derive them.
 */
export function renderJson(report: Report): string {
  return stringifyJson({ ...report, levels: levelsReached(report) }, 2) + '\n';
}
