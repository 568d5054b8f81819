/**
 * SIGINT and SIGTERM end any command within 2 s (cli/interrupt.ts): the
 * reports hold what was judged before the signal, marked interrupted, with
 * the verdict INTERRUPTED in every format, and the exit status is 130 or 143.
 * Each command is caught waiting on an answer that never comes (stdio), so
 * without the interruption it would not end at all. In process, the engines
 * stop on their AbortSignal the same way, and keep nothing answered after it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { replay } from '../../traffic/replay/run.js';
import { shrinkRecorded } from '../../traffic/replay/shrink.js';
import { runSuite } from '../../running/run.js';
import { sweep } from '../../traffic/sweep.js';
import { EXIT_SIGINT, EXIT_SIGTERM } from '../../cli/usage.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { Report } from '../../protocol/types.js';
import { assemble, describe as referenceDescribe } from '../../reference/index.js';
import { CLI, ROOT } from '../cli.js';
import { fixtureCommand } from '../fixture-command.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-interrupt-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const at = (name: string): string => join(tmp, name);
const hanging = (marker: string): string => fixtureCommand(join(ROOT, 'test/fixtures/replay/hang-on-999.ts'), marker);

/** The promise is 2 s; the margin is for a loaded machine (the tests share two cores), not for the kit. */
const ENDS_WITHIN_MS = 6000;

interface Ended {
  status: number | null;
  stdout: string;
  stderr: string;
  afterSignalMs: number;
}

/** Start the command, wait until `ready()` (the implementation got the request it hangs on), send the signal, wait for the end. */
function interrupt(args: string[], signal: 'SIGINT' | 'SIGTERM', ready: () => boolean, o: { stdin?: string } = {}): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, CI: 'true' },
      stdio: [o.stdin !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    if (o.stdin !== undefined) child.stdin!.write(o.stdin);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
    let sent = 0;
    const giveUp = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`never ready or never ended: ${stdout}\n${stderr}`));
    }, 60_000);
    const poll = setInterval(() => {
      if (!ready()) return;
      clearInterval(poll);
      sent = performance.now();
      child.kill(signal);
    }, 50);
    child.on('exit', (status) => {
      clearInterval(poll);
      clearTimeout(giveUp);
      resolve({ status, stdout, stderr, afterSignalMs: performance.now() - sent });
    });
  });
}

const readReport = (file: string): Report => {
  const r = JSON.parse(readFileSync(file, 'utf8')) as Report;
  const valid = validators.report();
  expect(valid(r), formatErrors(valid.errors).join('\n')).toBe(true);
  return r;
};

const request = (budget: number) => ({ now: 10, budget, blocks: [{ block_id: 'a', source: 'memory', content: 'some content here', priority: 1 }] });

describe('from the command line, over stdio', () => {
  it('replay, SIGINT: the requests judged before it are in every report, the verdict is INTERRUPTED, exit 130', async () => {
    const marker = at('replay.hang');
    writeFileSync(
      at('traffic.jsonl'),
      [request(10), request(11), request(12), request(999), request(13), request(14)].map((r) => JSON.stringify(r)).join('\n') + '\n',
    );
    const r = await interrupt(
      [
        'replay',
        at('traffic.jsonl'),
        '--stdio',
        hanging(marker),
        '--concurrency',
        '1',
        '--timeout',
        '600000',
        '--json',
        at('replay.json'),
        '--markdown',
        at('replay.md'),
        '--junit',
        at('replay.xml'),
        '--html',
        at('replay.html'),
      ],
      'SIGINT',
      () => existsSync(marker),
    );
    expect(r.status, r.stdout + r.stderr).toBe(EXIT_SIGINT);
    expect(r.afterSignalMs).toBeLessThan(ENDS_WITHIN_MS);
    expect(r.stdout).toMatch(
      /^INTERRUPTED \(SIGINT: what was not judged before it is not counted\): 3 pass, 0 fail, 0 error, 0 timeout, 0 crash, 0 skip of 3 requests/m,
    );
    const report = readReport(at('replay.json'));
    expect(report.run?.interrupted).toBe('SIGINT');
    expect(report.cases.map((c) => `${c.id.replace(/^.*:/, '')} ${c.status}`)).toEqual(['1 pass', '2 pass', '3 pass']);
    expect(report.summary).toMatchObject({ total: 3, pass: 3 });
    expect(readFileSync(at('replay.md'), 'utf8')).toMatch(/\*\*INTERRUPTED: /);
    expect(readFileSync(at('replay.xml'), 'utf8')).toMatch(/<property name="verdict" value="INTERRUPTED: /);
    expect(readFileSync(at('replay.html'), 'utf8')).toMatch(/id="verdict">INTERRUPTED: /);
  }, 90_000);

  it('run, SIGTERM: the cases answered before it, exit 143; the properties not run are not in the report', async () => {
    const marker = at('run.hang');
    const dir = at('cases');
    mkdirSync(dir, { recursive: true });
    const yaml = (budget: number, included: string) =>
      `description: a case for the interruption test\nrequirements: [TIER-4]\nprofile: tiered\nsince: v1\nrequest: ${JSON.stringify(request(budget))}\nexpect:\n  included: ${included}\n`;
    writeFileSync(join(dir, 'a-first.yaml'), yaml(10, '[a]'));
    writeFileSync(join(dir, 'b-second.yaml'), yaml(2, '[]'));
    writeFileSync(join(dir, 'c-hangs.yaml'), yaml(999, '[a]'));
    const r = await interrupt(
      ['run', '--cases', dir, '--stdio', hanging(marker), '--concurrency', '1', '--timeout', '600000', '--json', at('run.json')],
      'SIGTERM',
      () => existsSync(marker),
    );
    expect(r.status, r.stdout + r.stderr).toBe(EXIT_SIGTERM);
    expect(r.afterSignalMs).toBeLessThan(ENDS_WITHIN_MS);
    const report = readReport(at('run.json'));
    expect(report.run?.interrupted).toBe('SIGTERM');
    expect(report.cases.map((c) => `${c.id} ${c.status}`)).toEqual(['a-first pass', 'b-second pass']);
    expect(r.stdout).toMatch(/^INTERRUPTED \(SIGTERM: .*\): 2 pass, 0 fail, .* of 2 in /m);
  }, 90_000);

  it('sweep, SIGINT: the budgets not asked are said so, no verdict on the sweep, exit 130', async () => {
    const marker = at('sweep.hang');
    writeFileSync(at('one.jsonl'), JSON.stringify(request(0)) + '\n');
    const r = await interrupt(
      [
        'sweep',
        '--request',
        at('one.jsonl'),
        '--budgets',
        '995..1003',
        '--stdio',
        hanging(marker),
        '--concurrency',
        '1',
        '--timeout',
        '600000',
        '--json',
        at('sweep.json'),
      ],
      'SIGINT',
      () => existsSync(marker),
    );
    expect(r.status, r.stdout + r.stderr).toBe(EXIT_SIGINT);
    expect(r.afterSignalMs).toBeLessThan(ENDS_WITHIN_MS);
    const report = readReport(at('sweep.json'));
    expect(report.cases[0]).toMatchObject({
      status: 'skip',
      message: 'swept 4 of 9 budgets before the interrupt (SIGINT): no disagreement among them; nothing is known of the other 5',
    });
  }, 90_000);

  it('scrub, SIGTERM, reading a stdin that never ends: no half copy, exit 143', async () => {
    const out = at('scrubbed.jsonl');
    // Nothing to wait for but the start: the command is reading by then.
    const start = performance.now();
    const r = await interrupt(['scrub', '-', out], 'SIGTERM', () => performance.now() - start > 2000, { stdin: JSON.stringify(request(5)) + '\n' });
    expect(r.status, r.stdout + r.stderr).toBe(EXIT_SIGTERM);
    expect(existsSync(out)).toBe(false);
  }, 90_000);
});

describe('in process: the engines stop on their AbortSignal', () => {
  /** The reference, which aborts the controller once it has answered `n` requests. */
  const abortingAfter = (n: number, controller: AbortController) => {
    let calls = 0;
    return fromFunctions(
      (r) => {
        if (++calls === n) controller.abort('SIGINT');
        return assemble(r, { capabilities: [] });
      },
      () => ({ ...referenceDescribe(), capabilities: [] }),
    );
  };
  const manifest = { ...referenceDescribe(), capabilities: [] };

  it('runSuite keeps the cases answered before the signal, no answer after it, and runs no property', async () => {
    const controller = new AbortController();
    const cases = ['a', 'b', 'c', 'd'].map((id) => ({
      id: `x/${id}`,
      file: '',
      description: 'd',
      requirements: ['TIER-4'],
      profile: 'tiered' as const,
      since: 'v1',
      capabilities: [],
      tags: [],
      request: request(10),
      expect: { included: ['a'] },
    }));
    const r = await runSuite({
      cases,
      impl: abortingAfter(3, controller),
      manifest,
      timeoutMs: 10_000,
      concurrency: 1,
      properties: 100,
      seed: 1,
      signal: controller.signal,
    });
    // The third answer came with the signal: not kept.
    expect(r.cases.map((c) => c.id)).toEqual(['x/a', 'x/b']);
  });

  it('replay keeps the requests judged before it; a shrink under way ends at its next step, the failure kept', async () => {
    const controller = new AbortController();
    const file = at('in-process.jsonl');
    // A build that miscounts (chars per token 3), so each request fails and is shrunk; the signal comes during the first shrink.
    let calls = 0;
    const miscounting = fromFunctions(
      (r) => {
        if (++calls === 6) controller.abort('SIGINT');
        const a = assemble(r, { capabilities: [] }) as { estimated_tokens?: number };
        return 'estimated_tokens' in a ? { ...a, estimated_tokens: a.estimated_tokens! + 1 } : a;
      },
      () => manifest,
    );
    writeFileSync(file, [request(10), request(11), request(12)].map((x) => JSON.stringify(x)).join('\n') + '\n');
    const r = await replay({
      sources: [{ path: file, label: 'in-process.jsonl' }],
      impl: miscounting,
      manifest,
      timeoutMs: 10_000,
      concurrency: 1,
      twice: true,
      shrink: 10,
      maxListed: 100,
      signal: controller.signal,
    });
    expect(r.cases.map((c) => `${c.id} ${c.status}`)).toEqual(['replay/in-process.jsonl:1 fail']);
    expect(r.cases[0]!.message).toMatch(/shrinking stopped interrupted \(SIGINT\), so a smaller request may exist/);
    expect(r.summary).toMatchObject({ total: 1, fail: 1 });
  });

  it('sweep asks no budget after it', async () => {
    const controller = new AbortController();
    const r = await sweep({
      request: request(0),
      source: 's',
      impl: abortingAfter(2, controller),
      manifest,
      timeoutMs: 10_000,
      concurrency: 1,
      budgets: { from: 0, to: 20, step: 1 },
      shrink: true,
      signal: controller.signal,
    });
    expect(r.cases[0]).toMatchObject({
      status: 'skip',
      message: 'swept 1 of 21 budgets before the interrupt (SIGINT): no disagreement among them; nothing is known of the other 20',
    });
  });
});

describe('shrinking keeps its budget on any size', () => {
  const big = {
    now: 1,
    budget: 100,
    blocks: Array.from({ length: 100_000 }, (_, i) => ({ block_id: `b${i}`, source: 'memory', content: 'x'.repeat(200), priority: i % 7 })),
    constraints: { must_include: ['b1'] },
  };

  it('a 100,000-block request: the budget is checked between steps, so no candidate past it is even built', async () => {
    let asked = 0;
    const s = await shrinkRecorded(
      big,
      async () => {
        asked++;
        // Each try costs a little, as an exchange does; only the request of one block still fails.
        await new Promise((r) => setTimeout(r, 5));
        return false;
      },
      { budgetMs: 300 },
    );
    expect(s.stopped).toBe('after 0.3 s');
    expect(s.request).toBe(big);
    expect(asked).toBe(s.tries);
    expect(s.tries).toBeLessThan(100);
  });

  it('stops at the tries allowed, and at once when aborted', async () => {
    const s = await shrinkRecorded(big, async () => false, { maxTries: 5 });
    expect([s.tries, s.stopped]).toEqual([5, 'after 5 tries']);
    const controller = new AbortController();
    controller.abort('SIGTERM');
    const t = await shrinkRecorded(big, async () => true, { signal: controller.signal });
    expect([t.tries, t.stopped]).toEqual([0, 'interrupted (SIGTERM)']);
  });
});
