/**
 * Replay at scale: `replay --shard I/N` takes the records at positions I-1,
 * I-1+N, ... counted over every file in order (unreadable lines too), so N
 * machines given the same files split them without overlap, and `merge` of
 * their reports is the report of the unsharded replay: the same results, the
 * same totals, the same files read. In process and over stdio.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { mergeReports } from '../../cli/merge.js';
import { replay } from '../../traffic/replay/run.js';
import type { ReplaySource } from '../../traffic/replay/run.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { Report } from '../../protocol/types.js';
import { assemble as mutant, describe as mutantDescribe } from '../fixtures/broken/inclusive-expiry.js';
import { cliWith, ROOT } from '../cli.js';
import { fixtureCommand } from '../fixture-command.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-shard-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const at = (name: string): string => join(tmp, name);
const MUTANT = join(ROOT, 'test/fixtures/broken/inclusive-expiry.ts');
const overStdio = fixtureCommand(join(ROOT, 'test/fixtures/replay/module-stdio.ts'), MUTANT);

const request = (n: number, expiring: boolean) => ({
  now: 100,
  budget: 40 + n,
  blocks: [
    { block_id: `a${n}`, source: 'memory', content: `content number ${n}`, priority: 1 },
    // At its expiry instant: live (EXP-1 is strict), and the inclusive-expiry build drops it.
    ...(expiring ? [{ block_id: `e${n}`, source: 'knowledge', content: 'expires now', priority: 2, created_at: 40, ttl_seconds: 60 }] : []),
  ],
});
const lines = (xs: string[]): string => xs.join('\n') + '\n';
writeFileSync(
  at('a.jsonl'),
  lines([
    JSON.stringify(request(1, false)),
    JSON.stringify(request(2, true)),
    '{not json',
    JSON.stringify(request(3, false)),
    JSON.stringify(request(4, false)),
  ]),
);
writeFileSync(
  at('b.jsonl'),
  lines([JSON.stringify(request(5, true)), JSON.stringify(request(6, false)), JSON.stringify(request(7, true)), JSON.stringify(request(8, false))]),
);
const sources: ReplaySource[] = ['a.jsonl', 'b.jsonl'].map((f) => ({ path: at(f), label: f }));

const byStatus = (r: Report): string[] => r.cases.map((c) => `${c.id} ${c.status}`);

describe('replay --shard I/N, in process', () => {
  const run = (shard?: { index: number; total: number }) =>
    replay({
      sources,
      impl: fromFunctions(mutant, mutantDescribe),
      manifest: mutantDescribe(),
      timeoutMs: 10_000,
      concurrency: 2,
      twice: true,
      shrink: 10,
      maxListed: 1000,
      ...(shard ? { shard } : {}),
    });

  it('splits the records of every file by position, without overlap, and merge gives back the unsharded report', async () => {
    const whole = await run();
    expect(whole.summary).toMatchObject({ total: 9, pass: 5, fail: 3, skip: 1 });
    const shards = await Promise.all([1, 2, 3].map((index) => run({ index, total: 3 })));
    // Position k (0-based, over a.jsonl then b.jsonl) goes to shard k mod 3 + 1.
    const ids = whole.cases.map((c) => c.id);
    shards.forEach((s, i) => {
      expect(s.run?.shard).toBe(`${i + 1}/3`);
      expect(s.cases.map((c) => c.id)).toEqual(ids.filter((_, k) => k % 3 === i));
    });
    const merged = mergeReports(shards.map((report, i) => ({ file: `shard-${i + 1}.json`, report })));
    expect(byStatus(merged)).toEqual(byStatus(whole));
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.replay).toMatchObject({
      files: whole.replay!.files,
      requests: whole.replay!.requests,
      unreadable: whole.replay!.unreadable,
      shrunk: whole.replay!.shrunk,
      sent_twice: true,
    });
    expect(merged.run?.shard).toBeNull();
    const valid = validators.report();
    expect(valid(JSON.parse(JSON.stringify(merged))), formatErrors(valid.errors).join('\n')).toBe(true);
  });

  it('merge refuses a replay report with a run report, a missing shard, and shards of --once with shards without it', async () => {
    const shards = await Promise.all([1, 2].map((index) => run({ index, total: 2 })));
    const inputs = shards.map((report, i) => ({ file: `s${i + 1}.json`, report }));
    expect(() => mergeReports(inputs.slice(0, 1))).toThrow(/missing shard 2\/2/);
    const notReplay: Report = { ...shards[1]!, replay: undefined } as Report;
    delete (notReplay as { replay?: unknown }).replay;
    expect(() => mergeReports([inputs[0]!, { file: 'run.json', report: notReplay }])).toThrow(/run\.json is not a replay, s1\.json a replay/);
    const once: Report = { ...shards[1]!, replay: { ...shards[1]!.replay!, sent_twice: false } };
    expect(() => mergeReports([inputs[0]!, { file: 'once.json', report: once }])).toThrow(/sent_twice/);
  });
});

describe('replay --shard I/N over stdio, and ctxconform merge', () => {
  const cli = (...args: string[]) => cliWith({}, ...args);

  it('three machines, one recording: the merged report is the unsharded one', () => {
    const whole = cli('replay', at('a.jsonl'), at('b.jsonl'), '--stdio', overStdio, '--json', at('whole.json'), '--quiet');
    expect(whole.status).toBe(1);
    for (const i of [1, 2, 3]) {
      const r = cli('replay', at('a.jsonl'), at('b.jsonl'), '--stdio', overStdio, '--shard', `${i}/3`, '--json', at(`shard-${i}.json`), '--quiet');
      expect([0, 1]).toContain(r.status);
    }
    const merged = cli('merge', at('shard-1.json'), at('shard-2.json'), at('shard-3.json'), '-o', at('merged.json'), '--markdown', at('merged.md'));
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/^merged 3 reports: 9 requests, 5 pass, 3 fail, 0 error, 0 timeout, 0 crash, 1 skip$/m);
    const a = JSON.parse(readFileSync(at('whole.json'), 'utf8')) as Report;
    const b = JSON.parse(readFileSync(at('merged.json'), 'utf8')) as Report;
    expect(byStatus(b)).toEqual(byStatus(a));
    expect(b.summary).toEqual(a.summary);
    expect(b.replay?.files).toEqual(a.replay?.files);
  });

  it('refuses a --shard that is not I/N, and stdin, which machines cannot share', () => {
    expect(cli('replay', at('a.jsonl'), '--shard', '4/3').status).toBe(2);
    const stdin = cliWith({ input: '{}\n' }, 'replay', '-', '--shard', '1/2');
    expect(stdin.status).toBe(2);
    expect(stdin.stderr).toMatch(/not stdin/);
  });

  it('an empty shard is no "nothing tested"', () => {
    writeFileSync(at('one.jsonl'), lines([JSON.stringify(request(1, false))]));
    const r = cli('replay', at('one.jsonl'), '--shard', '2/2', '--quiet');
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^PASS: 0 pass, .* of 0 requests/m);
  });
});
