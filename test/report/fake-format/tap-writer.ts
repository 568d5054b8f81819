/**
 * A made-up report format for test/report/format-registry.test.ts: TAP
 * (Test Anything Protocol) lines, one per result, written here from the
 * protocol's description (a plan line `1..N`, then `ok N - ID` or
 * `not ok N - ID`, a skip marked `# SKIP`). It reads each result's kind and
 * level as a new writer would.
 */
import type { Report } from '../../../protocol/types.js';

export function renderTap(report: Report): string {
  const lines = [`1..${report.cases.length}`];
  report.cases.forEach((c, i) => {
    const ok = c.status === 'pass' || c.status === 'skip';
    lines.push(`${ok ? 'ok' : 'not ok'} ${i + 1} - ${c.id} (${c.kind}, ${c.level})${c.status === 'skip' ? ' # SKIP' : ''}`);
  });
  return `${lines.join('\n')}\n`;
}
