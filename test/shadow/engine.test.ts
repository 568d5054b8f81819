/**
 * The shadow engine in process, in front of a real upstream with a planted
 * defect (test/fixtures/shadow/defective-server.ts): under a concurrent load
 * loop every answer is the upstream's, byte for byte; the judged
 * disagreements are counted by requirement in /metrics (read as Prometheus
 * text); the kept records reproduce the failures through replay; and stop
 * drains the judge into the replay-shaped report.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../adapters/http-server.js';
import { HttpImplementation } from '../../adapters/http.js';
import { replay } from '../../traffic/replay/run.js';
import { startShadow } from '../../traffic/shadow/shadow.js';
import type { RunningShadow } from '../../traffic/shadow/shadow.js';
import type { Manifest, Report } from '../../protocol/types.js';
import { levelsReached } from '../../protocol/verdict.js';
import { assemble as defectiveAssemble, defectiveServer, describe as describeDefective } from '../fixtures/shadow/defective-server.js';
import { atExpiry, loadLoop, trafficRequest } from './load.js';
import type { LoadResult } from './load.js';
import { parsePrometheus, valueAt } from './prometheus.js';
import { rawExchange, endToEndOnly } from './raw-http.js';

const manifest = describeDefective() as Manifest;
/** Whether Prometheus' promtool is on the PATH (the metrics test skips, saying so, without it). */
const promtool = spawnSync('promtool', ['--version']).status === 0;
let upstream: Server;
let upstreamUrl: string;
let shadow: RunningShadow;
let dir: string;
let load: LoadResult;
let report: Report;
let metricsText: string;
let statusHtml: string;

async function waitFor(cond: () => boolean, ms: number): Promise<void> {
  const t0 = performance.now();
  while (!cond()) {
    if (performance.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ctxconform-shadow-'));
  upstream = defectiveServer();
  upstreamUrl = await listen(upstream, 0, '127.0.0.1');
  shadow = await startShadow({
    upstream: upstreamUrl,
    listen: { host: '127.0.0.1', port: 0 },
    metrics: { host: '127.0.0.1', port: 0 },
    manifest,
    sample: 1,
    maxBodyBytes: 1 << 20,
    upstreamTimeoutMs: 5000,
    queueCapacity: 100_000,
    records: { dir: join(dir, 'records'), perKind: 3 },
    diagnoseEveryMs: 0,
  });
  load = await loadLoop(shadow.url, { count: 240, inFlight: 16, maxMs: 20_000 });
  await waitFor(() => shadow.tally.counts.total === load.sent, 20_000);
  metricsText = await (await fetch(`${shadow.metricsUrl}/metrics`)).text();
  statusHtml = await (await fetch(`${shadow.metricsUrl}/status`)).text();
  ({ report } = await shadow.stop({ ms: 2000, rerun: (k) => `ctxconform replay ${k.file}:${k.line}` }));
}, 180_000);

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('the shadow in front of a defective upstream', () => {
  const defective = (): number[] => [...load.answers.keys()].filter(atExpiry);

  it('answers every request with the upstream answer, byte for byte', async () => {
    expect(load.sent).toBeGreaterThan(30);
    for (const [i, shadowed] of load.answers) {
      const direct = await rawExchange(`${upstreamUrl}/assemble`, 'POST', JSON.stringify(trafficRequest(i)));
      expect(shadowed.status).toBe(direct.status);
      expect(endToEndOnly(shadowed.headers)).toEqual(endToEndOnly(direct.headers));
      expect(shadowed.body.equals(direct.body)).toBe(true);
    }
  });

  // Prometheus' own parser and linter (Debian's prometheus package; .ci/run installs it): the exposition parses, and every
  // name follows the naming rules (a prefix, _total counters, base units, HELP for each).
  it.skipIf(!promtool)('exposes /metrics that promtool check metrics reads without a complaint (skipped where promtool is not installed)', () => {
    const r = spawnSync('promtool', ['check', 'metrics'], { input: metricsText, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(metricsText.match(/^# TYPE (\S+)/gm)!.every((t) => t.startsWith('# TYPE ctxconform_shadow_'))).toBe(true);
  });

  it('counts the disagreements by requirement in /metrics', () => {
    const p = parsePrometheus(metricsText);
    expect(p.types.get('ctxconform_shadow_disagreements_total')).toBe('counter');
    expect(p.types.get('ctxconform_shadow_context_tokens_estimated')).toBe('histogram');
    expect(p.types.get('ctxconform_shadow_sections_omitted')).toBe('histogram');
    expect(p.types.get('ctxconform_shadow_pinned_overflow_errors_total')).toBe('counter');
    expect(valueAt(p, 'ctxconform_shadow_requests_total')).toBe(load.sent);
    expect(valueAt(p, 'ctxconform_shadow_judged_total', { status: 'pass' })).toBe(load.sent - defective().length);
    expect(valueAt(p, 'ctxconform_shadow_judged_total', { status: 'fail' })).toBe(defective().length);
    expect(valueAt(p, 'ctxconform_shadow_disagreements_total', { requirement: 'EXP-1', known: 'false' })).toBe(defective().length);
    expect(valueAt(p, 'ctxconform_shadow_dropped_samples_total')).toBe(0);
    expect(valueAt(p, 'ctxconform_shadow_context_tokens_estimated_count')).toBe(load.sent);
    expect(valueAt(p, 'ctxconform_shadow_judge_queue_bytes')).toBe(0);
    expect(valueAt(p, 'ctxconform_shadow_records_kept_total')).toBeGreaterThan(0);
  });

  it('keeps at most N scrubbed records of a kind of disagreement, and they reproduce the failure through replay', async () => {
    // One defect, one kind: one file, whose name starts with the kind's requirement ids.
    const files = readdirSync(join(dir, 'records'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/EXP-1.*\.jsonl$/);
    const file = join(dir, 'records', files[0]!);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(l).not.toMatch(/memo|alpha|beta|gamma|delta|req\d/);
    const impl = new HttpImplementation({ base: upstreamUrl, manifest });
    try {
      const replayed = await replay({
        sources: [{ path: file, label: 'EXP-1.jsonl' }],
        impl,
        manifest,
        timeoutMs: 5000,
        concurrency: 2,
        twice: true,
        shrink: 0,
        maxListed: 10,
      });
      expect(replayed.summary.fail).toBe(3);
      for (const c of replayed.cases) expect(c.requirements).toContain('EXP-1');
    } finally {
      await impl.close();
    }
  });

  it('writes the replay-shaped report of what was judged at stop', () => {
    expect(report.summary.total).toBe(load.sent);
    // Every judged exchange counted at its level, listed as a kind or not (SPEC LVL-1).
    const profile = levelsReached(report).find((l) => l.level === 'profile')!;
    expect([profile.word, profile.pass, profile.failing]).toEqual(['FAIL', load.sent - defective().length, defective().length]);
    expect(report.summary.fail).toBe(defective().length);
    expect(report.replay?.requests).toBe(load.sent);
    expect(report.cases.length).toBeGreaterThan(0);
    for (const c of report.cases) {
      expect(c.id).toMatch(/^shadow\/.*EXP-1/);
      expect(c.kind).toBe('replay');
      expect(c.rerun).toMatch(/^ctxconform replay .*EXP-1.*\.jsonl:1$/);
      expect(JSON.stringify(c)).not.toMatch(/memo|alpha|req\d/);
    }
  });

  it('shows the counts and the last disagreements on /status, scrubbed and escaped, with nothing loaded from elsewhere', () => {
    expect(statusHtml).toMatch(/<th>judged<\/th><td>\d+<\/td>/);
    expect(statusHtml).toContain('EXP-1');
    expect(statusHtml).not.toMatch(/memo|alpha|req\d/);
    expect(statusHtml).not.toMatch(/<script|<link|src=|https?:\/\/(?!127\.0\.0\.1)/);
  });
});

describe('the shadow under more traffic than its judge takes', () => {
  it('drops the samples past its queue and counts them, and the traffic gets every answer all the same', async () => {
    const server = defectiveServer();
    const url = await listen(server, 0, '127.0.0.1');
    const s = await startShadow({
      upstream: url,
      listen: { host: '127.0.0.1', port: 0 },
      manifest,
      sample: 1,
      maxBodyBytes: 200,
      upstreamTimeoutMs: 5000,
      queueCapacity: 1,
    });
    try {
      const run = await loadLoop(s.url, { count: 120, inFlight: 16, maxMs: 20_000 });
      for (const [i, a] of run.answers) expect(a.body.toString('utf8')).toBe(JSON.stringify(defectiveAssemble(trafficRequest(i))));
      const { report, drained } = await s.stop({ ms: 2000 });
      const t = s.tally;
      expect(drained).toBe(true);
      expect(t.requests).toBe(run.sent);
      // Every sampled exchange is judged, dropped, or over the 200-byte limit: none is lost from the counts.
      expect(report.summary.total + t.dropped + t.oversize).toBe(run.sent);
      expect(t.dropped).toBeGreaterThan(0);
      expect(t.oversize).toBeGreaterThan(0);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
