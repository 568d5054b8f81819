/**
 * `ctxconform shadow` as a vendor runs it, in front of a real upstream
 * process with a planted defect (test/fixtures/shadow/defective-server.ts):
 * a concurrent load loop bounded in count and time gets every answer
 * byte-identical to the upstream's; /metrics, read as Prometheus text,
 * counts the disagreements by requirement; SIGTERM writes the replay-shaped
 * report and exits with the verdict; the kept records reproduce the same
 * failures through `ctxconform replay`, which saves them as cases; and a
 * second shadow with the first one's report as its baseline counts the same
 * failures as known and passes.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../protocol/types.js';
import { ROOT, cli, cliSpawn } from '../cli.js';
import { atExpiry, loadLoop, trafficRequest } from './load.js';
import type { LoadResult } from './load.js';
import { parsePrometheus, valueAt } from './prometheus.js';
import { rawExchange, endToEndOnly } from './raw-http.js';

let dir: string;
let upstream: ChildProcess;
let upstreamUrl: string;

/** What a process wrote on stdout so far, and the first match of `re` in it within `ms`. */
function watch(p: ChildProcess): { text: () => string; line: (re: RegExp, ms?: number) => Promise<RegExpExecArray> } {
  let text = '';
  const waiting: Array<() => void> = [];
  p.stdout!.on('data', (d: Buffer) => {
    text += d.toString('utf8');
    for (const w of waiting.splice(0)) w();
  });
  const line = (re: RegExp, ms = 15_000): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line ${re} within ${ms} ms; stdout so far: ${text}`)), ms);
      const look = (): void => {
        const m = re.exec(text);
        if (!m) return void waiting.push(look);
        clearTimeout(timer);
        resolve(m);
      };
      look();
    });
  return { text: () => text, line };
}

const exited = (p: ChildProcess): Promise<number | null> => new Promise((resolve) => p.once('exit', (code) => resolve(code)));

interface ShadowRun {
  load: LoadResult;
  metrics: string;
  status: number | null;
  stdout: string;
}

/** A shadow in front of the upstream, driven by the load loop, until every sample is judged; then SIGTERM. */
async function shadowRun(args: string[], count: number): Promise<ShadowRun> {
  const p = cliSpawn(['shadow', '--upstream', upstreamUrl, '--listen', '127.0.0.1:0', '--metrics', '127.0.0.1:0', ...args]);
  const out = watch(p);
  const done = exited(p);
  try {
    const [, url] = await out.line(/listening on (http:\/\/\S+) ->/);
    const [, metricsUrl] = await out.line(/metrics on (http:\/\/\S+)\/metrics/);
    const load = await loadLoop(url!, { count, inFlight: 16, maxMs: 20_000 });
    let metrics = '';
    const t0 = performance.now();
    for (;;) {
      metrics = await (await fetch(`${metricsUrl}/metrics`)).text();
      const p = parsePrometheus(metrics);
      const judged = p.samples.filter((s) => s.name === 'ctxconform_shadow_judged_total').reduce((n, s) => n + s.value, 0);
      if (judged === load.sent || performance.now() - t0 > 20_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    p.kill('SIGTERM');
    const status = await done;
    return { load, metrics, status, stdout: out.text() };
  } finally {
    if (p.exitCode === null) p.kill('SIGKILL');
  }
}

let first: ShadowRun;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ctxconform-shadow-cli-'));
  upstream = spawn(process.execPath, [join(ROOT, 'dist/test/fixtures/shadow/defective-server.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
  upstreamUrl = (await watch(upstream).line(/(http:\/\/\S+)/))[1]!;
  first = await shadowRun(['--records', join(dir, 'records'), '--keep', '2', '--json', join(dir, 'shadow.json'), '--markdown', join(dir, 'shadow.md')], 150);
}, 180_000);

afterAll(() => {
  upstream.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('ctxconform shadow in front of a defective upstream', () => {
  const defective = (): number => [...first.load.answers.keys()].filter(atExpiry).length;

  it('passes every answer through byte for byte under concurrent load', async () => {
    expect(first.load.sent).toBeGreaterThan(30);
    for (const [i, shadowed] of first.load.answers) {
      const direct = await rawExchange(`${upstreamUrl}/assemble`, 'POST', JSON.stringify(trafficRequest(i)));
      expect(shadowed.status).toBe(direct.status);
      expect(endToEndOnly(shadowed.headers)).toEqual(endToEndOnly(direct.headers));
      expect(shadowed.body.equals(direct.body)).toBe(true);
    }
  });

  it('counts the disagreements by requirement in /metrics', () => {
    const p = parsePrometheus(first.metrics);
    expect(valueAt(p, 'ctxconform_shadow_requests_total')).toBe(first.load.sent);
    expect(valueAt(p, 'ctxconform_shadow_judged_total', { status: 'fail' })).toBe(defective());
    expect(valueAt(p, 'ctxconform_shadow_disagreements_total', { requirement: 'EXP-1', known: 'false' })).toBe(defective());
    expect(valueAt(p, 'ctxconform_shadow_dropped_samples_total')).toBe(0);
  });

  it('writes the replay-shaped report at SIGTERM and exits with the verdict', () => {
    expect(first.status).toBe(1);
    expect(first.stdout).toMatch(/SIGTERM: stopped\. \d+ requests passed through/);
    expect(first.stdout).toMatch(/\nFAIL: \d+ pass, \d+ fail/);
    // The judged exchanges counted at their level (LVL-1): the upstream declares tiered, every request judged by it.
    expect(first.stdout).toMatch(/\nlevels: any design: not run, tiered[^:]*: FAIL, validation: not run\n/);
    const report = JSON.parse(readFileSync(join(dir, 'shadow.json'), 'utf8')) as Report;
    expect(report.summary.total).toBe(first.load.sent);
    expect(report.summary.fail).toBe(defective());
    expect(report.replay?.sent_twice).toBe(false);
    expect(report.cases.every((c) => c.requirements.includes('EXP-1'))).toBe(true);
    expect(report.cases[0]!.rerun).toMatch(/^npx ctxconform replay --http \S+ \S+\.jsonl:1$/);
    expect(existsSync(join(dir, 'shadow.md'))).toBe(true);
  });

  it('keeps records that reproduce the same failures through replay, which saves them as cases', () => {
    const files = readdirSync(join(dir, 'records'));
    expect(files).toHaveLength(1);
    const file = join(dir, 'records', files[0]!);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
    const r = cli('replay', file, '--http', upstreamUrl, '--json', join(dir, 'replay.json'), '--save-counterexamples', join(dir, 'cases'), '--quiet');
    expect(r.status).toBe(1);
    const replayed = JSON.parse(readFileSync(join(dir, 'replay.json'), 'utf8')) as Report;
    expect(replayed.summary.fail).toBe(2);
    for (const c of replayed.cases) expect(c.requirements).toContain('EXP-1');
    expect(readdirSync(join(dir, 'cases')).length).toBeGreaterThan(0);
  });

  it('counts what the baseline knows as known, and passes', async () => {
    const second = await shadowRun(['--baseline', join(dir, 'shadow.json'), '--quiet'], 60);
    const p = parsePrometheus(second.metrics);
    const failing = [...second.load.answers.keys()].filter(atExpiry).length;
    expect(valueAt(p, 'ctxconform_shadow_disagreements_total', { requirement: 'EXP-1', known: 'true' })).toBe(failing);
    expect(valueAt(p, 'ctxconform_shadow_disagreements_total', { requirement: 'EXP-1', known: 'false' })).toBe(0);
    expect(second.stdout).toMatch(/PASS \(known failures only\)/);
    expect(second.status).toBe(0);
  }, 180_000);

  it('says what is wrong with its command line', () => {
    expect(cli('shadow').stderr).toMatch(/--upstream URL/);
    expect(cli('shadow', '--upstream', upstreamUrl, '--sample', '2').stderr).toMatch(/--sample needs a fraction 0\.\.1, not "2"/);
    expect(cli('shadow', '--upstream', upstreamUrl, '--listen', 'nowhere').stderr).toMatch(/--listen needs HOST:PORT/);
    expect(cli('shadow', '--upstream', 'http://127.0.0.1:1').stderr).toMatch(/cannot read the manifest of http:\/\/127\.0\.0\.1:1: .*give --manifest FILE/);
    expect(cli('shadow', '--upstream', upstreamUrl, '--keep', '3').status).toBe(2);
  });
});
