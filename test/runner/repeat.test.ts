/**
 * `--repeat N` and the `flaky` status: what counts as a differing answer, how
 * N sends become one verdict, properties replaying their seed, and the runner
 * and the CLI end to end against implementations that keep state (REQ-2).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { combineCaseRuns, combinePropertyRounds } from '../../running/repeat.js';
import type { CaseRun } from '../../running/repeat.js';
import { runSuite } from '../../running/run.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { Manifest, PropertyResult, Report } from '../../protocol/types.js';
import { resultsOf } from '../../protocol/types.js';
import { assemble, isErrorAnswer } from '../../reference/index.js';
import { cli } from '../cli.js';
import { FAULT_CASES } from '../fixtures/faulty/cases.js';

const CORE: Manifest = { name: 'core', version: '1', profiles: ['tiered'], capabilities: [] };
const root = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ctxc-repeat-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (status: CaseRun['verdict']['status'], outcome: CaseRun['outcome'], ms = 1, message?: string): CaseRun => ({
  verdict: { status, ...(message ? { message } : {}) },
  outcome,
  ms,
});
const result = (value: unknown): CaseRun['outcome'] => ({ kind: 'result', value });

describe('combineCaseRuns', () => {
  it('is one of the runs when every answer is the same, with the time of all', () => {
    const c = combineCaseRuns([run('pass', result({ a: [1, 2] }), 2), run('pass', result({ a: [1, 2] }), 3), run('pass', result({ a: [1, 2] }), 4)]);
    expect(c.verdict).toEqual({ status: 'pass' });
    expect(c.ms).toBe(9);
    expect(c.answers).toBeUndefined();
    // The same wrong answer every time is a plain fail: wrong, not flaky.
    expect(combineCaseRuns([run('fail', result(1), 1, 'm'), run('fail', result(1), 1, 'm')]).verdict.status).toBe('fail');
  });

  it('is flaky with each distinct answer and the repeats that gave it', () => {
    const c = combineCaseRuns([
      run('pass', result({ n: 4 })),
      run('fail', result({ n: 5 }), 1, 'estimated_tokens: expected 4, got 5'),
      run('pass', result({ n: 4 })),
    ]);
    expect(c.verdict.status).toBe('flaky');
    expect(c.answers).toEqual([
      { repeats: [1, 3], status: 'pass', answer: { n: 4 } },
      { repeats: [2], status: 'fail', message: 'estimated_tokens: expected 4, got 5', answer: { n: 5 } },
    ]);
    expect(c.verdict.message).toBe(
      'sent 3 times gave 2 different answers (REQ-2: the answer is a pure function of the request); they differ in n:\n' +
        '  repeats 1, 3: pass: n 4\n  repeat 2: fail: n 5 (estimated_tokens: expected 4, got 5)',
    );
  });

  it('shows which members differ between the answers, not the same message three times', () => {
    // Three wrong answers whose judge's messages begin alike: what tells them apart is the members.
    const same = 'included: expected ["a"], got ["a","b"]';
    const c = combineCaseRuns([
      run('fail', result({ included: ['a', 'b'], context: 'x', estimated_tokens: 2 }), 1, same),
      run('fail', result({ included: ['a', 'b'], context: 'y', estimated_tokens: 2 }), 1, same),
      run('fail', result({ included: ['a', 'b'], context: 'z', estimated_tokens: 3 }), 1, same),
    ]);
    const lines = c.verdict.message!.split('\n');
    expect(lines[0]).toMatch(/; they differ in context, estimated_tokens:$/);
    expect(lines.slice(1)).toEqual([
      `  repeat 1: fail: context "x"; estimated_tokens 2 (${same})`,
      `  repeat 2: fail: context "y"; estimated_tokens 2 (${same})`,
      `  repeat 3: fail: context "z"; estimated_tokens 3 (${same})`,
    ]);
    expect(new Set(lines.slice(1)).size).toBe(3);
  });

  it('compares answers member for member, -0 apart from 0, and error answers with their message', () => {
    expect(combineCaseRuns([run('pass', result({ a: 1, b: 2 })), run('pass', result({ b: 2, a: 1 }))]).verdict.status).toBe('pass');
    expect(combineCaseRuns([run('pass', result({ p: 0 })), run('pass', result({ p: -0 }))]).verdict.status).toBe('flaky');
    const err = (message: string): CaseRun['outcome'] => ({
      kind: 'error',
      code: 'invalid_request',
      message,
      value: { error: { code: 'invalid_request', message } },
    });
    expect(combineCaseRuns([run('pass', err('budget < 0')), run('pass', err('budget < 0'))]).verdict.status).toBe('pass');
    expect(combineCaseRuns([run('pass', err('budget < 0')), run('pass', err('bad budget at 12:00:01'))]).verdict.status).toBe('flaky');
  });

  it('reads no answer by its kind only: two timeouts agree, a timeout and an answer do not', () => {
    const timeout = (ms: number): CaseRun => run('timeout', { kind: 'timeout', message: `no answer within ${ms} ms` }, ms, `no answer within ${ms} ms`);
    expect(combineCaseRuns([timeout(100), timeout(101)]).verdict.status).toBe('timeout');
    const mixed = combineCaseRuns([run('pass', result(1)), timeout(100)]);
    expect(mixed.verdict.status).toBe('flaky');
    expect(mixed.answers!.map((a) => [a.repeats, a.status, a.answer])).toEqual([
      [[1], 'pass', 1],
      [[2], 'timeout', undefined],
    ]);
  });
});

describe('combinePropertyRounds', () => {
  const prop = (status: PropertyResult['status'], path?: string, extra: Partial<PropertyResult> = {}): PropertyResult => ({
    id: 'property/p',
    kind: 'property',
    level: 'profile',
    status,
    requirements: ['TIER-4'],
    duration_ms: 10,
    seed: 7,
    ...(path !== undefined ? { path, message: `failed (path ${path})`, counterexample: { path } } : {}),
    ...extra,
  });

  it('keeps a property that replays the same: same status and the same first failing run, whatever the shrinking', () => {
    const [same] = combinePropertyRounds([[prop('fail', '12:0:1')], [prop('fail', '12:3')]]);
    expect(same!.status).toBe('fail');
    expect(same!.duration_ms).toBe(20);
    expect(combinePropertyRounds([[prop('pass')], [prop('pass')]])[0]!.status).toBe('pass');
  });

  it('makes flaky a property whose replays of one seed differ, blaming REQ-2, with each outcome', () => {
    const [p] = combinePropertyRounds([[prop('fail', '3:0')], [prop('pass')], [prop('fail', '9:1')]]);
    expect(p!.status).toBe('flaky');
    expect(p!.requirements).toEqual(['TIER-4', 'REQ-2']);
    expect(p!.answers!.map((a) => [a.repeats, a.status, a.answer])).toEqual([
      [[1], 'fail', { path: '3:0' }],
      [[2], 'pass', undefined],
      [[3], 'fail', { path: '9:1' }],
    ]);
    expect(p!.message).toMatch(/^replaying seed 7 3 times gave 3 different answers/);
    // Each replay by the run it first failed at: the messages of one property read alike.
    expect(p!.message!.split('\n').slice(1)).toEqual([
      '  repeat 1: fail at run 4: failed (path 3:0)',
      '  repeat 2: pass',
      '  repeat 3: fail at run 10: failed (path 9:1)',
    ]);
  });
});

/** The reference with a defect in the answers of some calls, counted from 1. */
function stateful(wrongOn: (call: number) => boolean): ReturnType<typeof fromFunctions> {
  let calls = 0;
  return fromFunctions(
    (req) => {
      calls++;
      const r = assemble(req, { capabilities: [] });
      return isErrorAnswer(r) || !wrongOn(calls) ? r : { ...r, estimated_tokens: r.estimated_tokens + 1 };
    },
    undefined,
    CORE,
  );
}

const suite = (impl: ReturnType<typeof fromFunctions>, repeat: number, more: Partial<Parameters<typeof runSuite>[0]> = {}): Promise<Report> =>
  runSuite({
    cases: FAULT_CASES,
    impl,
    manifest: CORE,
    timeoutMs: 2000,
    concurrency: 1,
    properties: 0,
    seed: 1,
    repeat,
    rerun: (id) => `again ${id}`,
    ...more,
  });

describe('runSuite --repeat', () => {
  it('sends every case N times in N rounds; a deterministic implementation is judged as without repeats', async () => {
    const sent: string[] = [];
    const impl = fromFunctions(
      (req) => {
        sent.push(JSON.stringify(req));
        return assemble(req, { capabilities: [] });
      },
      undefined,
      CORE,
    );
    const r = await suite(impl, 3);
    expect(sent).toHaveLength(18);
    // Round by round: the first six sends are the six cases, and so are the next six.
    expect(new Set(sent.slice(0, 6)).size).toBe(6);
    expect(sent.slice(6, 12)).toEqual(sent.slice(0, 6));
    expect(r.summary).toEqual({ total: 6, pass: 6, fail: 0, error: 0, timeout: 0, crash: 0, flaky: 0, skip: 0 });
    expect(r.run?.repeat).toBe(3);
    expect(resultsOf(r.cases, 'case').every((c) => c.answers === undefined)).toBe(true);
  });

  it('makes flaky the cases whose answers differ between rounds, and only those; they fail the run', async () => {
    // Wrong on sends 4, 8, 12, 16: case d (4th) in rounds 1 and 3, b and f in round 2.
    const r = await suite(
      stateful((n) => n % 4 === 0),
      3,
    );
    const status = Object.fromEntries(r.cases.map((c) => [c.id.replace(/-.*/, ''), c.status]));
    expect(status).toEqual({ 'fault/a': 'pass', 'fault/b': 'flaky', 'fault/c': 'pass', 'fault/d': 'flaky', 'fault/e': 'pass', 'fault/f': 'flaky' });
    expect(r.summary.flaky).toBe(3);
    const d = resultsOf(r.cases, 'case').find((c) => c.id.startsWith('fault/d'))!;
    expect(d.answers!.map((a) => [a.repeats, a.status])).toEqual([
      [[1, 3], 'fail'],
      [[2], 'pass'],
    ]);
    expect(d.requirements.at(-1)).toBe('REQ-2');
    expect(d.rerun).toBe(`again ${d.id}`);
    const valid = validators.report();
    expect(valid(r), formatErrors(valid.errors).join('\n')).toBe(true);
    // Without repeats the same implementation merely fails one case: the flakiness goes unseen.
    const once = await suite(
      stateful((n) => n % 4 === 0),
      1,
    );
    expect(once.cases.map((c) => c.status)).toEqual(['pass', 'pass', 'pass', 'fail', 'pass', 'pass']);
    expect(once.run?.repeat).toBeUndefined();
  });

  it('replays each property from its seed: a warm-up defect is flaky, the reference is not', async () => {
    const only = { cases: [], filter: 'property/differential', properties: 10 };
    const cold = await suite(
      stateful((n) => n <= 3),
      2,
      only,
    );
    expect(cold.cases.map((c) => [c.id, c.status])).toEqual([['property/differential', 'flaky']]);
    expect(resultsOf(cold.cases, 'property')[0]!.answers!.map((a) => [a.repeats, a.status])).toEqual([
      [[1], 'fail'],
      [[2], 'pass'],
    ]);
    const ref = await suite(
      stateful(() => false),
      2,
      only,
    );
    expect(ref.cases.map((c) => c.status)).toEqual(['pass']);
  });
});

describe('run --repeat (CLI)', () => {
  const casesDir = join(tmp, 'cases');
  for (const c of FAULT_CASES) {
    const file = join(casesDir, `${c.id}.yaml`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      stringify({ description: c.description, requirements: c.requirements, profile: c.profile, since: c.since, request: c.request, expect: c.expect }),
    );
  }

  it('exit 1 with the flaky cases, their answers and a rerun that repeats; the reports count them apart', () => {
    const json = join(tmp, 'flaky.json');
    const md = join(tmp, 'flaky.md');
    const r = cli(
      'run',
      '--module',
      join(root, 'test/fixtures/faulty/flaky.ts'),
      '--cases',
      casesDir,
      '--properties',
      '0',
      '--repeat',
      '3',
      '--json',
      json,
      '--markdown',
      md,
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^FLAKY fault\/b-\S+ +\[.*REQ-2\]$/m);
    expect(r.stdout).toMatch(/sent 3 times gave 2 different answers/);
    expect(r.stdout).toMatch(/rerun: npx ctxconform run --module \S+ --repeat 3 --cases \S+ --filter fault\/b-\S+ --properties 0/);
    expect(r.stdout).toMatch(/FAIL: 3 pass, 0 fail, 0 error, 0 timeout, 0 crash, 3 flaky, 0 skip of 6/);
    expect(r.stdout).toMatch(/^area +pass +fail +error +timeout +crash +flaky +skip +total$/m);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.summary.flaky).toBe(3);
    expect(readFileSync(md, 'utf8')).toContain('| 🎲 flaky | 3 |');
  });

  it('refuses --repeat 0', () => {
    const r = cli('run', '--cases', casesDir, '--properties', '0', '--repeat', '0');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--repeat must be an integer >= 1, not 0/);
  });
});
