/**
 * JUnit XML: one testsuite per case area, one testcase per case. The shape
 * GitLab, Jenkins and the GitHub test-report actions all read.
 */
import { summarize } from '../protocol/types.js';
import type { CaseResult, Report } from '../protocol/types.js';
import { shownOf, stderrShown } from './shown.js';
import { byArea, clip, constantsText, levelsLine, verdictLine, shownClipped } from './text.js';
import { isFailing, profileNames, verdict } from '../protocol/verdict.js';
import { xmlAttr, xmlText } from './xml.js';
import { likelyCauseLine } from './diagnosis.js';

// Big answers (a whole context) stay readable in CI viewers and keep the file small.
const MAX_VALUE = 20_000;
const MAX_MESSAGE = 2_000;

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

function attrs(a: Record<string, string | number | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');
}

function counts(cases: readonly CaseResult[]): { tests: number; failures: number; errors: number; skipped: number; time: string } {
  const k = summarize(cases);
  const ms = cases.reduce((sum, c) => sum + c.duration_ms, 0);
  // A flaky case failed REQ-2: a failure, as `fail` is.
  return { tests: k.total, failures: k.fail + k.flaky, errors: k.error + k.timeout + k.crash, skipped: k.skip, time: seconds(ms) };
}

/** `expiry/boundary-equal` -> classname `expiry`, name `boundary-equal`; deeper ids keep their path in the classname. */
export function junitNames(id: string): { classname: string; name: string } {
  const i = id.lastIndexOf('/');
  return i < 0 ? { classname: id, name: id } : { classname: id.slice(0, i).replaceAll('/', '.'), name: id.slice(i + 1) };
}

/** How the baseline excuses a failing case: not at all, as a known bug, or as a deviation by design (with its reason). */
type Excuse = { kind: 'none' } | { kind: 'known' } | { kind: 'by-design'; reason?: string };

function detail(c: CaseResult, excuse: Excuse): string {
  const x = shownOf(c);
  const lines: string[] = [];
  if (excuse.kind === 'known') lines.push('known failure: expected by the baseline');
  if (excuse.kind === 'by-design') lines.push(`deviation by design (baseline)${excuse.reason ? `: ${excuse.reason}` : ''}`);
  if (c.message) lines.push(c.message);
  for (const a of x.answers ?? []) {
    if (a.answer !== undefined)
      lines.push(`answer of repeat${a.repeats.length > 1 ? 's' : ''} ${a.repeats.join(', ')} (${a.status}):\n${shownClipped(a.answer, MAX_VALUE)}`);
  }
  if (c.requirements.length > 0) lines.push(`requirements: ${c.requirements.join(', ')}`);
  if (x.expected !== undefined) lines.push(`expected:\n${shownClipped(x.expected, MAX_VALUE)}`);
  if (x.actual !== undefined) lines.push(`actual:\n${shownClipped(x.actual, MAX_VALUE)}`);
  if (x.seed !== undefined) lines.push(`seed: ${x.seed}${x.path ? `, path: ${x.path}` : ''}`);
  if (x.counterexample !== undefined) lines.push(`counterexample:\n${shownClipped(x.counterexample, MAX_VALUE)}`);
  if (c.rerun) lines.push(`rerun: ${c.rerun}`);
  return lines.join('\n');
}

function testcase(c: CaseResult, excuse: Excuse): string {
  const { classname, name } = junitNames(c.id);
  const open = `    <testcase${attrs({ classname, name, time: seconds(c.duration_ms) })}`;
  const body: string[] = [];
  const prefix = excuse.kind === 'known' ? '[known failure] ' : excuse.kind === 'by-design' ? '[by design] ' : '';
  const message = clip(prefix + (c.message ?? c.status), MAX_MESSAGE);
  if (c.status === 'fail' || c.status === 'flaky') {
    body.push(`      <failure${attrs({ message, type: c.status })}>${xmlText(detail(c, excuse))}</failure>`);
  } else if (isFailing(c)) {
    body.push(`      <error${attrs({ message, type: c.status })}>${xmlText(detail(c, excuse))}</error>`);
  } else if (c.status === 'skip') {
    body.push(`      <skipped${attrs({ message: clip(c.message ?? 'skipped', MAX_MESSAGE) })}/>`);
  }
  const stderr = stderrShown(shownOf(c));
  if (stderr) body.push(`      <system-err>${xmlText(clip(stderr, MAX_VALUE))}</system-err>`);
  return body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`;
}

export function renderJunit(report: Report): string {
  const v = verdict(report);
  const knownIds = new Set(v.known.map((c) => c.id));
  const designedIds = new Set(v.byDesign.map((c) => c.id));
  const excuse = (c: CaseResult): Excuse =>
    designedIds.has(c.id)
      ? { kind: 'by-design', ...(report.baseline?.notes?.[c.id]?.reason ? { reason: report.baseline.notes[c.id]!.reason! } : {}) }
      : knownIds.has(c.id)
        ? { kind: 'known' }
        : { kind: 'none' };
  const impl = report.implementation;
  const properties: Record<string, string | undefined> = {
    // The verdict in the words of the terminal, Markdown and HTML (protocol/verdict.ts verdictWord).
    verdict: verdictLine(report),
    levels: levelsLine(report),
    likely_cause: likelyCauseLine(report),
    implementation: `${impl.name} ${impl.version}`,
    language: impl.language,
    profiles: profileNames(report).join(','),
    declared_constants: report.run?.constants && constantsText(report.run.constants),
    capabilities: impl.capabilities.join(','),
    kit: `${report.kit.name} ${report.kit.version}`,
    spec: report.kit.spec,
    adapter: report.run?.adapter,
    target: report.run?.target,
    seed: report.run?.seed?.toString(),
    shard: report.run?.shard ?? undefined,
    filter: report.run?.filter ?? undefined,
    spec_cases: report.run?.spec,
    repeat: report.run?.repeat?.toString(),
    baseline: report.baseline?.file,
    stale_baseline_ids: report.baseline && report.baseline.stale.length > 0 ? report.baseline.stale.join(',') : undefined,
    replay_requests: report.replay?.requests.toString(),
    replay_rate_per_s: report.replay?.rate_per_s.toString(),
    replay_unlisted: report.replay && report.replay.unlisted > 0 ? report.replay.unlisted.toString() : undefined,
    sweep_first_disagreement: report.sweep ? String(report.sweep.first_disagreement ?? 'none') : undefined,
  };
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `      <property${attrs({ name, value })}/>`)
    .join('\n');
  const suites: string[] = [];
  for (const [area, cases] of byArea(report.cases)) {
    const k = counts(cases);
    suites.push(
      [
        `  <testsuite${attrs({ name: area, ...k, timestamp: report.run?.started_at })}>`,
        `    <properties>\n${props}\n    </properties>`,
        ...cases.map((c) => testcase(c, excuse(c))),
        '  </testsuite>',
      ].join('\n'),
    );
  }
  // Nothing selected: a suite without cases still carries the properties, the verdict among them.
  if (suites.length === 0)
    suites.push(
      [
        `  <testsuite${attrs({ name: 'ctxconform', tests: 0, failures: 0, errors: 0, skipped: 0, time: '0.000' })}>`,
        `    <properties>\n${props}\n    </properties>`,
        '  </testsuite>',
      ].join('\n'),
    );
  // A stale expectation fails the run without any case failing: give CI viewers a failing testcase to show for it.
  if (v.stale.length > 0) {
    const file = report.baseline?.file ?? 'the baseline';
    suites.push(
      [
        `  <testsuite${attrs({ name: 'baseline', tests: v.stale.length, failures: v.stale.length, errors: 0, skipped: 0, time: '0.000' })}>`,
        ...v.stale.map(
          (id) =>
            `    <testcase${attrs({ classname: 'baseline.stale', name: id, time: '0.000' })}>\n` +
            `      <failure${attrs({ message: `stale expectation: ${id} now passes; remove it from ${file}`, type: 'stale' })}/>\n    </testcase>`,
        ),
        '  </testsuite>',
      ].join('\n'),
    );
  }
  const total = counts(report.cases);
  total.tests += v.stale.length;
  total.failures += v.stale.length;
  const name = `ctxconform ${report.kit.version}: ${impl.name} ${impl.version}`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites${attrs({ name, ...total })}>`, ...suites, '</testsuites>', ''].join('\n');
}
