/**
 * The design-agnostic principles (SPEC section 18), one answer at a time,
 * without the reference: what every assembler owes whatever its ranking,
 * tiers, render or estimator. The one place they are judged: golden cases of
 * the any level, the properties, replay and the shadow call it.
 */
import type { Result } from '../../protocol/assembly.js';
import { anyReasonClass, reasonClass } from '../../vocabulary/reason-classes.js';
import { firstDifference } from '../../vocabulary/first-difference.js';
import { fillFindings } from './fill.js';
import { takeOutMarker } from './marker.js';
import { groupFindings } from './groups.js';
import { expiryWords, reasonFindings } from './reasons.js';
import { declaredCut } from './cuts.js';
import { longestPrefixIn, MIN_CUT, readContext } from './reading.js';
import { type Design, withinBudget } from './design.js';
import type { Finding, PrincipleBlock, PrincipleRequest } from './finding.js';

const quote = (s: string, max = 40): string => JSON.stringify(s.length > max ? s.slice(0, max) + '…' : s);

/**
 * Whether a pinned block was omitted by a filter the request asks for, which applies to
 * pinned blocks as to any (PIN-5): `exclude` names it, or its lifecycle status is the
 * reason given. Such a drop is named and asked for: no silent drop of a pinned rule (ANY-6).
 */
function filteredOut(request: PrincipleRequest, b: PrincipleBlock, reason: unknown, capabilities: readonly string[]): boolean {
  const c = reasonClass(reason);
  if (c === 'excluded') return capabilities.includes('constraints') && (request.constraints?.exclude ?? []).includes(b.block_id);
  if (c === 'superseded' || c === 'disputed') return capabilities.includes('lifecycle') && b.status === c;
  return false;
}

/** Every principle `answer` breaks for `request`, under `design`; `capabilities` say whether pinned is owed (ANY-6). */
export function principleFindings(request: PrincipleRequest, answer: Result, design: Design, capabilities: readonly string[]): Finding[] {
  const out: Finding[] = [];
  const byId = new Map<string, PrincipleBlock>();
  for (const b of request.blocks) byId.set(b.block_id, b);
  const omitted = new Map<string, unknown>();
  for (const o of answer.omissions) omitted.set(o.block_id, o.reason);
  const included = new Set(answer.included);

  accounting(request, answer, design, byId, out);
  for (const o of answer.omissions) {
    if (anyReasonClass(o.reason) === undefined && !cutReported(design, o.reason)) {
      out.push({
        id: 'ANY-4',
        message: `block ${quote(o.block_id)} is omitted with the reason ${quote(String(o.reason))}, which names no reason class`,
        actual: o,
      });
    }
  }
  reasonFindings(request, answer, design, capabilities, out);
  for (const b of request.blocks) {
    if (!design.expired(request.now, b)) continue;
    if (included.has(b.block_id))
      out.push({
        id: 'ANY-5',
        message: `block ${quote(b.block_id)} is expired (${expiryWords(request.now, b, design.expiry)}) and included`,
        actual: b.block_id,
      });
  }
  if (capabilities.includes('pinned')) {
    for (const b of request.blocks) {
      if (
        b.pinned === true &&
        !design.expired(request.now, b) &&
        !included.has(b.block_id) &&
        !filteredOut(request, b, omitted.get(b.block_id), capabilities)
      ) {
        const why = omitted.has(b.block_id) ? `omitted as ${quote(String(omitted.get(b.block_id)))}` : 'dropped without a word';
        out.push({
          id: 'ANY-6',
          message: `pinned block ${quote(b.block_id)} is ${why}: a pinned block is kept, or the answer is the error pinned_overflow`,
          actual: b.block_id,
        });
      }
    }
  }
  if (capabilities.includes('lifecycle')) lifecycle(request, included, out);
  if (design.groups) groupFindings(request, answer, design, design.groups, out);
  // A block cut in the context is ANY-1's: the budget counts what the answer says of it, not its whole content's cost;
  // a cut the design declares (DES-12) is charged what it writes.
  const cuts = render(answer, design, byId, out);
  const cut = new Set(cuts.keys());
  budget(request, answer, design, byId, cuts, out);
  fillFindings(
    request,
    answer,
    design,
    capabilities,
    cut,
    out.some((f) => f.id === 'ANY-16'),
    out,
  );
  return out;
}

/** With lifecycle declared, what every design owes of section 8.3: a superseded block is left out unless asked for (LIF-1), a disputed one when asked to (LIF-2). */
function lifecycle(request: PrincipleRequest, included: ReadonlySet<string>, out: Finding[]): void {
  const c = request.constraints ?? {};
  for (const b of request.blocks) {
    if (!included.has(b.block_id)) continue;
    if (b.status === 'superseded' && c.include_superseded !== true)
      out.push({
        id: 'LIF-1',
        message: `block ${quote(b.block_id)} is superseded and included, though the request does not ask for superseded blocks (include_superseded)`,
        actual: b.block_id,
      });
    if (b.status === 'disputed' && c.include_disputed === false)
      out.push({
        id: 'LIF-2',
        message: `block ${quote(b.block_id)} is disputed and included, though the request sets include_disputed to false`,
        actual: b.block_id,
      });
  }
}

function accounting(request: PrincipleRequest, answer: Result, design: Design, byId: Map<string, PrincipleBlock>, out: Finding[]): void {
  const seen = [...answer.included, ...answer.omissions.map((o) => o.block_id)];
  const counts = new Map<string, number>();
  for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
  const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  const unknown = seen.filter((id) => !byId.has(id));
  const missing = request.blocks.map((b) => b.block_id).filter((id) => !counts.has(id));
  if (twice.length + unknown.length > 0) {
    out.push({
      id: 'ANY-3',
      message: `blocks named more than once (${twice.map((x) => quote(x)).join(', ') || 'none'}) or not in the request (${unknown.map((x) => quote(x)).join(', ') || 'none'})`,
      actual: { more_than_once: twice, not_in_request: unknown },
    });
  }
  if (!design.omissionsReported) {
    const dropped = request.blocks.filter((b) => !answer.included.includes(b.block_id)).map((b) => b.block_id);
    if (dropped.length > 0) {
      out.push({
        id: 'ANY-3',
        message: `${dropped.length} block${dropped.length > 1 ? 's are' : ' is'} dropped and the design does not report omissions (DES-3), so each drop is silent: ${dropped
          .slice(0, 5)
          .map((x) => quote(x))
          .join(', ')}`,
        actual: { silently_dropped: dropped },
      });
    }
  } else if (missing.length > 0) {
    out.push({
      id: 'ANY-3',
      message: `${missing.length} block${missing.length > 1 ? 's are' : ' is'} neither included nor omitted with a reason (a silent drop): ${missing
        .slice(0, 5)
        .map((x) => quote(x))
        .join(', ')}`,
      actual: { missing },
    });
  }
}

function budget(
  request: PrincipleRequest,
  answer: Result,
  design: Design,
  byId: Map<string, PrincipleBlock>,
  cuts: ReadonlyMap<string, string | undefined>,
  out: Finding[],
): void {
  if (answer.total_budget !== request.budget)
    out.push({
      id: 'ANY-2',
      message: `total_budget is ${answer.total_budget}, the request's budget ${request.budget}`,
      expected: request.budget,
      actual: answer.total_budget,
    });
  const whole: PrincipleBlock[] = [];
  for (const id of new Set(answer.included)) {
    const b = byId.get(id);
    const written = cuts.get(id);
    if (b && !cuts.has(id)) whole.push(b);
    else if (b && written !== undefined) whole.push({ ...b, content: written });
  }
  // A cut reported as an omission is charged what it writes, like one listed in included (DES-12).
  for (const id of cutOmissions(answer, design)) {
    const b = byId.get(id);
    const written = cuts.get(id);
    if (b && written !== undefined) whole.push({ ...b, content: written });
  }
  const measured = design.costOf(whole);
  // A declared cut is made only where the whole block does not fit (DES-12).
  for (const [id, written] of cuts) {
    const b = byId.get(id);
    if (b === undefined || written === undefined) continue;
    const withWhole = whole.map((x) => (x.block_id === id ? b : x));
    const cost = design.costOf(withWhole);
    if (withinBudget(cost, request.budget))
      out.push({
        id: 'ANY-1',
        message: `block ${quote(id)} is cut, though it fits whole: with it whole the included blocks cost ${Number(cost.toFixed(6))} of ${request.budget} under ${design.estimator}`,
        expected: b.content.length,
        actual: written,
      });
  }
  const held = Math.max(measured, answer.estimated_tokens);
  if (!withinBudget(held, request.budget)) {
    const each = costsIn(whole, design);
    out.push({
      id: 'ANY-2',
      message:
        `the included blocks cost ${Number(measured.toFixed(6))} under the declared estimator ` +
        `(${design.estimator}${each.words}) and the answer says ${answer.estimated_tokens}: over the budget of ${request.budget}`,
      expected: `<= ${request.budget}`,
      actual: { measured, estimated_tokens: answer.estimated_tokens, ...(each.costs ? { costs: each.costs } : {}) },
    });
  }
}

/** Whether a reason is the one a declared cut reports its cut blocks under (DES-12). */
const cutReported = (design: Design, reason: unknown): boolean => design.cut?.reason !== undefined && reason === design.cut.reason;

const omittedWhole = (id: string, design: Design): Finding => ({
  id: 'ANY-1',
  message: `block ${quote(id)} is omitted as cut (${quote(String(design.cut?.reason))}), yet its content is in the context whole`,
  actual: id,
});

/** The blocks the answer omits as cut by its declared reason, in omissions' order: they are written last, after the included ones. */
const cutOmissions = (answer: Result, design: Design): string[] =>
  answer.omissions.filter((o) => cutReported(design, o.reason) && !answer.included.includes(o.block_id)).map((o) => o.block_id);

/** The kit's own count of each block of a selection, for a failure to show beside the answer's estimated_tokens. */
export function costsIn(blocks: readonly PrincipleBlock[], design: Design): { costs?: Record<string, number>; words: string } {
  const each = design.costsOf(blocks);
  if (each === undefined || blocks.length === 0) return { words: '' };
  const costs: Record<string, number> = {};
  blocks.forEach((b, i) => {
    costs[b.block_id] = Number(each[i]!.toFixed(6));
  });
  const shown = blocks.slice(0, 8).map((b) => `${quote(b.block_id)} ${costs[b.block_id]}`);
  return { costs, words: `: ${shown.join(', ')}${blocks.length > 8 ? `, … and ${blocks.length - 8} more` : ''}` };
}

/**
 * Whole blocks (ANY-1), provenance (ANY-10) and nothing invented (ANY-11), read from the context
 * against the declared render; the included blocks found cut, each with the text a declared cut
 * wrote for it (DES-12), undefined where the cut is not the design's.
 */
function render(answer: Result, design: Design, byId: Map<string, PrincipleBlock>, out: Finding[]): Map<string, string | undefined> {
  const cut = new Map<string, string | undefined>();
  const dropped = [...byId.keys()].filter((id) => !answer.included.includes(id));
  // A block cut and reported as an omission (DES-12 reason) is written last, after the included blocks.
  const listed = [...answer.included, ...cutOmissions(answer, design)].map((id) => byId.get(id)).filter((b): b is PrincipleBlock => b !== undefined);
  // The pinned blocks the context starts with: a head-and-tail design writes its marker after them (DES-10 after_pinned).
  const firstUnpinned = listed.findIndex((b) => b.pinned !== true);
  const lead = firstUnpinned < 0 ? listed : listed.slice(0, firstUnpinned);
  const context = design.marker
    ? takeOutMarker(answer.context, design.marker, design.separator, dropped, out, design.pieces(lead).join(design.separator))
    : answer.context;
  // Each block as the render writes it at its place in included; an empty content written as nothing stands nowhere (DES-2).
  const writes = listed.map((b, i) => ({
    b,
    header: design.header(b, i + 1),
    footer: b.content === '' && design.emptyContent === 'header' ? '' : design.footer(b, i + 1),
  }));
  const written = writes.filter((w) => w.b.content !== '' || design.emptyContent !== 'nothing');
  const blocks = written.map((w) => w.b);
  if (listed.length === 0 || blocks.length === 0) {
    if (context !== '' && context !== design.empty) {
      out.push({
        id: 'ANY-11',
        message:
          `${listed.length === 0 ? 'nothing is included' : 'the included blocks are empty contents the design writes as nothing'} and the context is ` +
          `${quote(context, 80)}: it is "" or the declared placeholder${design.empty ? ` ${quote(design.empty)}` : ''}`,
        expected: design.empty,
        actual: context,
      });
    }
    cutOmitted(context, [], answer, design, byId, out);
    return cut;
  }
  const declared = written.map((w) => ({ header: w.header, content: w.b.content, footer: w.footer }));
  const expected = design.pieces(listed).join(design.separator);
  if (context === expected) {
    for (const id of cutOmissions(answer, design)) out.push(omittedWhole(id, design));
    return cut;
  }
  const reading = readContext(context, declared, design.separator);
  const before = out.length;
  // Empty contents whose declared render is missing, and nothing else amiss: the context is the render without them.
  const unwritten = new Set(
    reading.placements.flatMap((p, i) => (p.kind === 'misheaded' && p.written === '' && blocks[i]!.content === '' ? [blocks[i]!] : [])),
  );
  const missing = unwritten.size > 0 && context === design.pieces(listed.filter((b) => !unwritten.has(b))).join(design.separator);
  reading.placements.forEach((p, i) => {
    const b = blocks[i]!;
    const header = declared[i]!.header;
    if (!answer.included.includes(b.block_id) && (p.kind === 'whole' || p.kind === 'misplaced' || p.kind === 'absent')) {
      // Omitted as cut (DES-12 reason): a cut block stands cut, last; whole, or nowhere, the reason is not what the answer did.
      out.push({
        id: p.kind === 'absent' ? 'ANY-4' : 'ANY-1',
        message:
          p.kind === 'absent'
            ? `block ${quote(b.block_id)} is omitted as cut (${quote(String(design.cut?.reason))}), but no part of it stands in the context`
            : omittedWhole(b.block_id, design).message,
        actual: b.block_id,
      });
      return;
    }
    if (missing && unwritten.has(b)) {
      // An empty content shows nothing of itself: what is missing is its header and footer, not a content elsewhere.
      out.push({
        id: 'ANY-11',
        message:
          `block ${quote(b.block_id)} has an empty content and its declared render ${quote(header + declared[i]!.footer, 40)} is not written ` +
          `(a design that writes nothing for an empty content declares render.empty_content "nothing", its header alone "header")`,
        expected: header + declared[i]!.footer,
        actual: { missing_render_of: b.block_id },
      });
    } else if (p.kind === 'misheaded') {
      // A header that names no block cannot attribute a content (ANY-10 is not judged for it): it is still declared text (ANY-11).
      const named = design.namesBlock(b);
      out.push({
        id: named ? 'ANY-10' : 'ANY-11',
        message:
          `the content of block ${quote(b.block_id)} appears, but not under its header ` +
          `${quote(header)}${named ? '' : ' as the declared render writes it'}: ${quote(p.written, 40)} stands in its place`,
        expected: header + quote(b.content),
        actual: context,
      });
    } else if (p.kind === 'cut' && design.cut) {
      const judged = declaredCut(b, p, design.cut, design.tokenCut);
      cut.set(b.block_id, 'written' in judged ? judged.written : undefined);
      if (!('written' in judged)) out.push(judged);
    } else if (p.kind === 'cut' || p.kind === 'absent') {
      cut.set(b.block_id, undefined);
      const shown = p.kind === 'cut' ? p.first + p.last : 0;
      out.push({
        id: 'ANY-1',
        message: `block ${quote(b.block_id)} is included but its content is not there whole: ${p.kind === 'cut' ? keptWords(p, b.content.length) : 'it does not appear'}`,
        expected: b.content.length,
        actual: shown,
      });
      if (p.kind === 'cut' && shown === 0) {
        out.push({
          id: 'ANY-11',
          message: `in the place of block ${quote(b.block_id)}'s content stands ${quote(p.between, 60)}, text of the implementation's own`,
          expected: b.content,
          actual: p.between,
        });
      }
    }
  });
  const placed = out.length > before;
  cutOmitted(reading.unexplained.join('\u0000'), blocks, answer, design, byId, out);
  if (placed || out.length > before) return cut;
  // Every cut is the design's: the context is the render with each cut block's written text for its content.
  if (cut.size > 0 && context === design.pieces(listed.map((b) => (cut.has(b.block_id) ? { ...b, content: cut.get(b.block_id)! } : b))).join(design.separator))
    return cut;
  // Every block is there as declared, and the context is still not the render: text of the implementation's own, or blocks out of order.
  out.push({
    id: 'ANY-11',
    message: `the context is not the declared render of its included blocks: ${firstDifference(expected, context)}`,
    expected,
    actual: context,
  });
  return cut;
}

/** What a cut block shows of itself, in words: its first N, its last N, or both with the middle elided. */
function keptWords(p: { first: number; last: number; between: string }, n: number): string {
  if (p.first > 0 && p.last > 0) return `its first ${p.first} and last ${p.last} of ${n} characters appear, the middle elided as ${quote(p.between, 30)}`;
  if (p.last > 0) return `its last ${p.last} of ${n} characters appear${p.between ? `, after ${quote(p.between, 30)}` : ''}`;
  if (p.first > 0) return `its first ${p.first} of ${n} characters appear, ${p.between ? `then ${quote(p.between, 30)}` : 'and nothing after them'}`;
  return `none of its ${n} characters appear`;
}

/** Shorter than this, a piece that runs on into other words may be a sentence of the implementation's own that starts alike. */
const SURE_CUT = 3 * MIN_CUT;

/**
 * Whether `piece` (a head of an omitted block) stands in `text` as a cut does: long enough to
 * be no chance, or ending where the text ends or goes on with something other than a letter
 * or digit (a marker, a line feed, a footer). "Use the " in a preamble "Use the following
 * context:" runs on into a word, as a block cut to fit does not.
 */
function cutEnds(text: string, piece: string): boolean {
  if (piece.length >= SURE_CUT) return true;
  for (let at = text.indexOf(piece); at >= 0; at = text.indexOf(piece, at + 1)) {
    const next = text.slice(at + piece.length, at + piece.length + 2);
    if (next === '' || next[0] === '\u0000' || !/^[\p{L}\p{N}]/u.test(next)) return true;
  }
  return false;
}

/** A block that is not included whose content, whole or cut, is in what the included blocks leave of the context (ANY-1). */
function cutOmitted(rest: string, included: PrincipleBlock[], answer: Result, design: Design, byId: Map<string, PrincipleBlock>, out: Finding[]): void {
  const inIncluded = new Set(included.map((b) => b.block_id));
  const room = rest.length;
  if (room < MIN_CUT) return;
  for (const [id, b] of byId) {
    if (inIncluded.has(id) || answer.included.includes(id) || b.content.length < MIN_CUT) continue;
    const shown = longestPrefixIn(b.content, rest);
    if (shown < MIN_CUT || design.separator.includes(b.content.slice(0, shown)) || design.empty.includes(b.content.slice(0, shown))) continue;
    if (shown < b.content.length && !cutEnds(rest, b.content.slice(0, shown))) continue;
    out.push({
      id: 'ANY-1',
      message:
        shown === b.content.length
          ? `block ${quote(id)} is not included, yet its content is in the context`
          : `block ${quote(id)} is not included, yet its first ${shown} of ${b.content.length} characters are in the context: a block cut to fit`,
      expected: 'no part of a block that is not included',
      actual: b.content.slice(0, shown),
    });
  }
}
