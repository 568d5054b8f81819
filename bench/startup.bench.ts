/**
 * How fast the command line starts: `ctxconform --help` and `ctxconform list`
 * against `node -e 0` in the same run (the floor any Node program pays), best
 * of several runs each. The goal: each within 0.3 s on the 2-core machine the
 * kit is developed on.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(root, 'bin/ctxconform.mjs');
const RUNS = 15;
const GOAL_S = 0.3;

function best(args: string[]): number {
  let low = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
    const s = Number(process.hrtime.bigint() - t) / 1e9;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    low = Math.min(low, s);
  }
  return low;
}

const floor = best(['-e', '0']);
console.log(`start-up, best of ${RUNS} (goal: at most ${GOAL_S} s)`);
console.log(`  ${'node -e 0'.padEnd(28)} ${floor.toFixed(3)} s`);
for (const [name, args] of [
  ['ctxconform --help', ['--help']],
  ['ctxconform list', ['list']],
  ['ctxconform validate', ['validate']],
  ['ctxconform run (cases only)', ['run', '--properties', '0', '--quiet']],
] as const) {
  const s = best([CLI, ...args]);
  const goal = name === 'ctxconform --help' || name === 'ctxconform list' ? (s <= GOAL_S ? '  met' : '  NOT met') : '';
  console.log(`  ${name.padEnd(28)} ${s.toFixed(3)} s  ${(s / floor).toFixed(1)}x node -e 0${goal}`);
}
