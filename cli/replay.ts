/**
 * `ctxconform replay FILE...`: requests recorded from production, each sent to
 * the implementation and judged against the reference and the invariants of
 * the properties (docs/replay.md). Exit 0 when every request passed or was
 * skipped and one at least was judged, 1 when one did not pass or none was
 * judged, 2 for a usage error, an implementation that cannot start, or files
 * with no readable request.
 */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { reportsHelp, checkBaseline, finish, implementationHelp, judgingOptions, stopSignal, withImplementation } from './drive.js';
import { writeAll, checkReportPaths } from './report-options.js';
import { parseShard } from '../running/filter.js';
import { recordedSource } from '../traffic/replay/read.js';
import { chooseImplementation, implementationFlags, loadImplementationOptions, rerunCommand, transportUsage } from './implementation.js';
import { replay } from '../traffic/replay/run.js';
import { ObservationLog, STREAM_LIMITS } from '../diagnosis/log.js';
import type { ReplayProgress } from '../traffic/replay/run.js';
import { clearLine, redrawLine, shellQuote } from '../running/console.js';
import type { Report } from '../protocol/types.js';
import { EXIT_OK, EXIT_USAGE, UsageError, intOption } from './usage.js';
import { out, err } from './output.js';
import { terminalValue } from '../report/terminal.js';

export const usage = (): string => `ctxconform replay FILE[:LINE]... [${transportUsage()}] [options]`;

const HELP = (): string => `usage: ${usage()}

FILE holds recorded requests: JSON lines (one request per line) or one JSON array,
gzip-compressed or not; - reads stdin. FILE:LINE replays the one request on that line.
Each request is judged against the reference and the invariants of the properties
(partition, budget, whole blocks, expiry, determinism): one result replay/FILE:LINE.

${implementationHelp()}

what to check:
  --once                  send each request once: no determinism check (about twice as fast)
  --shrink N              shrink at most N failing requests (default 10; 0 none)
  --max-listed N          results listed in the reports (default 1000): every result while
                          there are at most N, past that the failing ones only; all are counted
  --shard I/N             replay the I-th of N slices: the records at positions I, I+N, ...
                          counted over every FILE in order, so N machines given the same
                          files split them without overlap; ctxconform merge joins the
                          reports (docs/replay.md has a CI matrix)

${reportsHelp()}

exit status: 0 every request passed or was skipped, 1 a request failed, erred, timed out
or crashed, or every one was skipped (nothing tested), 2 usage error, an implementation that
cannot be started, or no readable request.`;

const options = () =>
  ({
    ...judgingOptions(),
    once: { type: 'boolean' },
    shrink: { type: 'string' },
    'max-listed': { type: 'string' },
    shard: { type: 'string' },
  }) as const;

/**
 * A redrawn line on a terminal, a line per tenth of each file (or per 100,000
 * requests) in a log, and the last line of each file once every result of it
 * is in; the counts are results, as the summary counts them, and a file reads
 * 100% only then (the bytes read run ahead of the requests judged).
 */
function progressPrinter(stream: NodeJS.WriteStream, interactive: boolean): { update(p: ReplayProgress): void; end(): void } {
  let last = 0;
  let lastStep = 0;
  let lastFile = '';
  let drawn = false;
  const line = (p: ReplayProgress): string => {
    const rate = p.elapsedMs > 0 ? Math.round((p.records * 1000) / p.elapsedMs) : 0;
    const share = p.size ? `${p.fileDone ? 100 : Math.min(99, Math.floor((p.bytes * 100) / p.size))}% of ` : '';
    const blank = p.blank > 0 ? `, ${p.blank.toLocaleString('en-US')} blank line${p.blank === 1 ? '' : 's'}` : '';
    return (
      `replay ${share}${basename(p.file)}: ${p.records.toLocaleString('en-US')} result${p.records === 1 ? '' : 's'}, ` +
      `${p.failing.toLocaleString('en-US')} failed${blank}, ${rate.toLocaleString('en-US')}/s`
    );
  };
  return {
    update(p) {
      if (interactive) {
        const now = performance.now();
        if (now - last < 100 && !p.fileDone) return;
        last = now;
        redrawLine(stream, line(p));
        drawn = true;
        return;
      }
      if (p.file !== lastFile) {
        lastFile = p.file;
        lastStep = 0;
      }
      // Blank lines count toward the steps: a file of nothing but newlines still shows it is being read.
      const step = p.fileDone ? 11 : p.size ? Math.min(9, Math.floor((p.bytes * 10) / p.size)) : Math.floor((p.records + p.blank) / 100_000);
      if (step > lastStep) {
        lastStep = step;
        stream.write(`${terminalValue(line(p))}\n`);
      }
    },
    end() {
      if (interactive && drawn) clearLine(stream);
    },
  };
}

/** Failures printed in full on the terminal; the reports hold them all. */
const PRINTED_FAILURES = 20;

/** Unreadable lines printed on stderr, at most this many; the rest are counted. */
const PRINTED_UNREADABLE = 20;

export async function run(argv: string[]): Promise<number> {
  await loadImplementationOptions();
  const { values, positionals } = parseArgs({ args: argv, options: options(), allowPositionals: true });
  if (values.help) {
    out(HELP());
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError('name at least one file of recorded requests (or - for stdin)');
  const sources = positionals.map(recordedSource);
  if (sources.filter((s) => s.path === '-').length > 1) throw new UsageError('stdin (-) can be read only once');
  const shrink = intOption(values, 'shrink', 10, 0);
  let shard: { index: number; total: number } | undefined;
  if (typeof values.shard === 'string') {
    shard = parseShard(values.shard);
    if (!shard) throw new UsageError(`--shard needs I/N with 1 <= I <= N, e.g. 1/4, not ${JSON.stringify(values.shard)}`);
    if (sources.some((s) => s.path === '-')) throw new UsageError('--shard splits files that every machine reads alike: not stdin (-)');
  }
  await checkBaseline(values.baseline as string | undefined);
  await checkReportPaths(
    values,
    sources.map((s) => s.path).filter((p) => p !== '-'),
  );
  const maxListed = intOption(values, 'max-listed', 1000, 1);
  const twice = !values.once;
  const chosen = await chooseImplementation(values, ['assembler']);
  const flags = [...implementationFlags(values), ...(values.once ? ['--once'] : [])];
  const interactive = Boolean(process.stderr.isTTY) && process.env['CI'] !== 'true';
  const bar = values.quiet ? undefined : progressPrinter(process.stderr, interactive);
  let unreadable = 0;
  // A replay streams: its diagnosis reads a bounded number of the results (docs/diagnosis.md).
  const observations = new ObservationLog(STREAM_LIMITS);
  return withImplementation(chosen, async (opened) => {
    let report: Report;
    try {
      report = await replay({
        ...opened,
        sources,
        twice,
        shrink,
        maxListed,
        ...(shard ? { shard } : {}),
        signal: stopSignal(),
        ...(typeof values['save-counterexamples'] === 'string' ? { saveCounterexamples: values['save-counterexamples'] } : {}),
        ...(bar ? { onProgress: (p: ReplayProgress) => bar.update(p) } : {}),
        onUnreadable: (at, why) => {
          if (unreadable++ < PRINTED_UNREADABLE) {
            bar?.end();
            err(`${terminalValue(at)}: unreadable line: ${terminalValue(why)}`);
          }
        },
        rerun: (source, line) => (source.path === '-' ? '(replayed from stdin)' : rerunCommand('replay', flags, [shellQuote(`${source.path}:${line}`)])),
        observations,
      });
    } finally {
      bar?.end();
    }
    const info = report.replay!;
    if (unreadable > PRINTED_UNREADABLE) err(`… and ${unreadable - PRINTED_UNREADABLE} more unreadable lines`);
    // A shard may hold nothing by the luck of the split, and an interrupted replay may have judged nothing yet.
    if (info.requests - info.unreadable === 0 && !shard && !stopSignal().aborted) {
      const lines = sources.filter((s) => s.line !== undefined);
      const named = lines.length === sources.length ? lines.map((s) => `line ${s.line} of ${s.label}`).join(', ') : sources.map((s) => s.label).join(', ');
      err(`ctxconform replay: no readable request in ${named}`);
      // The reports still say what was read: each unreadable line and why.
      await writeAll(report, values);
      return EXIT_USAGE;
    }
    const seconds = (report.run?.duration_ms ?? 0) / 1000;
    const files = info.files
      .map((f) => `${f.file}: ${f.requests} request${f.requests === 1 ? '' : 's'}${f.unreadable ? `, ${f.unreadable} unreadable` : ''}`)
      .join('; ');
    const { status } = await finish(report, values, {
      opened,
      what: `requests in ${seconds.toFixed(2)} s (${Math.round(info.rate_per_s).toLocaleString('en-US')} requests/s)`,
      printAtMost: PRINTED_FAILURES,
      observations,
    });
    out(
      `${files}${info.unlisted > 0 ? `; ${info.unlisted} results counted, not listed (--max-listed ${maxListed})` : ''}${twice ? '' : '; sent once (no determinism check)'}`,
    );
    return status;
  });
}
