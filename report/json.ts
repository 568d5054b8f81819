/** The JSON report: the single source every other format is rendered from. */
import type { Report } from '../protocol/types.js';
import { stringifyJson } from '../protocol/deep-json.js';

/** At any depth: a recorded request in a result may nest deeper than JSON.stringify goes. */
export function renderJson(report: Report): string {
  return stringifyJson(report, 2) + '\n';
}
