/**
 * Issue 36, items 2 and 4, played as the attacker: hostile case folders,
 * recorded traffic that expands without end, and places where a file the run
 * writes cannot go or is redirected. Each run is the command line as a child
 * process, held to the bounds docs/running.md states ("Limits"): it ends
 * within TIME_BOUND_MS, its peak resident memory stays under PEAK_BOUND_MIB,
 * it says what it refused, naming the file, and every report it can write is
 * written.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledFixture } from '../fixture-command.js';
import { ROOT } from '../cli.js';
import { measuredCli } from '../peak-rss.js';
import type { MeasuredRun } from '../peak-rss.js';

const TIME_BOUND_MS = 30_000;
const PEAK_BOUND_MIB = 256;

const tmp = mkdtempSync(join(tmpdir(), 'ctxc-hostile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const GOOD = `description: A good case that the reference passes.
requirements: [EXP-1]
profile: tiered
since: v1
tags: [fixture]
request:
  now: 1000
  budget: 100
  blocks:
    - { block_id: b-1, source: coverage, content: hello, priority: 1 }
expect:
  included: [b-1]
`;

/** A cases folder holding one good case, and whatever the attacker adds to it. */
function casesWith(name: string, plant: (dir: string) => void): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'a'), { recursive: true });
  writeFileSync(join(dir, 'a', 'good.yaml'), GOOD);
  plant(join(dir, 'a'));
  return dir;
}

/** The run ended by itself, within the bounds. */
function withinBounds(r: MeasuredRun): void {
  expect(r.signal, `killed after ${TIME_BOUND_MS} ms:\n${r.stderr.slice(-2000)}`).toBeNull();
  expect(r.ms).toBeLessThan(TIME_BOUND_MS);
  expect(r.peakMiB).toBeDefined();
  expect(r.peakMiB!).toBeLessThan(PEAK_BOUND_MIB);
  expect(r.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack trace
}

const validate = (dir: string): Promise<MeasuredRun> => measuredCli(['validate', '--cases', dir], { timeoutMs: TIME_BOUND_MS + 10_000 });

describe('a hostile cases folder is refused, naming the file, in bounded time and memory', () => {
  it('a case file over 512 KiB (a 50 MB string) is refused before it is parsed', async () => {
    const dir = casesWith('big', (a) => writeFileSync(join(a, 'huge.yaml'), `description: "${'x'.repeat(50 * 1024 * 1024)}"\n`));
    const r = await validate(dir);
    withinBounds(r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'a', 'huge.yaml')}:1:1: 52,428,816 bytes: a case file holds at most 524,288 bytes (512 KiB)`);
    expect(r.stderr).toContain('1 problem in');
  });

  it('a case file that is a symbolic link to /dev/zero is refused without reading it', async () => {
    const dir = casesWith('zero', (a) => symlinkSync('/dev/zero', join(a, 'zero.yaml')));
    const r = await validate(dir);
    withinBounds(r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'a', 'zero.yaml')}:1:1: a symbolic link out of the cases folder (to /dev/zero): refused`);
  });

  it('a FIFO named like a case is refused without opening it (no writer would ever come)', async () => {
    const dir = casesWith('fifo', (a) => execFileSync('mkfifo', [join(a, 'pipe.yaml')]));
    const r = await validate(dir);
    withinBounds(r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'a', 'pipe.yaml')}:1:1: a FIFO, not a regular file: refused`);
  });

  it('a link to a link inside the folder that ends at /dev/zero is refused by where it ends', async () => {
    const dir = casesWith('device', (a) => {
      symlinkSync('/dev/zero', join(a, '..', 'dev-zero'));
      symlinkSync('../dev-zero', join(a, 'inner.yaml'));
    });
    const r = await validate(dir);
    withinBounds(r);
    // The link's own target is inside the folder, but where it finally leads is not.
    expect(r.stderr).toContain(`${join(dir, 'a', 'inner.yaml')}:1:1: a symbolic link out of the cases folder (to ../dev-zero)`);
  });

  it('one mapping of about 55,000 keys (500 KB, under the size limit) is refused at the mapping, its keys checked in linear time', async () => {
    let text = 'description: many keys\nrequest:\n';
    for (let i = 0; text.length < 500_000; i++) text += `  k${i}: 1\n`;
    const keys = text.split('\n').length - 3;
    const dir = casesWith('keys', (a) => writeFileSync(join(a, 'keys.yaml'), text));
    const r = await validate(dir);
    withinBounds(r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      `${join(dir, 'a', 'keys.yaml')}:3:3: a mapping of ${keys.toLocaleString('en-US')} keys: a case file's mapping holds at most 10,000`,
    );
  });

  it('a broken symbolic link is a problem of its file, not a crash', async () => {
    const dir = casesWith('dangling', (a) => symlinkSync('/nowhere/at/all.yaml', join(a, 'gone.yaml')));
    const r = await validate(dir);
    withinBounds(r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'a', 'gone.yaml')}:1:1: a broken symbolic link (to /nowhere/at/all.yaml): no file there to read`);
  });

  it('run --cases refuses the same folder with the same line (exit 2), before any implementation is started', async () => {
    const dir = casesWith('run-zero', (a) => symlinkSync('/dev/zero', join(a, 'zero.yaml')));
    const r = await measuredCli(['run', '--cases', dir, '--json', join(dir, 'r.json')], { timeoutMs: TIME_BOUND_MS + 10_000 });
    withinBounds(r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'a', 'zero.yaml')}:1:1: a symbolic link out of the cases folder (to /dev/zero)`);
  });
});

const NULL_IS_ABSENT = (): string => compiledFixture(join(ROOT, 'test/fixtures/replay/null-is-absent.ts'));
/** A request the null-is-absent build answers and must refuse (VAL-5): a failure to shrink and save. */
const FAILING = JSON.stringify({
  now: 10,
  budget: 50,
  blocks: [
    { block_id: 'a', source: 'memory', content: 'content of a', priority: 1, confidence: null },
    { block_id: 'b', source: 'memory', content: 'content of b', priority: 1 },
  ],
});

describe('recorded traffic that expands without end', () => {
  it('a 10 MB gzip of newlines (10 GiB of blank lines) after one request: counted with progress, the file ended at the stated cap, the report written', async () => {
    const dir = join(tmp, 'bomb');
    mkdirSync(dir);
    const file = join(dir, 'traffic.jsonl.gz');
    const member = gzipSync(Buffer.alloc(64 << 20, 0x0a), { level: 9 });
    const fd = openSync(file, 'w');
    writeSync(fd, gzipSync(`${JSON.stringify({ now: 1, budget: 10, blocks: [] })}\n`));
    for (let i = 0; i < 160; i++) writeSync(fd, member);
    closeSync(fd);
    const json = join(dir, 'report.json');
    const r = await measuredCli(['replay', file, '--json', json], { timeoutMs: TIME_BOUND_MS + 10_000 });
    withinBounds(r);
    // The rest of the file was not read: nothing failed, and the verdict says it speaks only for what was read (PROTO-10).
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/\nINCOMPLETE \(1 record of the input could not be read: the verdict speaks only for what was read\): 1 pass, 0 fail/);
    expect(r.stderr).toMatch(/: 2 results, 0 failed, 1,000,002 blank lines/);
    expect(r.stderr).toContain(
      "traffic.jsonl.gz:1000003: unreadable line: 1,000,002 blank lines, 1,000,000 more than the file's other lines: the rest of the file is not read",
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      summary: { pass: number; skip: number };
      cases: Array<{ id: string; status: string; message?: string }>;
    };
    expect(report.summary).toMatchObject({ pass: 1, skip: 1 });
    expect(report.cases.find((c) => c.status === 'skip')?.message).toMatch(/the rest of the file is not read/);
  });
});

describe('input the run could not read is never a PASS (SPEC PROTO-10)', () => {
  it('a gzip archive cut short: the requests before the cut judged, the rest named, INCOMPLETE and exit status 3', async () => {
    const dir = join(tmp, 'cut');
    mkdirSync(dir);
    const file = join(dir, 'traffic.jsonl.gz');
    // Contents that do not compress away, so half the archive holds whole requests and a cut one.
    const lines = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({
        now: 1,
        budget: 40,
        blocks: [{ block_id: `b${i}`, source: 'notes', content: `${i} ${'abcdefgh'.repeat(8)}${(i * 7919).toString(36)}`, priority: 1 }],
      }),
    );
    const whole = gzipSync(`${lines.join('\n')}\n`);
    writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
    const json = join(dir, 'report.json');
    const r = await measuredCli(['replay', file, '--json', json], { timeoutMs: TIME_BOUND_MS + 10_000 });
    withinBounds(r);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/traffic\.jsonl\.gz:\d+: unreadable line: the rest of the file could not be read: unexpected end of file/);
    expect(r.stdout).toMatch(/\nINCOMPLETE \(1 record of the input could not be read[^)]*\): \d+ pass, 0 fail/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { replay: { unreadable: number }; summary: { pass: number } };
    expect(report.replay.unreadable).toBe(1);
    expect(report.summary.pass).toBeGreaterThan(0);
  });

  it('a case file that is not UTF-8 is refused, naming the file, its line and column, and the byte offset', async () => {
    const dir = casesWith('latin1', (a) =>
      writeFileSync(join(a, 'latin1.yaml'), Buffer.from('description: caf\xe9 au lait\nrequirements: [EXP-1]\n', 'latin1')),
    );
    const r = await validate(dir);
    withinBounds(r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'a', 'latin1.yaml')}:1:17: not UTF-8: the bytes from offset 16 (0xe9 ...) are no UTF-8 character`);
  });

  it('two reports on one file (--json F.json beside --badge F.svg) are refused before anything runs', async () => {
    const r = await measuredCli(['run', '--json', join(tmp, 'F.json'), '--badge', join(tmp, 'F.svg')], { timeoutMs: TIME_BOUND_MS });
    withinBounds(r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`cannot write the reports: ${join(tmp, 'F.json')} would be written by both --json and --badge`);
    expect(r.stdout).not.toMatch(/pass, \d+ fail/);
    expect(existsSync(join(tmp, 'F.json'))).toBe(false);
  });
});

describe('a file the run writes that cannot be written, or would be redirected', () => {
  const traffic = (dir: string, name: string): string => {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, name);
    writeFileSync(file, `${FAILING}\n`);
    return file;
  };

  it('a 245-character traffic file name: the counterexample is saved under a name cut to fit, and the report is written', async () => {
    const dir = join(tmp, 'long');
    const file = traffic(dir, `${'t'.repeat(241)}.txt`);
    const saved = join(dir, 'saved');
    const r = await measuredCli(['replay', file, '--module', NULL_IS_ABSENT(), '--save-counterexamples', saved, '--json', join(dir, 'r.json')], {
      timeoutMs: TIME_BOUND_MS + 10_000,
    });
    withinBounds(r);
    expect(r.status).toBe(1);
    const names = readdirSync(saved);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^replay-t+-[0-9a-f]{8}\.yaml$/);
    expect(names[0]!.length).toBeLessThanOrEqual(125);
    expect(r.stdout).toContain(`saved as ${join(saved, names[0]!)}`);
    expect(existsSync(join(dir, 'r.json'))).toBe(true);
  });

  it('replay: --save-counterexamples under a regular file is a line naming the file and the reason, and every report is written', async () => {
    const dir = join(tmp, 'notdir');
    const file = traffic(dir, 'short.jsonl');
    writeFileSync(join(dir, 'afile'), 'x');
    const r = await measuredCli(
      [
        'replay',
        file,
        '--module',
        NULL_IS_ABSENT(),
        '--save-counterexamples',
        join(dir, 'afile', 'sub'),
        '--json',
        join(dir, 'r.json'),
        '--junit',
        join(dir, 'j.xml'),
      ],
      { timeoutMs: TIME_BOUND_MS + 10_000 },
    );
    withinBounds(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`not saved as a case: cannot write ${join(dir, 'afile', 'sub', 'replay-short-1.yaml')}: a part of its folder`);
    expect(r.stdout).toMatch(/ENOTDIR|EEXIST/);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as { cases: Array<{ message?: string }> };
    expect(report.cases[0]!.message).toContain('not saved as a case: cannot write');
    expect(existsSync(join(dir, 'j.xml'))).toBe(true);
  });

  it('run: a property counterexample that cannot be saved is the same line, and the reports are written', async () => {
    const dir = join(tmp, 'run-notdir');
    mkdirSync(dir);
    writeFileSync(join(dir, 'afile'), 'x');
    const r = await measuredCli(
      [
        'run',
        '--module',
        compiledFixture(join(ROOT, 'test/fixtures/broken/ceil-estimate.ts')),
        '--cases',
        'none',
        '--save-counterexamples',
        join(dir, 'afile', 'sub'),
        '--json',
        join(dir, 'r.json'),
      ],
      { timeoutMs: TIME_BOUND_MS + 10_000 },
    );
    withinBounds(r);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(
        `not saved as a case: cannot write ${join(dir, 'afile', 'sub').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[a-z0-9-]+\\.yaml: a part of its folder`,
      ),
    );
    expect(existsSync(join(dir, 'r.json'))).toBe(true);
  });

  it('a symbolic link planted in the counterexample folder is refused, naming it, and what it points at is untouched', async () => {
    const dir = join(tmp, 'planted');
    const file = traffic(dir, 'short.jsonl');
    const outside = join(dir, 'outside.yaml');
    writeFileSync(outside, 'SECRET\n');
    mkdirSync(join(dir, 'saved'));
    symlinkSync(outside, join(dir, 'saved', 'replay-short-1.yaml'));
    const r = await measuredCli(['replay', file, '--module', NULL_IS_ABSENT(), '--save-counterexamples', join(dir, 'saved'), '--json', join(dir, 'r.json')], {
      timeoutMs: TIME_BOUND_MS + 10_000,
    });
    withinBounds(r);
    expect(r.stdout).toContain(`not saved as a case: cannot write ${join(dir, 'saved', 'replay-short-1.yaml')}: it is a symbolic link: refused`);
    expect(readFileSync(outside, 'utf8')).toBe('SECRET\n');
    expect(existsSync(join(dir, 'r.json'))).toBe(true);
  });

  // Known before the run (SPEC PROTO-10): refused then, so nothing runs that cannot be reported. A folder that turns into a file
  // during the run is an error line of that report alone, every other report written (test/limits/write-file.test.ts).
  it('a report that cannot be written (its folder is a file) is refused before the run, exit 2, naming it', async () => {
    const dir = join(tmp, 'report-notdir');
    mkdirSync(dir);
    writeFileSync(join(dir, 'afile'), 'x');
    const r = await measuredCli(
      ['run', '--cases', 'none', '--properties', '5', '--json', join(dir, 'afile', 'r.json'), '--junit', join(dir, 'j.xml'), '--markdown', join(dir, 'r.md')],
      { timeoutMs: TIME_BOUND_MS + 10_000 },
    );
    withinBounds(r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`cannot write the reports: ${join(dir, 'afile')} is a file, so ${join(dir, 'afile', 'r.json')} cannot be written under it`);
    expect(r.stdout).not.toMatch(/PASS|FAIL/);
    expect(existsSync(join(dir, 'j.xml'))).toBe(false);
    expect(readFileSync(join(dir, 'afile'), 'utf8')).toBe('x');
  });

  it('a symbolic link planted at a report path is refused, naming it; the file it points at is untouched', async () => {
    const dir = join(tmp, 'report-planted');
    mkdirSync(dir);
    const outside = join(dir, 'victim.txt');
    writeFileSync(outside, 'SECRET\n');
    symlinkSync(outside, join(dir, 'r.json'));
    const r = await measuredCli(['run', '--cases', 'none', '--properties', '5', '--json', join(dir, 'r.json'), '--junit', join(dir, 'j.xml')], {
      timeoutMs: TIME_BOUND_MS + 10_000,
    });
    withinBounds(r);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`ctxconform: cannot write ${join(dir, 'r.json')}: it is a symbolic link: refused`);
    expect(readFileSync(outside, 'utf8')).toBe('SECRET\n');
    expect(existsSync(join(dir, 'j.xml'))).toBe(true);
  });
});
