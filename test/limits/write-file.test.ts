/**
 * The one way a file the kit was asked to write is created
 * (protocol/write-file.ts): never through a symbolic link or into a FIFO
 * planted at its path, with the file and the reason when it cannot be, and
 * every other report still written when one cannot.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WriteFileError, writeFileNoFollow } from '../../protocol/write-file.js';
import { writeEachReport } from '../../report/index.js';
import { reportOf } from '../../running/envelope.js';
import { summarize } from '../../protocol/types.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxc-write-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const failure = (f: () => void): WriteFileError => {
  try {
    f();
  } catch (e) {
    if (e instanceof WriteFileError) return e;
    throw e;
  }
  throw new Error('no failure');
};

describe('writeFileNoFollow', () => {
  it('creates the folders and the file, and replaces a regular file', () => {
    const file = join(tmp, 'deep', 'er', 'r.json');
    writeFileNoFollow(file, 'one');
    writeFileNoFollow(file, 'two');
    expect(readFileSync(file, 'utf8')).toBe('two');
  });

  it('refuses a symbolic link at the path, naming it, and leaves its target as it was', () => {
    const target = join(tmp, 'target.txt');
    writeFileSync(target, 'SECRET');
    symlinkSync(target, join(tmp, 'link.yaml'));
    const e = failure(() => writeFileNoFollow(join(tmp, 'link.yaml'), 'x'));
    expect(e.message).toBe(
      `cannot write ${join(tmp, 'link.yaml')}: it is a symbolic link: refused, so that a link planted there cannot send the write elsewhere`,
    );
    expect(readFileSync(target, 'utf8')).toBe('SECRET');
  });

  it('refuses a FIFO at the path at once instead of waiting for a reader', () => {
    const fifo = join(tmp, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    expect(failure(() => writeFileNoFollow(fifo, 'x')).message).toBe(`cannot write ${fifo}: it is a FIFO with no reader (ENXIO)`);
  });

  it('names a folder on the way that is a file, and a name too long for the file system', () => {
    writeFileSync(join(tmp, 'afile'), 'x');
    expect(failure(() => writeFileNoFollow(join(tmp, 'afile', 'sub', 'r.json'), 'x')).reason).toMatch(
      /^a part of its folder .* is a file, not a folder \((ENOTDIR|EEXIST)\)$/,
    );
    expect(failure(() => writeFileNoFollow(join(tmp, `${'n'.repeat(300)}.json`), 'x')).reason).toBe(
      'the name is longer than the file system allows (ENAMETOOLONG)',
    );
  });

  it('writes to /dev/null as given: a device path is the caller’s choice, not a plant', () => {
    expect(() => writeFileNoFollow('/dev/null', 'x')).not.toThrow();
  });
});

describe('writeEachReport', () => {
  it('writes every other report when one cannot be, and returns each failure', async () => {
    const report = reportOf({
      manifest: { name: 'x', version: '1', profiles: ['tiered'], capabilities: [] },
      started: new Date(0),
      durationMs: 1,
      summary: summarize([]),
      cases: [],
    });
    mkdirSync(join(tmp, 'each'));
    writeFileSync(join(tmp, 'each', 'afile'), 'x');
    const out = await writeEachReport(report, {
      json: join(tmp, 'each', 'afile', 'r.json'),
      junit: join(tmp, 'each', 'j.xml'),
      markdown: join(tmp, 'each', 'r.md'),
    });
    expect(out.written).toEqual([join(tmp, 'each', 'j.xml'), join(tmp, 'each', 'r.md')]);
    expect(out.failed.map((f) => f.file)).toEqual([join(tmp, 'each', 'afile', 'r.json')]);
    expect(existsSync(join(tmp, 'each', 'r.md'))).toBe(true);
  });
});
