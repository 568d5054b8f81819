/**
 * One self-contained HTML file. Readable without JavaScript; the inline
 * script only adds the status and area filters. The Content-Security-Policy
 * allows nothing but this file's own style and script (by hash), so even a
 * string that escaped the escaping could not load or run anything.
 */
import { createHash } from 'node:crypto';
import type { CaseResult, RepeatAnswer, ReplayInfo, Report, Status, SweepInfo } from '../protocol/types.js';
import { STATUSES, summarize } from '../protocol/types.js';
import type { TokenTable } from '../protocol/types.js';
import { shownOf, stderrShown } from './shown.js';
import { explainsText, principlesLead, unexplainedFailures } from './diagnosis.js';
import {
  areaOf,
  byArea,
  clip,
  constantsText,
  coverage,
  formatRatio,
  percent,
  score,
  shownStatuses,
  stripAnsi,
  verdictLine,
  levelsLine,
  shownClipped,
} from './text.js';
import { declaredConstants, isFailing, profileNames, verdict } from '../protocol/verdict.js';
import { span, sweepChart, MAX_CHART_ROWS } from './sweep-chart.js';
import { sweepFinding } from './sweep-text.js';
import { diffable, sideBySide } from './textdiff.js';
import type { Piece } from './textdiff.js';
import { SCRIPT, STYLE } from './html-assets.js';

export interface HtmlOptions {
  /** The `ctxconform tokens --json` table, shown as its own section. */
  tokens?: TokenTable;
}

const MAX_VALUE = 20_000;
const MAX_MESSAGE = 400;
// Past this many failures a section keeps its message and rerun command but drops the
// diff, request and stderr, so a run with thousands of failures still opens quickly.
const MAX_DETAILED_FAILURES = 200;

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Report text as HTML text or attribute value: escaped, terminal escapes removed, control characters made visible. */
export function h(s: string): string {
  return visible(s).replace(/[&<>"']/g, (ch) => ESC[ch]!);
}

/**
 * Terminal escapes removed, control characters shown as `\uXXXX`, and lone surrogates as
 * U+FFFD: writing the file makes them U+FFFD anyway, and the script's data must hold the
 * same strings as the markup for the area filter to match.
 */
export function visible(s: string): string {
  return stripAnsi(s)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** JSON for a `<script type="application/json">` block: no `<`, `>` or `&` can end the element or open a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64');

function status(s: Status): string {
  return `<span class="st ${s}">${s}</span>`;
}

function pieces(ps: Piece[] | null): string {
  if (!ps) return '';
  return ps.map((p) => (p.changed ? `<mark>${h(p.text)}</mark>` : h(p.text))).join('');
}

/** Expected and actual side by side, differing lines shaded and differing characters marked. */
export function diffTable(expected: unknown, actual: unknown, heads: [string, string] = ['expected', 'actual']): string {
  const rows = sideBySide(clip(diffable(expected), MAX_VALUE), clip(diffable(actual), MAX_VALUE));
  const body = rows
    .map((r) =>
      r.kind === 'same'
        ? `<tr><td>${h(r.left)}</td><td>${h(r.right)}</td></tr>`
        : `<tr><td class="${r.left ? 'del' : 'gap'}">${pieces(r.left)}</td><td class="${r.right ? 'ins' : 'gap'}">${pieces(r.right)}</td></tr>`,
    )
    .join('\n');
  return `<table class="diff"><thead><tr><th>${h(heads[0])}</th><th>${h(heads[1])}</th></tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** Two of a flaky case's answers side by side, and any others below. */
function answersDiff(answers: readonly RepeatAnswer[]): string {
  const label = (a: (typeof answers)[number]): string => `${a.repeats.length > 1 ? 'repeats' : 'repeat'} ${a.repeats.join(', ')}: ${a.status}`;
  const out: string[] = [];
  const [a, b, ...rest] = answers;
  if (a && b) out.push(diffTable(a.answer ?? a.message ?? '', b.answer ?? b.message ?? '', [label(a), label(b)]));
  for (const r of rest) out.push(`<details><summary>${h(label(r))}</summary><pre>${h(shownClipped(r.answer ?? r.message ?? '', MAX_VALUE))}</pre></details>`);
  return out.join('\n');
}

/** The baseline's word on a failing case, for its row and its section. */
type Excuse = '' | 'known' | 'by design';

function failureSection(c: CaseResult, index: number, excuse: Excuse, detailed: boolean): string {
  const x = shownOf(c);
  const out: string[] = [];
  out.push(`<section class="failure ${c.status}" id="f-${index}" data-status="${c.status}" data-area="${h(areaOf(c.id))}">`);
  const label =
    excuse === 'known'
      ? ' <span class="known">known failure (baseline)</span>'
      : excuse === 'by design'
        ? ' <span class="known">deviation by design (baseline)</span>'
        : '';
  out.push(`<h3>${status(c.status)} <span class="id">${h(c.id)}</span>${label}</h3>`);
  if (c.requirements.length > 0)
    out.push(
      `<p>${c.broke && c.broke.length > 0 ? 'Tests' : 'Requirements'}: ` +
        `${c.requirements.map((r) => `<code>${h(r)}</code>`).join(', ')}` +
        `${x.since ? ` (the case holds since spec ${h(x.since)})` : ''}` +
        `${c.broke && c.broke.length > 0 ? `; broke: ${c.broke.map((r) => `<code>${h(r)}</code>`).join(', ')}` : ''}</p>`,
    );
  if (c.description) out.push(`<p class="muted">${h(c.description)}</p>`);
  if (c.message) out.push(`<pre class="message">${h(clip(c.message, MAX_VALUE))}</pre>`);
  if (c.rerun) out.push(`<p>Rerun: <code>${h(c.rerun)}</code></p>`);
  if (x.seed !== undefined) out.push(`<p>Seed <code>${x.seed}</code>${x.path ? `, path <code>${h(x.path)}</code>` : ''}</p>`);
  if (!detailed) {
    out.push('<p class="muted">Expected, actual, request and stderr of this case are in the JSON report.</p></section>');
    return out.join('\n');
  }
  if (x.answers && x.answers.length > 1) out.push(answersDiff(x.answers));
  if (x.expected !== undefined && x.actual !== undefined) out.push(diffTable(x.expected, x.actual));
  else if (x.actual !== undefined) out.push(`<p>Actual:</p><pre>${h(shownClipped(x.actual, MAX_VALUE))}</pre>`);
  else if (x.expected !== undefined) out.push(`<p>Expected:</p><pre>${h(shownClipped(x.expected, MAX_VALUE))}</pre>`);
  if (x.counterexample !== undefined)
    out.push(`<details><summary>counterexample</summary><pre>${h(shownClipped(x.counterexample, MAX_VALUE))}</pre></details>`);
  if (x.request !== undefined) out.push(`<details><summary>request</summary><pre>${h(shownClipped(x.request, MAX_VALUE))}</pre></details>`);
  const stderr = stderrShown(x);
  if (stderr) out.push(`<details><summary>stderr</summary><pre>${h(clip(stderr, MAX_VALUE))}</pre></details>`);
  out.push('</section>');
  return out.join('\n');
}

function tokensSection(t: TokenTable): string {
  const out: string[] = ['<h2 id="tokens">Estimate vs real tokens</h2>'];
  out.push(
    `<p class="muted">Ratio of the result's <code>estimated_tokens</code> (code points / 4, block contents only) ` +
      `to the real token count of the context, over ${t.rows.length} non-empty reference contexts. Information only: budgets are enforced with the estimate.</p>`,
  );
  out.push(
    '<table><thead><tr><th>encoding</th><th>contexts</th><th>median</th><th>p5</th><th>p95</th><th>median, whole context estimated</th><th>undercounts</th></tr></thead><tbody>',
  );
  for (const e of t.encodings) {
    out.push(
      `<tr><td>${h(e.encoding)}</td><td class="n">${e.contexts}</td><td class="n">${formatRatio(e.median)}</td><td ` +
        `class="n">${formatRatio(e.p5)}</td><td class="n">${formatRatio(e.p95)}</td><td class="n">${formatRatio(e.context_median)}</td><td class="n">${e.undercounts.length}</td></tr>`,
    );
  }
  out.push('</tbody></table>');
  const m = t.markers;
  if (m && m.contexts > 0) {
    out.push(`<p>Omission markers (SPEC 8.5) are not charged against the budget: ${m.markers} markers in ${m.contexts} contexts.</p>`);
    out.push('<table><thead><tr><th>encoding</th><th>real tokens per marker</th><th>share of a context, median</th><th>largest share</th></tr></thead><tbody>');
    for (const e of t.encodings) {
      const n = e.encoding;
      out.push(
        `<tr><td>${h(n)}</td><td class="n">${m.per_marker[n].toFixed(1)}</td><td class="n">${Math.round(m.share_median[n] * 100)}%</td><td class="n">${Math.round(m.share_max[n] * 100)}%</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  }
  for (const e of t.encodings) {
    if (e.undercounts.length === 0) continue;
    out.push(
      `<details><summary>${h(e.encoding)}: ${e.undercounts.length} cases where the estimate is below ${Math.round(t.threshold * 100)}% of the real count</summary>`,
    );
    out.push('<table><thead><tr><th>case</th><th>estimate</th><th>real</th><th>ratio</th></tr></thead><tbody>');
    for (const u of e.undercounts)
      out.push(
        `<tr><td class="id">${h(u.id)}</td><td class="n">${u.estimated_tokens}</td><td class="n">${u.real}</td><td class="n">${formatRatio(u.ratio)}</td></tr>`,
      );
    out.push('</tbody></table></details>');
  }
  return out.join('\n');
}

function replaySection(r: ReplayInfo): string {
  const out: string[] = ['<h2 id="replay">Replayed requests</h2>'];
  out.push(
    `<p>${r.requests.toLocaleString('en-US')} recorded requests read (${r.unreadable.toLocaleString('en-US')} ` +
      `unreadable), ${Math.round(r.rate_per_s).toLocaleString('en-US')} per second; each sent ` +
      `${r.sent_twice ? 'twice (determinism checked)' : 'once'}; ${r.shrunk} ` +
      `shrunk.${r.unlisted > 0 ? ` ${r.listed.toLocaleString('en-US')} results are listed below; ${r.unlisted.toLocaleString('en-US')} more are counted, not listed.` : ''}</p>`,
  );
  out.push('<table id="replay-files"><thead><tr><th>file</th><th>requests</th><th>unreadable</th></tr></thead><tbody>');
  for (const f of r.files) out.push(`<tr><td class="id">${h(f.file)}</td><td class="n">${f.requests}</td><td class="n">${f.unreadable}</td></tr>`);
  out.push('</tbody></table>');
  return out.join('\n');
}

function sweepSection(s: SweepInfo): string {
  const b = s.budgets;
  const out: string[] = ['<h2 id="sweep">Budget sweep</h2>'];
  out.push(
    `<p>The block set of <code>${h(s.source)}</code> at ${b.count} budgets, ${b.from} to ${b.to}${b.step > 1 ? ` in steps of ${b.step}` : ''}. ${
      b.swept !== undefined
        ? `<strong>${h(sweepFinding(s).replace(/^./, (c) => c.toUpperCase()))}.</strong>`
        : s.first_disagreement === null
          ? 'The implementation agrees with the reference at every one.'
          : `<strong>First disagreement at budget ${s.first_disagreement}</strong>; the answers differ at ${h(span(s.disagreements))}.`
    }${s.admits_all_from !== null ? ` The reference includes all it can from budget ${s.admits_all_from}.` : ''}</p>`,
  );
  out.push(`<figure id="sweep-chart">${sweepChart(s, h)}</figure>`);
  if (s.blocks.length > MAX_CHART_ROWS)
    out.push(`<p class="muted">The chart shows the first ${MAX_CHART_ROWS} of ${s.blocks.length} blocks; the table lists them all.</p>`);
  out.push('<table id="sweep-table"><thead><tr><th>block</th><th>reference includes at</th><th>implementation includes at</th></tr></thead><tbody>');
  for (const r of s.blocks) {
    const differs = span(r.reference) !== span(r.implementation);
    out.push(
      `<tr${differs ? ' class="differs"' : ''}><td ` +
        `class="id">${h(r.block_id)}</td><td>${h(span(r.reference))}</td><td>${differs ? '<strong>' : ''}${h(span(r.implementation))}${differs ? '</strong>' : ''}</td></tr>`,
    );
  }
  out.push('</tbody></table>');
  if (s.reference_errors.length > 0) out.push(`<p class="muted">The reference answers with an error (pinned_overflow) at ${h(span(s.reference_errors))}.</p>`);
  if (s.implementation_errors.length > 0) out.push(`<p class="muted">The implementation gives no result at ${h(span(s.implementation_errors))}.</p>`);
  return out.join('\n');
}

/** The likely cause of the failures (the report's `diagnosis`), under the verdict: what a vendor reads first. */
function diagnosisSection(report: Report): string {
  const causes = report.diagnosis;
  if (report.run?.likely_cause_failed) return `<h2 id="diagnosis">Likely cause</h2>\n<p>${h(report.run.likely_cause_failed)}</p>`;
  if (!causes) return '';
  const out = ['<h2 id="diagnosis">Likely cause</h2>'];
  const principles = principleTable(report);
  const lead = principlesLead(report);
  if (lead) out.push(principles);
  if (causes.length === 0) return [...out, '<p>None of the known defects reproduces the failing answers exactly (docs/diagnosis.md).</p>'].join('\n');
  out.push('<p>Known defects whose model answers exactly as the implementation did (docs/diagnosis.md), best first.</p>');
  out.push(
    '<table id="diagnosis-table"><thead><tr><th>cause</th><th>requirements</th><th>what the implementation does; what the spec says</th><th>explains</th><th>contradicts</th></tr></thead><tbody>',
  );
  for (const c of causes) {
    const alike =
      (c.alike ?? []).length > 0
        ? `<br><span class="muted">this run cannot tell it from ${c.alike!.map((id) => `<code>${h(id)}</code>`).join(', ')}</span>`
        : '';
    out.push(
      `<tr><td class="id">${c.id
        .split('+')
        .map((id) => `<code>${h(id)}</code>`)
        .join(
          ' + ',
        )}</td><td>${h(c.requirements.join(', '))}</td><td>${h(c.summary)}${alike}</td><td>${h(explainsText(c))}</td><td class="n">${c.contradicts === 0 ? 'none' : c.contradicts}</td></tr>`,
    );
  }
  out.push('</tbody></table>');
  const left = unexplainedFailures(report);
  if (left.length > 0)
    out.push(
      `<p>Not explained by these (${left.length}): ${left
        .slice(0, 50)
        .map((id) => `<code>${h(id)}</code>`)
        .join(', ')}${left.length > 50 ? ', …' : ''}</p>`,
    );
  if (!lead) out.push(principles);
  return out.join('\n');
}

/** The principles the failures break whatever the design (SPEC section 18); none read, nothing. */
function principleTable(report: Report): string {
  const broken = report.principles ?? [];
  if (broken.length === 0) return '';
  const lead = report.diagnosis && report.diagnosis.length > 0 ? 'Of the failures no known defect explains, the p' : 'P';
  const rows = broken.map((p) => `<tr><td class="id"><code>${h(p.requirement)}</code></td><td>${h(p.summary)}</td><td>${h(explainsText(p))}</td></tr>`);
  return [
    `<p>${lead}rinciples broken whatever the design (SPEC section 18):</p>`,
    '<table id="principles-table"><thead><tr><th>principle</th><th>what the answers do</th><th>explains</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
  ].join('\n');
}

export function renderHtml(report: Report, options: HtmlOptions = {}): string {
  const v = verdict(report);
  const known = new Set(v.known.map((c) => c.id));
  const designed = new Set(v.byDesign.map((c) => c.id));
  const excuse = (id: string): Excuse => (designed.has(id) ? 'by design' : known.has(id) ? 'known' : '');
  const impl = report.implementation;
  const s = report.summary;
  const shown = shownStatuses(report);
  const areas = byArea(report.cases);
  const failingIndex = new Map<CaseResult, number>();
  report.cases.forEach((c, i) => {
    if (isFailing(c)) failingIndex.set(c, i);
  });
  const data = {
    statuses: STATUSES.filter((k) => s[k] > 0).map((k) => ({ value: k, count: s[k] })),
    // The same escaping as the data-area attributes, so the script compares like with like.
    areas: [...areas].map(([a, cs]) => ({ value: visible(a), count: cs.length })),
  };

  const body: string[] = [];
  body.push(`<h1>ctxconform report: ${h(impl.name)} ${h(impl.version)}</h1>`);
  body.push(`<div class="verdict ${v.passed ? 'pass' : 'fail'}" id="verdict">${h(verdictLine(report))}</div>`);
  body.push(`<div class="levels" id="levels">Levels: ${h(levelsLine(report))}</div>`);
  if (report.diagnosis || report.run?.likely_cause_failed) body.push(diagnosisSection(report));
  const meta: Array<[string, string | undefined]> = [
    ['implementation', `${impl.name} ${impl.version}${impl.language ? ` (${impl.language})` : ''}`],
    ['profiles', profileNames(report).join(', ') || 'none'],
    ['capabilities', impl.capabilities.join(', ') || 'none'],
    ['declared constants', declaredConstants(report) && constantsText(declaredConstants(report)!)],
    ['kit', `${report.kit.name} ${report.kit.version}, spec ${report.kit.spec}`],
    ['adapter', report.run?.adapter && `${report.run.adapter}${report.run.target ? `: ${report.run.target}` : ''}`],
    ['seed', report.run?.seed?.toString()],
    ['shard', report.run?.shard ?? undefined],
    ['filter', report.run?.filter ?? undefined],
    ['cases of spec', report.run?.spec],
    ['repeat', report.run?.repeat !== undefined ? `each case sent ${report.run.repeat} times` : undefined],
    ['started', report.run?.started_at],
    ['duration', report.run?.duration_ms !== undefined ? `${(report.run.duration_ms / 1000).toFixed(1)} s` : undefined],
    [
      'baseline',
      report.baseline &&
        `${report.baseline.file}: ${report.baseline.known.length} known${v.byDesign.length > 0 ? ` (${v.byDesign.length} by design)` : ''}, ${report.baseline.stale.length} stale`,
    ],
  ];
  body.push(
    `<dl class="meta">${meta
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `<dt>${k}</dt><dd>${h(x!)}</dd>`)
      .join('')}</dl>`,
  );

  body.push('<div class="row"><div>');
  body.push('<h2 id="counts">Counts</h2>');
  body.push(
    `<table id="counts-table"><thead><tr>${shown.map((k) => `<th>${status(k)}</th>`).join('')}<th>total</th><th>score</th></tr></thead>` +
      `<tbody><tr>${shown.map((k) => `<td class="n" data-count="${k}">${s[k]}</td>`).join('')}` +
      `<td class="n">${s.total}</td><td class="n" id="score">${percent(score(report))}</td></tr></tbody></table>`,
  );

  body.push('</div><div>');
  body.push('<h2 id="areas">By area</h2>');
  const flakyColumn = shown.includes('flaky');
  body.push(
    `<table><thead><tr><th>area</th><th>cases</th><th>pass</th><th>fail</th><th>error/timeout/crash</th>${flakyColumn ? '<th>flaky</th>' : ''}<th>skip</th><th>score</th></tr></thead><tbody>`,
  );
  for (const [area, cs] of areas) {
    const k = summarize(cs);
    body.push(
      `<tr><td>${h(area)}</td><td class="n">${k.total}</td><td class="n">${k.pass}</td><td class="n">${k.fail}</td><td ` +
        `class="n">${k.error + k.timeout + k.crash}</td>${flakyColumn ? `<td class="n">${k.flaky}</td>` : ''}<td class="n">${k.skip}</td><td class="n">${percent(score({ summary: k }))}</td></tr>`,
    );
  }
  body.push('</tbody></table>');
  body.push('</div></div>');

  if (report.replay) body.push(replaySection(report.replay));
  if (report.sweep) body.push(sweepSection(report.sweep));

  if (v.stale.length > 0) {
    body.push('<h2 id="stale">Stale baseline expectations</h2>');
    body.push(`<p>These cases now pass; remove them from <code>${h(report.baseline?.file ?? 'the baseline')}</code> (the baseline may only shrink):</p>`);
    body.push(`<ul>${v.stale.map((id) => `<li><code>${h(id)}</code></li>`).join('')}</ul>`);
  }

  if (v.byDesign.length > 0) {
    // Links from a baseline are shown as text: the page links only to itself.
    const notes = report.baseline?.notes ?? {};
    body.push(`<h2 id="by-design">Deviations by design (${v.byDesign.length})</h2>`);
    body.push(`<p>The baseline <code>${h(report.baseline?.file ?? '')}</code> marks these cases as departures from the spec by design.</p>`);
    body.push('<table id="by-design-table"><thead><tr><th>case</th><th>status</th><th>reason</th><th>link</th></tr></thead><tbody>');
    for (const c of v.byDesign) {
      const n = notes[c.id];
      body.push(
        `<tr><td><a class="id" href="#f-${failingIndex.get(c)}">${h(c.id)}</a></td><td>${status(c.status)}</td><td ` +
          `class="msg">${h(n?.reason ?? '')}</td><td>${n?.link ? `<code>${h(n.link)}</code>` : ''}</td></tr>`,
      );
    }
    body.push('</tbody></table>');
  }

  body.push('<h2 id="cases">Cases</h2>');
  body.push('<div id="filters" hidden></div><p class="muted" id="shown"></p>');
  body.push('<table id="results"><thead><tr><th>status</th><th>case</th><th>requirements</th><th>message</th><th>ms</th></tr></thead><tbody>');
  report.cases.forEach((c) => {
    const i = failingIndex.get(c);
    const id = i !== undefined ? `<a class="id" href="#f-${i}">${h(c.id)}</a>` : `<span class="id">${h(c.id)}</span>`;
    const msg = c.message ? h(clip(c.message, MAX_MESSAGE)) : '';
    const word = excuse(c.id);
    body.push(
      `<tr data-status="${c.status}" ` +
        `data-area="${h(areaOf(c.id))}"><td>${status(c.status)}${word ? ` <span class="known">${word}</span>` : ''}</td><td>${id}</td><td>${h(c.requirements.join(', '))}</td><td ` +
        `class="msg">${msg}</td><td class="n">${c.duration_ms.toFixed(1)}</td></tr>`,
    );
  });
  body.push('</tbody></table>');

  const failing = report.cases.filter(isFailing);
  body.push(`<h2 id="failures">Failures (${failing.length})</h2>`);
  if (failing.length === 0) body.push('<p>None.</p>');
  failing.forEach((c, n) => {
    body.push(failureSection(c, failingIndex.get(c)!, excuse(c.id), n < MAX_DETAILED_FAILURES));
  });

  body.push('<h2 id="coverage">Requirement coverage</h2>');
  body.push('<p class="muted">Each SPEC requirement id with the cases that test it, coloured by their status in this run.</p>');
  body.push('<table id="coverage-matrix"><thead><tr><th>requirement</th><th>pass</th><th>of</th><th>cases</th></tr></thead><tbody>');
  for (const [req, cs] of coverage(report.cases)) {
    const chips = cs
      .map((c) => {
        const i = failingIndex.get(c);
        const inner = h(c.id);
        return i !== undefined
          ? `<a class="chip ${c.status}" href="#f-${i}" title="${c.status}">${inner}</a>`
          : `<span class="chip ${c.status}" title="${c.status}">${inner}</span>`;
      })
      .join(' ');
    body.push(
      `<tr><td><code>${h(req)}</code></td><td class="n">${cs.filter((c) => c.status === 'pass').length}</td><td class="n">${cs.length}</td><td>${chips}</td></tr>`,
    );
  }
  body.push('</tbody></table>');

  if (options.tokens) body.push(tokensSection(options.tokens));

  body.push(`<p class="muted">Generated by ${h(report.kit.name)} ${h(report.kit.version)} from the JSON report.</p>`);

  return htmlPage({
    title: `ctxconform: ${h(impl.name)} ${h(impl.version)}: ${v.passed ? 'PASS' : 'FAIL'}`,
    style: STYLE,
    script: SCRIPT,
    dataId: 'report-data',
    data,
    body,
  });
}

/**
 * A self-contained page: the policy allows its own inline style and script
 * (by hash) and nothing else, the script's data in a JSON block. `title` and
 * `body` are markup already escaped.
 */
export function htmlPage(p: { title: string; style: string; script: string; dataId: string; data: unknown; body: readonly string[] }): string {
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${sha256(p.style)}'`,
    `script-src 'sha256-${sha256(p.script)}'`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${p.title}</title>`,
    `<style>${p.style}</style>`,
    '</head>',
    '<body>',
    ...p.body,
    `<script type="application/json" id="${p.dataId}">${scriptJson(p.data)}</script>`,
    `<script>${p.script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
