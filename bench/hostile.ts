/**
 * Issue 36's hostile peers (test/hostile-scenarios.ts), each run through the
 * command line: the time until the kit exits, its exit status, the kit
 * process's peak resident set, the reports written, and the processes it left
 * running. Printed, never asserted; test/adapters/hostile.test.ts holds each
 * to its stated bounds. A run that does not end is killed at 3 times its bound.
 */
import { SCENARIOS, play } from '../test/hostile-scenarios.js';

for (const s of SCENARIOS) {
  const r = await play(s, 3 * s.limitMs);
  const peak = r.peakMiB === undefined ? 'peak unknown' : `peak ${r.peakMiB.toFixed(0)} MiB (bound ${s.limitMiB})`;
  const left = r.leftRunning?.length ? `, left running: ${r.leftRunning.length}` : '';
  console.log(
    `${s.name}: ${r.hung ? `did not end, killed after ${(r.ms / 1000).toFixed(1)} s` : `${(r.ms / 1000).toFixed(1)} s`} ` +
      `(bound ${s.limitMs / 1000} s), exit ${r.status}, ${peak}, reports ${r.reports.length}/5${left}`,
  );
  const verdict = r.stdout.split('\n').filter((l) => /^(PASS|FAIL|INTERRUPTED|NOTHING)/.test(l));
  if (verdict.length) console.log(`  ${verdict.join(' | ')}`);
}
