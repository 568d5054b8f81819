/**
 * The recorded-request reader: JSON lines and JSON arrays, gzip told by its
 * bytes, line numbers that point at the record, negative zero kept, and every
 * unreadable line reported with its line while reading goes on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { readRecorded } from '../../traffic/replay/read.js';
import type { Recorded } from '../../traffic/replay/read.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-read-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
async function read(content: string | Buffer, maxRecordBytes?: number): Promise<Recorded[]> {
  const file = join(tmp, `f${n++}`);
  writeFileSync(file, content);
  const out: Recorded[] = [];
  for await (const r of readRecorded(file, maxRecordBytes !== undefined ? { maxRecordBytes } : {})) out.push(r);
  return out;
}

describe('JSON lines', () => {
  it('one request per line, blank lines skipped, CRLF and a missing last newline accepted, lines counted from 1', async () => {
    const out = await read('\uFEFF{"a":1}\r\n\n   \n[1,2]\r\n"text"\n{"b":2}');
    expect(out).toEqual([
      { line: 1, request: { a: 1 } },
      { line: 4, request: [1, 2] },
      { line: 5, request: 'text' },
      { line: 6, request: { b: 2 } },
    ]);
  });

  it('keeps a recorded -0.0 a negative zero (NUM-5 reaches the implementation)', async () => {
    const [r] = await read('{"priority":-0.0,"now":-0}\n');
    const req = (r as { request: { priority: number; now: number } }).request;
    expect(Object.is(req.priority, -0)).toBe(true);
    expect(Object.is(req.now, -0)).toBe(true);
  });

  it('reports a line that is not JSON, not UTF-8 or too long with its line, and reads on', async () => {
    const bad = Buffer.concat([
      Buffer.from('{"a":1}\n{oops}\n'),
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0a]),
      Buffer.from(`{"long":"${'x'.repeat(100)}"}\n{"z":3}\n`),
    ]);
    const out = await read(bad, 64);
    expect(out.map((r) => ('request' in r ? ['ok', r.line] : [r.unreadable.replace(/:.*/, ''), r.line]))).toEqual([
      ['ok', 1],
      ['not JSON', 2],
      ['not UTF-8 text', 3],
      ['longer than 64 bytes', 4],
      ['ok', 5],
    ]);
  });

  it('a line longer than the limit split over many chunks is skipped to its end', async () => {
    const long = `{"x":"${'y'.repeat(3 * 1024 * 1024)}"}`;
    const out = await read(`${long}\n{"after":1}\n`, 1024 * 1024);
    expect(out).toEqual([
      { line: 1, unreadable: `longer than ${1024 * 1024} bytes` },
      { line: 2, request: { after: 1 } },
    ]);
  });
});

describe('gzip', () => {
  it('is recognized by its magic bytes, whatever the name', async () => {
    const out = await read(gzipSync('{"a":1}\n{"b":2}\n'));
    expect(out).toEqual([
      { line: 1, request: { a: 1 } },
      { line: 2, request: { b: 2 } },
    ]);
  });

  it('a cut gzip stream ends with an unreadable record at the line it stopped on', async () => {
    const whole = gzipSync(Array.from({ length: 2000 }, (_, i) => `{"n":${i},"pad":"${'p'.repeat(i % 50)}"}`).join('\n'));
    const out = await read(whole.subarray(0, Math.floor(whole.length / 2)));
    const last = out[out.length - 1]!;
    expect(last).toMatchObject({ unreadable: expect.stringMatching(/could not be read: unexpected end of file/) });
    expect(out.slice(0, -1).every((r, i) => 'request' in r && r.line === i + 1)).toBe(true);
    expect(last.line).toBe(out.length);
  });
});

describe('a JSON array', () => {
  it('yields each element with the line it starts on, strings with brackets and escapes included', async () => {
    const out = await read('[\n  {"a":"]},{\\"","b":[1,{"c":[]}]},\n  42, "x]y" ,true,null,\n  {"d":-0.0}\n]\n');
    expect(out).toEqual([
      { line: 2, request: { a: ']},{"', b: [1, { c: [] }] } },
      { line: 3, request: 42 },
      { line: 3, request: 'x]y' },
      { line: 3, request: true },
      { line: 3, request: null },
      { line: 4, request: { d: -0 } },
    ]);
    expect(Object.is((out[5] as { request: { d: number } }).request.d, -0)).toBe(true);
  });

  it('a malformed element is unreadable and the next one is read', async () => {
    const out = await read('[{"a":1},\n{bad},\n{"c":3}]');
    expect(out.map((r) => ('request' in r ? r.request : `line ${r.line}: ${r.unreadable.slice(0, 8)}`))).toEqual([{ a: 1 }, 'line 2: not JSON', { c: 3 }]);
  });

  it('an unclosed array and text after the array are reported', async () => {
    expect((await read('[{"a":1},')).pop()).toEqual({ line: 1, unreadable: 'the array is not closed with ]' });
    expect((await read('[{"a":1},{"b":')).pop()).toEqual({ line: 1, unreadable: 'the array ends inside this element' });
    expect((await read('[{"a":1}]\n{"b":2}')).pop()).toEqual({ line: 2, unreadable: 'text after the closing ] of the array' });
  });

  it('works on an array of gzip-compressed requests too', async () => {
    const out = await read(gzipSync(JSON.stringify([{ a: 1 }, { b: 2 }])));
    expect(out.map((r) => 'request' in r && r.request)).toEqual([{ a: 1 }, { b: 2 }]);
  });
});

describe('blank lines', () => {
  async function readCounting(content: string, maxExtraBlankLines: number): Promise<{ out: Recorded[]; counts: number[] }> {
    const file = join(tmp, `b${n++}`);
    writeFileSync(file, content);
    const out: Recorded[] = [];
    const counts: number[] = [];
    for await (const r of readRecorded(file, { maxExtraBlankLines, onBlank: (c) => counts.push(c) })) out.push(r);
    return { out, counts };
  }

  it('are counted (whitespace-only lines too) and reported at the end of the file', async () => {
    const { out, counts } = await readCounting('{"a":1}\n\n  \t\r\n\n{"b":2}\n', 10);
    expect(out).toEqual([
      { line: 1, request: { a: 1 } },
      { line: 5, request: { b: 2 } },
    ]);
    expect(counts.at(-1)).toBe(3);
  });

  it('past the stated excess over the other lines, end the file with an unreadable record that says so', async () => {
    const { out, counts } = await readCounting(`{"a":1}\n${'\n'.repeat(50)}{"b":2}\n`, 5);
    // One other line allows 1 + 5 blank lines: the seventh, on line 8, ends the reading.
    expect(out).toEqual([
      { line: 1, request: { a: 1 } },
      { line: 8, unreadable: "7 blank lines, 5 more than the file's other lines: the rest of the file is not read" },
    ]);
    expect(counts.at(-1)).toBe(7);
  });

  it('a blank line after every request never comes near the cap', async () => {
    const { out } = await readCounting('{"a":1}\n\n'.repeat(100), 5);
    expect(out).toHaveLength(100);
    expect(out.every((r) => 'request' in r)).toBe(true);
  });

  it('between the elements of a JSON array, the same: each newline outside an element counts, and the record is on the line reading stopped at', async () => {
    const { out } = await readCounting(`[{"a":1},${'\n'.repeat(50)}{"b":2}]`, 5);
    expect(out).toEqual([
      { line: 1, request: { a: 1 } },
      { line: 8, unreadable: "7 blank lines, 5 more than the file's other lines: the rest of the file is not read" },
    ]);
  });
});
