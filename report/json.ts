/** The JSON report: the single source every other format is rendered from. */
import type { Report } from '../protocol/types.js';

export function renderJson(report: Report): string {
  return JSON.stringify(report, null, 2) + '\n';
}
