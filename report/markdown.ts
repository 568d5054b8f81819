/**
 * Markdown for a CI step summary ($GITHUB_STEP_SUMMARY, a GitLab MR note).
 * Every string from a case or an answer goes through `md` (inline text),
 * `cell` (table cells) or `fenced` (code blocks), so none of it can open a
 * link, an HTML tag, a table column or a code span.
 */
import type { CaseResult, ReplayInfo, Report, Status, SweepInfo } from '../protocol/types.js';
import { summarize } from '../protocol/types.js';
import { shownOf, stderrShown } from './shown.js';
import { span } from './sweep-chart.js';
import { sweepFinding } from './sweep-text.js';
import { explainsText, principlesLead, unexplainedFailures } from './diagnosis.js';
import { byArea, clip, constantsText, percent, score, shownStatuses, stripAnsi, verdictLine, levelsLine, shownClipped } from './text.js';
import { declaredConstants, isFailing, profileNames, verdict } from '../protocol/verdict.js';

// GitHub caps a step summary at 1 MiB: at most this many failures in the table and in
// full, each value cut, and fewer in full when the whole would still be too large.
const MAX_FAILURES = 50;
const MAX_TABLE_ROWS = 500;
const MAX_VALUE = 4_000;
export const MAX_SUMMARY_BYTES = 1_000_000;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Terminal escapes removed and the remaining control characters (tab and line breaks aside) shown as `\uXXXX`. */
function visible(s: string): string {
  return stripAnsi(s).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A zero-width space: breaks a pattern GitHub or GitLab would turn into a link or a mention, and shows as nothing. */
const ZWSP = '&#8203;';

/**
 * Inline user text: HTML characters as entities, the Markdown characters that
 * open emphasis, code, links, tables, strikethrough or math backslash-escaped,
 * and what GitHub and GitLab would autolink or act on broken by a zero-width
 * space: a bare URL (`https://`, `www.`), an `@mention` (which notifies the
 * person in a comment) or an e-mail address.
 */
export function md(s: string): string {
  return visible(s)
    .replace(/\r\n|\r|\n/g, ' ')
    .replace(/[&<>]/g, (ch) => ENTITIES[ch]!)
    .replace(/[\\`*_[\]|~$]/g, (ch) => `\\${ch}`)
    .replace(/@/g, `@${ZWSP}`)
    .replace(/(https?|ftp|mailto)(?=:)/gi, `$1${ZWSP}`)
    .replace(/(www)(?=\.)/gi, `$1${ZWSP}`);
}

/** User text as a paragraph: each line escaped as `md`, including a leading character that would start a heading, list or quote. */
export function paragraph(s: string): string {
  return stripAnsi(s)
    .split(/\r\n|\r|\n/)
    .map((line) => md(line).replace(/^(\s*)([#+=-]|\d+(?=[.)]))/, (_, sp: string, lead: string) => `${sp}${/^\d/.test(lead) ? lead + '\\' : '\\' + lead}`))
    .join('  \n');
}

/** A table cell: like `md`, with line breaks kept as <br>. */
export function cell(s: string): string {
  return stripAnsi(s)
    .split(/\r\n|\r|\n/)
    .map(md)
    .join('<br>');
}

/** A fenced code block that no content can close early. */
export function fenced(s: string): string {
  const body = visible(s);
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${body}\n${fence}`;
}

/**
 * An inline code span whose delimiter is longer than any backtick run inside it.
 * In a table a pipe ends the cell even inside a code span, so it is escaped there.
 */
export function code(s: string, inTable = false): string {
  let body = visible(s).replace(/\r\n|\r|\n/g, ' ');
  if (inTable) body = body.replaceAll('|', '\\|');
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const tick = '`'.repeat(longest + 1);
  const pad = body.startsWith('`') || body.endsWith('`') || body.length === 0 ? ' ' : '';
  return `${tick}${pad}${body}${pad}${tick}`;
}

const ICON: Record<Status, string> = { pass: '✅', fail: '❌', error: '💥', timeout: '⏱️', crash: '☠️', flaky: '🎲', skip: '⏭️' };

export function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function replaySection(r: ReplayInfo): string[] {
  const out = ['### Replayed requests', ''];
  out.push(
    `${r.requests} recorded requests read (${r.unreadable} unreadable), ${Math.round(r.rate_per_s)} per second, ` +
      `each sent ${r.sent_twice ? 'twice (determinism checked)' : 'once'}; ${r.shrunk} shrunk.${r.unlisted > 0 ? ` ${r.listed} results are listed; ${r.unlisted} more are counted, not listed.` : ''}`,
    '',
  );
  out.push(
    table(
      ['file', 'requests', 'unreadable'],
      r.files.map((f) => [code(f.file, true), String(f.requests), String(f.unreadable)]),
    ),
    '',
  );
  return out;
}

/** At most this many blocks in the sweep table; the JSON report has them all. */
const MAX_SWEEP_ROWS = 100;

function sweepSection(s: SweepInfo): string[] {
  const b = s.budgets;
  const out = ['### Budget sweep', ''];
  out.push(
    `The block set of ${code(s.source)} at ${b.count} budgets, ${b.from} to ${b.to}${b.step > 1 ? ` in steps of ${b.step}` : ''}: ${
      b.swept !== undefined
        ? `**${md(sweepFinding(s))}**.`
        : s.first_disagreement === null
          ? 'the implementation agrees with the reference at every one.'
          : `**first disagreement at budget ${s.first_disagreement}**; the answers differ at ${md(span(s.disagreements))}.`
    }`,
    '',
  );
  const rows = s.blocks.slice(0, MAX_SWEEP_ROWS).map((r) => {
    const differs = span(r.reference) !== span(r.implementation);
    return [code(r.block_id, true), cell(span(r.reference)), differs ? `**${cell(span(r.implementation))}**` : cell(span(r.implementation))];
  });
  out.push(table(['block', 'reference includes at', 'implementation includes at'], rows), '');
  if (s.blocks.length > MAX_SWEEP_ROWS) out.push(`…and ${s.blocks.length - MAX_SWEEP_ROWS} more blocks in the JSON and HTML reports.`, '');
  return out;
}

/** The likely cause of the failures (the report's `diagnosis`), at the top: what a vendor reads first. */
function diagnosisSection(report: Report): string[] {
  const causes = report.diagnosis;
  if (report.run?.likely_cause_failed) return ['### Likely cause', '', report.run.likely_cause_failed, ''];
  if (!causes) return [];
  const out = ['### Likely cause', ''];
  const principles = principleRows(report);
  const lead = principlesLead(report);
  if (lead) out.push(...principles);
  if (causes.length === 0) return [...out, 'None of the known defects reproduces the failing answers exactly (docs/diagnosis.md).', ''];
  out.push('Known defects whose model answers exactly as the implementation did (docs/diagnosis.md), best first:', '');
  const rows = causes.map((c) => [
    c.id
      .split('+')
      .map((id) => code(id, true))
      .join(' + '),
    cell(c.requirements.join(', ')),
    cell(c.summary),
    explainsText(c),
    c.contradicts === 0 ? 'none' : String(c.contradicts),
  ]);
  out.push(table(['cause', 'requirements', 'what the implementation does; what the spec says', 'explains', 'contradicts'], rows), '');
  const alike = causes.filter((c) => (c.alike ?? []).length > 0);
  for (const c of alike) out.push(`${code(c.id)} cannot be told apart in this run from ${c.alike!.map((id) => code(id)).join(', ')}.`, '');
  const left = unexplainedFailures(report);
  if (left.length > 0)
    out.push(
      `Not explained by these (${left.length}): ${left
        .slice(0, 20)
        .map((id) => code(id))
        .join(', ')}${left.length > 20 ? ', …' : ''}`,
      '',
    );
  if (!lead) out.push(...principles);
  return out;
}

/** The principles the failures break whatever the design (SPEC section 18), as a table; none read, nothing. */
function principleRows(report: Report): string[] {
  const broken = report.principles ?? [];
  if (broken.length === 0) return [];
  const explained = report.diagnosis && report.diagnosis.length > 0 ? 'Of the failures no known defect explains, the p' : 'P';
  const rows = broken.map((p) => [code(p.requirement), cell(p.summary), explainsText(p)]);
  return [`${explained}rinciples broken whatever the design (SPEC section 18):`, '', table(['principle', 'what the answers do', 'explains'], rows), ''];
}

function failure(c: CaseResult, known: boolean): string {
  const x = shownOf(c);
  const lines: string[] = [];
  const broke = c.broke && c.broke.length > 0 ? `; broke: ${c.broke.map(md).join(', ')}` : '';
  const reqs = c.requirements.length > 0 ? ` (${broke ? 'tests: ' : ''}${c.requirements.map(md).join(', ')}${broke})` : '';
  lines.push(`#### ${ICON[c.status]} ${code(c.id)}: ${c.status}${known ? ' (known, in the baseline)' : ''}${reqs}`);
  lines.push('');
  if (c.message) lines.push(paragraph(clip(c.message, MAX_VALUE)), '');
  // A flaky case's answers, each with the repeats that gave it: what a rerun may show.
  for (const a of x.answers ?? []) {
    if (a.answer !== undefined)
      lines.push(
        `<details><summary>${a.repeats.length > 1 ? 'repeats' : 'repeat'} ${a.repeats.join(', ')}: ${a.status}</summary>`,
        '',
        fenced(shownClipped(a.answer, MAX_VALUE)),
        '',
        '</details>',
        '',
      );
  }
  if (c.rerun) lines.push(`Rerun: ${code(c.rerun)}`, '');
  if (x.seed !== undefined) lines.push(`Seed: ${code(String(x.seed))}${x.path ? `, path: ${code(x.path)}` : ''}`, '');
  const blocks: string[] = [];
  if (x.expected !== undefined) blocks.push('Expected:', '', fenced(shownClipped(x.expected, MAX_VALUE)), '');
  if (x.actual !== undefined) blocks.push('Actual:', '', fenced(shownClipped(x.actual, MAX_VALUE)), '');
  if (x.counterexample !== undefined) blocks.push('Counterexample:', '', fenced(shownClipped(x.counterexample, MAX_VALUE)), '');
  const stderr = stderrShown(x);
  if (stderr) blocks.push('stderr:', '', fenced(clip(stderr, MAX_VALUE)), '');
  if (blocks.length > 0) lines.push('<details><summary>details</summary>', '', ...blocks, '</details>', '');
  return lines.join('\n');
}

export function renderMarkdown(report: Report): string {
  let detailed = MAX_FAILURES;
  for (;;) {
    const text = render(report, detailed);
    if (detailed === 0 || Buffer.byteLength(text, 'utf8') <= MAX_SUMMARY_BYTES) return text;
    detailed = Math.floor(detailed / 2);
  }
}

function render(report: Report, detailed: number): string {
  const v = verdict(report);
  const s = report.summary;
  const impl = report.implementation;
  const out: string[] = [];
  out.push(`## ${v.passed ? '✅' : '❌'} ctxconform: ${md(impl.name)} ${md(impl.version)}`);
  out.push('');
  out.push(`**${md(verdictLine(report))}**`);
  out.push('');
  out.push(`Levels: ${md(levelsLine(report))}`);
  out.push('');
  out.push(...diagnosisSection(report));
  const about = [
    `kit ${md(report.kit.version)}, spec ${md(report.kit.spec)}`,
    `profiles: ${profileNames(report).map(md).join(', ') || 'none'}`,
    `capabilities: ${impl.capabilities.map(md).join(', ') || 'none'}`,
  ];
  const constants = declaredConstants(report);
  if (constants) about.push(`declared constants: ${md(constantsText(constants))}`);
  if (report.run?.adapter) about.push(`adapter: ${md(report.run.adapter)}`);
  if (report.run?.seed !== undefined) about.push(`seed: ${report.run.seed}`);
  if (report.run?.shard) about.push(`shard: ${md(report.run.shard)}`);
  if (report.run?.spec) about.push(`cases of spec ${md(report.run.spec)}`);
  if (report.run?.repeat) about.push(`each case sent ${report.run.repeat} times`);
  out.push(about.join(' · '));
  out.push('');
  const shown = shownStatuses(report);
  out.push(
    table(
      ['status', 'cases'],
      [...shown.map((k) => [`${ICON[k]} ${k}`, String(s[k])]), ['**total**', `**${s.total}**`], ['**score**', `**${percent(score(report))}**`]],
    ),
  );
  out.push('');
  out.push('### By area');
  out.push('');
  const rows: string[][] = [];
  for (const [area, cases] of byArea(report.cases)) {
    const k = summarize(cases);
    const flaky = shown.includes('flaky') ? [String(k.flaky)] : [];
    rows.push([
      cell(area),
      String(k.total),
      String(k.pass),
      String(k.fail),
      String(k.error + k.timeout + k.crash),
      ...flaky,
      String(k.skip),
      percent(score({ summary: k })),
    ]);
  }
  out.push(table(['area', 'cases', 'pass', 'fail', 'error/timeout/crash', ...(shown.includes('flaky') ? ['flaky'] : []), 'skip', 'score'], rows));
  out.push('');
  if (report.replay) out.push(...replaySection(report.replay));
  if (report.sweep) out.push(...sweepSection(report.sweep));
  const clauses = report.cases.filter((c) => c.kind === 'contract');
  if (clauses.length > 0) {
    // A contract verdict is worth what tested it: each clause shows how many exchanges did (SPEC section 16).
    out.push('### Contract clauses');
    out.push('');
    // The reason without the clause id the first column already shows.
    const why = (c: CaseResult) => {
      const m = c.message ?? '';
      const lead = `${c.requirements[0]} `;
      return c.status === 'skip' ? cell(clip(m.startsWith(lead) ? m.slice(lead.length) : m, 300)) : '';
    };
    // The clause's own id: a flaky one cites REQ-2 as well.
    const rows = clauses.map((c) => [
      cell(c.requirements.filter((id) => id.startsWith('MAPI-')).join(', ')),
      code(c.id, true),
      `${ICON[c.status]} ${c.status}`,
      String(c.exchanges_tested ?? 0),
      why(c),
    ]);
    out.push(table(['clause', 'result', 'status', 'tested by (exchanges)', 'why untested'], rows));
    out.push('');
  }
  if (v.stale.length > 0) {
    out.push('### Stale baseline expectations');
    out.push('');
    out.push(`These cases now pass: remove them from ${code(report.baseline?.file ?? 'the baseline')} (the baseline may only shrink).`);
    out.push('');
    for (const id of v.stale) out.push(`- ${code(id)}`);
    out.push('');
  }
  if (v.byDesign.length > 0) {
    // Deliberate departures from the spec: not bugs to fix, so not among the failures.
    const notes = report.baseline?.notes ?? {};
    out.push(`### Deviations by design (${v.byDesign.length})`);
    out.push('');
    out.push(`The baseline ${code(report.baseline?.file ?? '')} marks these cases as departures from the spec by design.`);
    out.push('');
    out.push(
      table(
        ['case', 'status', 'requirements', 'reason', 'link'],
        v.byDesign.map((c) => [
          code(c.id, true),
          `${ICON[c.status]} ${c.status}`,
          cell(c.requirements.join(', ')),
          cell(clip(notes[c.id]?.reason ?? '', 500)),
          notes[c.id]?.link ? code(clip(notes[c.id]!.link!, 300), true) : '',
        ]),
      ),
    );
    out.push('');
  }
  const designed = new Set(v.byDesign.map((c) => c.id));
  const failing = report.cases.filter((c) => isFailing(c) && !designed.has(c.id));
  if (failing.length > 0) {
    const known = new Set(v.known.map((c) => c.id));
    // Unexpected failures first: they are what broke the build.
    const ordered = [...failing.filter((c) => !known.has(c.id)), ...failing.filter((c) => known.has(c.id))];
    out.push(`### Failures (${failing.length})`);
    out.push('');
    out.push(
      table(
        ['case', 'status', 'requirements', 'message'],
        ordered
          .slice(0, MAX_TABLE_ROWS)
          .map((c) => [
            code(c.id, true),
            `${ICON[c.status]} ${c.status}${known.has(c.id) ? ' (known)' : ''}`,
            cell(c.requirements.join(', ')),
            cell(clip(c.message ?? '', 300)),
          ]),
      ),
    );
    out.push('');
    if (ordered.length > MAX_TABLE_ROWS) out.push(`…and ${ordered.length - MAX_TABLE_ROWS} more in the JSON and HTML reports.`, '');
    for (const c of ordered.slice(0, detailed)) out.push(failure(c, known.has(c.id)));
    if (ordered.length > detailed)
      out.push(`Details of ${detailed === 0 ? 'the' : `${ordered.length - detailed} more`} failures are in the JSON and HTML reports.`, '');
  }
  const skipped = report.cases.filter((c) => c.status === 'skip');
  if (skipped.length > 0) {
    const reasons = new Map<string, number>();
    for (const c of skipped) reasons.set(c.message ?? 'skipped', (reasons.get(c.message ?? 'skipped') ?? 0) + 1);
    out.push(`<details><summary>Skipped (${skipped.length})</summary>`);
    out.push('');
    out.push(
      table(
        ['reason', 'cases'],
        [...reasons].sort((a, b) => b[1] - a[1]).map(([r, n]) => [cell(r), String(n)]),
      ),
    );
    out.push('');
    out.push('</details>');
    out.push('');
  }
  return out.join('\n');
}
