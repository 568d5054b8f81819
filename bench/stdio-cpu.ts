/**
 * The CPU time of `ctxconform run` (the corpus and the default properties)
 * against the reference as a stdio process, split between the kit and the
 * implementation: each process reports its own at exit (cpu-report.mjs).
 * The kit's figure is its whole process, start-up included, which a CI run
 * pays; an implementation's is what its processes spend after they have
 * started, which for the fixture run here means after tsx has compiled the
 * reference (a vendor's own start-up is the vendor's).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
const REPORTER = join(here, 'bench', 'cpu-report.mjs');
const FIXTURE = join(here, 'test', 'fixtures', 'replay', 'reference-stdio.ts');

export interface StdioCpu {
  /** The kit's command, its whole process. */
  kitMs: number;
  /** Every implementation process, after its start. */
  implementationMs: number;
  /** What those processes spent starting (for the fixture, tsx compiling TypeScript). */
  implementationStartMs: number;
  processes: number;
  /** The command's summary line. */
  summary: string;
}

interface Reported {
  argv: string[];
  cpuMs: number;
  startedMs: number | null;
}

/** One `run` of the kit at `kitRoot` (built: bin/ and dist/) against the reference fixture over stdio. */
export function stdioRunCpu(kitRoot: string): StdioCpu {
  const dir = mkdtempSync(join(tmpdir(), 'ctxconform-cpu-'));
  try {
    const env = { ...process.env, CTXCONFORM_CPU_REPORT: join(dir, 'cpu'), CI: 'true' };
    const implementation = `"${process.execPath}" --import tsx --import "${REPORTER}" "${FIXTURE}"`;
    const r = spawnSync(process.execPath, ['--import', REPORTER, join(kitRoot, 'bin', 'ctxconform.mjs'), 'run', '--stdio', implementation, '--quiet'], { cwd: here, env, encoding: 'utf8' });
    const summary = r.stdout.split('\n').find((l) => /^(OK|FAILED)/.test(l)) ?? r.stdout.trim().split('\n').pop() ?? '';
    if (r.status !== 0) throw new Error(`ctxconform run --stdio exited ${r.status}: ${summary}\n${r.stderr}`);
    const reports = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Reported);
    const kit = reports.filter((x) => x.argv[0]!.endsWith('ctxconform.mjs'));
    const impls = reports.filter((x) => x.argv[0] === FIXTURE);
    if (kit.length !== 1 || impls.length === 0) throw new Error(`expected one kit process and some implementation processes, got ${JSON.stringify(reports.map((x) => x.argv[0]))}`);
    const start = (x: Reported): number => x.startedMs ?? 0;
    return {
      kitMs: kit[0]!.cpuMs,
      implementationMs: impls.reduce((s, x) => s + x.cpuMs - start(x), 0),
      implementationStartMs: impls.reduce((s, x) => s + start(x), 0),
      processes: impls.length,
      summary,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
