/**
 * Report paths that cannot be written as asked are refused before the run starts (SPEC
 * PROTO-10): a folder where a report file goes, a file where the reports' folder goes, and a
 * file the same command reads (the recorded traffic of a replay, the baseline), which a report
 * would otherwise write over. Nothing runs, and the input is as it was.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../cli.js';

const dir = mkdtempSync(join(tmpdir(), 'ctxconform-report-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string): string => join(dir, name);

describe('report paths refused before the run', () => {
  it('a file given as the reports folder', () => {
    writeFileSync(at('not-a-folder'), 'mine\n');
    const r = cli('run', '--reports-dir', at('not-a-folder'), '--properties', '0');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${at('not-a-folder')} is a file, so ${join(at('not-a-folder'), 'ctxconform.json')} cannot be written under it`);
    expect(r.stdout).not.toMatch(/progress|PASS|FAIL/);
    expect(readFileSync(at('not-a-folder'), 'utf8')).toBe('mine\n');
  });

  it('a folder given as a report file', () => {
    mkdirSync(at('a-folder'));
    const r = cli('run', '--json', at('a-folder'), '--properties', '0');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${at('a-folder')} is a folder: --json names the file to write`);
  });

  it('the recorded traffic a replay reads, or the baseline a run compares with', () => {
    const traffic = '{"request": {"now": 0, "budget": 10, "blocks": []}}\n';
    writeFileSync(at('in.jsonl'), traffic);
    const r = cli('replay', at('in.jsonl'), '--json', at('in.jsonl'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${at('in.jsonl')} is an input of this command`);
    expect(readFileSync(at('in.jsonl'), 'utf8')).toBe(traffic);
    writeFileSync(at('baseline.json'), '{}\n');
    const b = cli('run', '--baseline', at('baseline.json'), '--markdown', at('baseline.json'), '--properties', '0');
    expect(b.status).toBe(2);
    expect(b.stderr).toContain('is an input of this command');
    expect(readFileSync(at('baseline.json'), 'utf8')).toBe('{}\n');
  });
});
