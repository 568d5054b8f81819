/**
 * The CPU time of `ctxconform run` (the corpus and the default properties)
 * against the reference as a stdio process, split between the kit and the
 * implementation: each process reports its own at exit (cpu-report.mjs),
 * whole, start-up included, as a CI run pays it. The implementation is the
 * compiled reference (reference-stdio.mjs), both sides plain Node processes:
 * the test fixture runs under tsx, and its compiling TypeScript at every
 * start would be counted as the implementation's. NODE_EXTRA_CA_CERTS is
 * left out of both processes' environment unless asked for (see below).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
const REPORTER = join(here, 'bench', 'cpu-report.mjs');
const IMPLEMENTATION = join(here, 'bench', 'reference-stdio.mjs');
const FLOOR = join(here, 'bench', 'stdio-floor.mjs');

export interface StdioCpu {
  /** The kit's command, its whole process. */
  kitMs: number;
  /** Every implementation process, whole. */
  implementationMs: number;
  /** Of that, what they spent starting (Node itself and loading the reference), before their first request. */
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

/** The environment of a measured process: CI set, NODE_EXTRA_CA_CERTS left out unless asked for (see stdioRunCpu). */
function measuredEnv(extra: NodeJS.ProcessEnv, machineCertificates: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', ...extra };
  // Each Node process would read and parse this certificate bundle as it starts (about 0.1 s of CPU each on the
  // machine the numbers come from), for TLS that neither the kit nor the reference uses: a cost of the machine's
  // settings, paid once by the kit and once by every implementation process, which would flatter the kit's share.
  if (!machineCertificates) delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

const IMPLEMENTATION_COMMAND = `"${process.execPath}" --import "${REPORTER}" "${IMPLEMENTATION}"`;

/** The CPU reports in `dir`: the one process whose script is `driver`, and the implementation's. */
function reported(dir: string, driver: string, summary: string): StdioCpu {
  const reports = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Reported);
  const kit = reports.filter((x) => x.argv[0] === driver);
  const impls = reports.filter((x) => x.argv[0] === IMPLEMENTATION);
  if (kit.length !== 1 || impls.length === 0)
    throw new Error(`expected one ${driver} process and some implementation processes, got ${JSON.stringify(reports.map((x) => x.argv[0]))}`);
  const start = (x: Reported): number => x.startedMs ?? 0;
  return {
    kitMs: kit[0]!.cpuMs,
    implementationMs: impls.reduce((s, x) => s + x.cpuMs, 0),
    implementationStartMs: impls.reduce((s, x) => s + start(x), 0),
    processes: impls.length,
    summary,
  };
}

/**
 * One `run` of the kit at `kitRoot` (built: bin/ and dist/) against this checkout's compiled reference over stdio;
 * with `machineCertificates`, in the environment as it is, NODE_EXTRA_CA_CERTS included; `args` are added to the
 * command (`--properties 400`). With `recordLines`, each implementation process writes the lines it reads there
 * (stdio-floor.mjs sends them again): a recording run, whose CPU is not the measure.
 */
export function stdioRunCpu(
  kitRoot: string,
  { machineCertificates = false, args = [], recordLines }: { machineCertificates?: boolean; args?: readonly string[]; recordLines?: string } = {},
): StdioCpu {
  const dir = mkdtempSync(join(tmpdir(), 'ctxconform-cpu-'));
  try {
    const extra: NodeJS.ProcessEnv = { CTXCONFORM_CPU_REPORT: join(dir, 'cpu') };
    if (recordLines) extra.CTXCONFORM_RECORD_LINES = recordLines;
    const bin = join(kitRoot, 'bin', 'ctxconform.mjs');
    const r = spawnSync(process.execPath, ['--import', REPORTER, bin, 'run', '--stdio', IMPLEMENTATION_COMMAND, '--quiet', ...args], {
      cwd: here,
      env: measuredEnv(extra, machineCertificates),
      encoding: 'utf8',
    });
    // The closing line starts with the verdict word (protocol/verdict.ts VerdictWord).
    const summary = r.stdout.split('\n').find((l) => /^(PASS|FAIL|NOTHING TESTED|INTERRUPTED)\b/.test(l)) ?? r.stdout.trim().split('\n').pop() ?? '';
    if (r.status !== 0) throw new Error(`ctxconform run --stdio exited ${r.status}: ${summary}\n${r.stderr}`);
    return reported(dir, bin, summary);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The floor of a run over stdio: stdio-floor.mjs sends each implementation process of a recorded run the lines it
 * read (`recorded`, from stdioRunCpu's `recordLines`), to a fresh process each, as the kit would, and only parses
 * the answers: what any Node program pays to put the same requests to the same processes. Measured as the kit is.
 */
export function stdioFloorCpu(recorded: string): StdioCpu {
  const dir = mkdtempSync(join(tmpdir(), 'ctxconform-cpu-'));
  try {
    const r = spawnSync(process.execPath, ['--import', REPORTER, FLOOR, recorded, IMPLEMENTATION_COMMAND], {
      cwd: here,
      env: measuredEnv({ CTXCONFORM_CPU_REPORT: join(dir, 'cpu') }, false),
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`stdio-floor.mjs exited ${r.status}: ${r.stderr}`);
    return reported(dir, FLOOR, 'floor');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
