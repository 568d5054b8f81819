/**
 * `ctxconform scrub IN OUT`: a copy of recorded requests that is safe to share
 * (traffic/scrub.ts says what is replaced and why the answers are
 * kept). OUT is JSON lines, one request per line in input order, gzip when its
 * name ends in `.gz`. Exit 0 when every request was copied, 1 when an
 * unreadable line was left out, 2 for a usage error.
 */
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { encodeRequest } from '../adapters/wire.js';
import { recordedSource } from '../traffic/replay/read.js';
import { readRecorded } from '../traffic/replay/read.js';
import { scrubRequest } from '../traffic/scrub.js';
import { EXIT_OK, UsageError } from './usage.js';
import { stopSignal } from './interrupt.js';
import { out, err } from './output.js';

export const usage = 'ctxconform scrub IN OUT';

const HELP = `usage: ${usage}

Copies recorded requests (IN: JSON lines or one JSON array, gzip or not; - for stdin)
to OUT (JSON lines; gzip when OUT ends in .gz; - for stdout) with nothing of their text
left: every content becomes filler of the same code-point length (each character
replaced by one of the same UTF-8 length, so astral characters stay astral), every
block id an opaque id that keeps code-point order and uniqueness, every source that
maps to no tier an opaque name in the same place in code-point order, and every
other string filler. Numbers are kept. The reference answers the copy with the same
selection, reasons and order as the original, modulo the renaming (docs/replay.md).

exit status: 0 every request copied, 1 unreadable lines left out (each named on
stderr as FILE:LINE), 2 usage error, 130 or 143 ended by SIGINT or SIGTERM (OUT is then
not written).`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  if (values.help) {
    out(HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 2) throw new UsageError(`needs IN and OUT, not ${positionals.length} argument${positionals.length === 1 ? '' : 's'}`);
  const [inArg, dest] = positionals as [string, string];
  const source = recordedSource(inArg);
  if (source.line !== undefined) throw new UsageError(`scrub copies whole files; ${inArg} names one line`);
  if (dest !== '-' && source.path !== '-' && resolve(dest) === resolve(source.path))
    throw new UsageError('OUT must not be IN: the copy is written beside, never over, the recording');

  let copied = 0;
  let dropped = 0;
  const signal = stopSignal();
  async function* lines(): AsyncGenerator<string> {
    for await (const rec of readRecorded(source.path)) {
      if (signal.aborted) throw new Error(`interrupted (${String(signal.reason)})`);
      const where = `${source.label}:${rec.line}`;
      if ('unreadable' in rec) {
        dropped++;
        err(`${where}: left out, unreadable: ${rec.unreadable}`);
        continue;
      }
      const encoded = encodeRequest(scrubRequest(rec.request).request);
      if (!encoded.ok) {
        dropped++;
        err(`${where}: left out: ${encoded.reason}`);
        continue;
      }
      copied++;
      yield encoded.json + '\n';
    }
  }
  // Written beside OUT and renamed at the end: an interrupted scrub leaves no half copy under OUT's name.
  const tmp = dest === '-' ? undefined : `${dest}.partial-${process.pid}`;
  const sink = tmp === undefined ? process.stdout : createWriteStream(tmp);
  try {
    if (dest.endsWith('.gz')) await pipeline(Readable.from(lines()), createGzip(), sink);
    else await pipeline(Readable.from(lines()), sink);
    if (tmp !== undefined) renameSync(tmp, dest);
  } catch (e) {
    if (tmp !== undefined) rmSync(tmp, { force: true });
    // Interrupted: no half copy is left, and the command ends with the signal's status (cli/main.ts).
    if (signal.aborted) {
      err(
        `ctxconform scrub: ${String(signal.reason)}: stopped after ${copied} request${copied === 1 ? '' : 's'}; ${dest === '-' ? 'the copy on stdout is incomplete' : `${dest} not written`}`,
      );
      return EXIT_OK;
    }
    throw new UsageError(`cannot write ${dest}: ${(e as Error).message}`);
  }
  err(
    `scrubbed ${copied} request${copied === 1 ? '' : 's'} from ${source.label} into ${dest}${dropped > 0 ? `; ${dropped} line${dropped === 1 ? '' : 's'} left out` : ''}`,
  );
  return dropped > 0 ? 1 : EXIT_OK;
}
