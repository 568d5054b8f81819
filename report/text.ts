/**
 * Text helpers every writer shares. Strings in a report come from cases and
 * from implementations under test, so each writer treats them as hostile.
 */
import { DECLARED_PROFILE, declaredConstants, levelsReached, verdict, verdictWord } from '../protocol/verdict.js';
import { FAILING, STATUSES } from '../protocol/types.js';
import type { CaseResult, Report, Status } from '../protocol/types.js';
import type { DeclaredConstants, Tier } from '../protocol/assembly.js';
import { stringifyJson, writeJson } from '../protocol/deep-json.js';

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), and two-character escapes.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;

/** Remove terminal colour and cursor escapes (stderr of a vendor's process often holds them). */
export function stripAnsi(s: string): string {
  return s.replace(ANSI, '');
}

/** JSON for a human: strings as they are, anything else pretty-printed; `undefined` is empty. */
export function show(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return stringifyJson(value, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Longer than this, a value's text is written only up to the cut (what `clip(show(value))` would show of it). */
const WHOLE_UP_TO = 1 << 16;

/**
 * What `clip(show(value), max)` gives, without writing more of a long value than is shown: an
 * answer 600 KB long (or nested 300,000 deep) in each of a run's failures is written up to the
 * cut, not whole. A value shorter than 64 KB is shown exactly as before.
 */
export function shownClipped(value: unknown, max: number): string {
  if (value === undefined || typeof value === 'string') return clip(show(value), max);
  let head: string | undefined;
  try {
    head = writeJson(value, { indent: 2, indentDepth: 64, limit: Math.max(max, WHOLE_UP_TO) + 1 });
  } catch {
    return clip(show(value), max);
  }
  if (head === undefined || head.length <= Math.max(max, WHOLE_UP_TO)) return clip(show(value), max);
  return `${head.slice(0, max)}… (more than ${head.length - max} more characters)`;
}

/** Cut a string to at most `max` code units, saying how much was cut. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  // Do not split a surrogate pair at the cut.
  let end = max;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}… (${s.length - end} more characters)`;
}

/** The case area: the first path segment of the id (`expiry/boundary` -> `expiry`). */
export function areaOf(id: string): string {
  const i = id.indexOf('/');
  return i < 0 ? id : id.slice(0, i);
}

/** Cases grouped by area, areas in sorted order, cases in report order. */
export function byArea(cases: readonly CaseResult[]): Map<string, CaseResult[]> {
  const groups = new Map<string, CaseResult[]>();
  for (const c of cases) {
    const a = areaOf(c.id);
    const list = groups.get(a);
    if (list) list.push(c);
    else groups.set(a, [c]);
  }
  return new Map([...groups].sort(([a], [b]) => compareIds(a, b)));
}

/** Ids and requirement ids in a stable order: by code unit, numbers in ids compared as numbers. */
export function compareIds(a: string, b: string): number {
  const pa = a.split(/(\d+)/);
  const pb = b.split(/(\d+)/);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]!;
    const y = pb[i]!;
    if (x === y) continue;
    if (i % 2 === 1) return Number(x) - Number(y) || (x < y ? -1 : 1);
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

/**
 * The statuses a table shows: `flaky` only when the run repeated its cases
 * (or a merged one did), since without `--repeat` flakiness was not tested and
 * a `flaky 0` would claim it was.
 */
export function shownStatuses(report: Pick<Report, 'summary' | 'run'>): Status[] {
  const repeated = (report.run?.repeat ?? 1) > 1 || (report.summary.flaky ?? 0) > 0;
  return STATUSES.filter((k) => k !== 'flaky' || repeated);
}

/**
 * pass / (total - skip), or undefined when nothing ran. Shown rounded down, so
 * 99.6% reads 99% and only a full pass reads 100%.
 */
export function score(report: Pick<Report, 'summary'>): number | undefined {
  const ran = report.summary.total - report.summary.skip;
  return ran > 0 ? report.summary.pass / ran : undefined;
}

/** The whole percentage shown for a ratio, rounded down (the epsilon keeps 0.29 * 100 = 28.999... at 29). */
export function wholePercent(ratio: number): number {
  return Math.floor(ratio * 100 + 1e-9);
}

export function percent(ratio: number | undefined): string {
  return ratio === undefined ? 'n/a' : `${wholePercent(ratio)}%`;
}

/** A token ratio as the tables show it: three decimals, `n/a` for the NaN of an empty table. */
export function formatRatio(x: number): string {
  return Number.isFinite(x) ? x.toFixed(3) : 'n/a';
}

const TIER_NAMES: readonly Tier[] = ['working', 'episodic', 'longterm', 'knowledge'];

/** `chars_per_token 3; tier_fractions 50/20/20/10 (working/episodic/longterm/knowledge); source_to_tier notes -> knowledge`. */
export function constantsText(c: DeclaredConstants): string {
  const parts: string[] = [];
  if (c.chars_per_token !== undefined) parts.push(`chars_per_token ${c.chars_per_token}`);
  if (c.tier_fractions !== undefined) parts.push(`tier_fractions ${TIER_NAMES.map((t) => c.tier_fractions![t]).join('/')} (${TIER_NAMES.join('/')})`);
  const map = Object.entries(c.source_to_tier ?? {});
  if (map.length > 0) parts.push(`source_to_tier ${map.map(([s, t]) => `${JSON.stringify(s).slice(1, -1)} -> ${t}`).join(', ')}`);
  return parts.join('; ');
}

/** One line: `FAIL: 3 of 120 cases that ran did not pass (2 fail, 1 crash), 5 skipped`. */
export function verdictLine(report: Report): string {
  const v = verdict(report);
  const s = report.summary;
  const failing = [...FAILING].filter((k) => s[k] > 0);
  const bad = failing.reduce((n, k) => n + s[k], 0);
  const parts = failing.map((k) => `${s[k]} ${k}`);
  const head =
    s.total === 0
      ? 'nothing was selected'
      : s.total === s.skip
        ? `all ${s.total} selected were skipped`
        : bad === 0
          ? `all ${s.total - s.skip} cases that ran passed`
          : `${bad} of ${s.total - s.skip} cases that ran did not pass (${parts.join(', ')})`;
  const skipped = s.skip > 0 && s.total !== s.skip ? `, ${s.skip} skipped` : '';
  const designed = v.byDesign.length > 0 ? ` (${v.byDesign.length} by design)` : '';
  const base = report.baseline ? `; baseline: ${v.known.length} known${designed}, ${v.unexpected.length} unexpected, ${v.stale.length} stale` : '';
  const declared = declaredConstants(report) ? ` (${DECLARED_PROFILE})` : '';
  const cut = v.interrupted !== undefined ? `; ended by ${v.interrupted}: what was not judged before it is not in the report` : '';
  return `${verdictWord(v)}${declared}: ${head}${skipped}${base}${cut}`;
}

/** `any design: PASS, validation: not declared`: the levels a run reached, as the terminal, reports and badge name them. */
export function levelsLine(report: Report): string {
  return levelsReached(report)
    .map((l) => `${l.name}: ${l.word}${(l.not_judged ?? []).map((n) => ` (${n.name} ${n.partly ? 'judged in part' : 'not judged'}: ${n.reason})`).join('')}`)
    .join(', ');
}

/** Requirement id -> the cases naming it, ids in natural order. */
export function coverage(cases: readonly CaseResult[]): Map<string, CaseResult[]> {
  const m = new Map<string, CaseResult[]>();
  for (const c of cases) {
    for (const r of c.requirements) {
      const list = m.get(r);
      if (list) list.push(c);
      else m.set(r, [c]);
    }
  }
  return new Map([...m].sort(([a], [b]) => compareIds(a, b)));
}
