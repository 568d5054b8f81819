/**
 * One timing of the replay benchmark, in a process of its own, printed as
 * JSON: the wall and CPU time of either
 *   - `floor`: the least work a replay sent twice must do: read and parse
 *     every line (the replay's own reader) and answer each request three
 *     times with the reference, once as the oracle and twice as the
 *     implementation; or
 *   - `replay`: `replay()` of the kit at KIT_ROOT (this checkout, or an older
 *     one from bench/kit-baseline.ts), against that kit's reference in
 *     process, each request sent twice, as `ctxconform replay FILE` does.
 * Both run the compiled kit (dist/, as the command does: `npm run bench`
 * builds it first), the floor this checkout's. Both first go through the
 * first WARM_UP requests untimed, so that neither is timed compiling its code
 * or its schema validators.
 *
 *   node --import tsx bench/replay-time.ts floor|replay KIT_ROOT FILE
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WARM_UP = 200;

const [what, kitRoot, file] = process.argv.slice(2) as [string, string, string];
const here = fileURLToPath(new URL('..', import.meta.url));
const compiled = async <T>(root: string, path: string): Promise<T> => (await import(pathToFileURL(join(root, 'dist', path)).href)) as T;
const { readRecorded } = await compiled<typeof import('../traffic/replay/read.js')>(here, 'traffic/replay/read.js');
const { assemble, CAPABILITIES } = await compiled<typeof import('../reference/index.js')>(here, 'reference/index.js');

async function floor(path: string): Promise<number> {
  const options = { capabilities: CAPABILITIES };
  let n = 0;
  for await (const rec of readRecorded(path)) {
    if (!('request' in rec)) continue;
    assemble(rec.request, options);
    assemble(rec.request, options);
    assemble(rec.request, options);
    n++;
  }
  return n;
}

async function replayer(root: string): Promise<(path: string) => Promise<number>> {
  const { referenceImplementation } = await compiled<typeof import('../adapters/reference.js')>(root, 'adapters/reference.js');
  // A kit from before the rooms of CONTRIBUTING.md kept the replay in conformance/replay/.
  const run = existsSync(join(root, 'dist', 'traffic/replay/run.js')) ? 'traffic/replay/run.js' : 'conformance/replay/run.js';
  const { replay } = await compiled<typeof import('../traffic/replay/run.js')>(root, run);
  const impl = referenceImplementation();
  const manifest = await impl.describe();
  return async (path) => {
    const r = await replay({ sources: [{ path, label: 'bench' }], impl, manifest, timeoutMs: 30_000, concurrency: 1, twice: true, shrink: 0, maxListed: 1000 });
    if (r.summary.pass !== r.summary.total) throw new Error(`bench replay not clean: ${JSON.stringify(r.summary)}`);
    return r.summary.total;
  };
}

/** The first `n` lines of `path` in a file of their own. */
async function head(path: string, n: number): Promise<{ path: string; dispose: () => void }> {
  const lines: string[] = [];
  for await (const rec of readRecorded(path)) {
    if ('request' in rec) lines.push(JSON.stringify(rec.request));
    if (lines.length >= n) break;
  }
  const dir = mkdtempSync(join(tmpdir(), 'ctxconform-warm-'));
  const warm = join(dir, 'warm.jsonl');
  writeFileSync(warm, lines.join('\n') + '\n');
  return { path: warm, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * CPU time of this process's main thread in ms, from /proc (Linux; in clock
 * ticks of 10 ms), or undefined: the JavaScript runs there, while the
 * process's CPU time also counts the collector's helper threads.
 */
function mainThreadMs(): number | undefined {
  const stat = `/proc/self/task/${process.pid}/stat`;
  if (!existsSync(stat)) return undefined;
  // utime and stime are fields 14 and 15, counted after the command name, which may hold spaces.
  const fields = readFileSync(stat, 'utf8')
    .slice(readFileSync(stat, 'utf8').lastIndexOf(')') + 2)
    .split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const run = what === 'floor' ? floor : await replayer(kitRoot);
const warm = await head(file, WARM_UP);
await run(warm.path);
warm.dispose();
const cpu0 = process.cpuUsage();
const main0 = mainThreadMs();
const t0 = performance.now();
const requests = await run(file);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const main1 = mainThreadMs();
console.log(
  JSON.stringify({
    what,
    requests,
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    mainThreadMs: main0 === undefined || main1 === undefined ? null : main1 - main0,
  }),
);
