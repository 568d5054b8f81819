/**
 * expected.json says exactly what each fixture breaks. Every fixture answers the
 * same battery (every fixture's witness request, and a few of no design in
 * particular) and each request's twin (ANY-7), and a small checker written here
 * from the design-agnostic requirements, not from the kit, names the families its
 * answers break: those are its `deviations`, no more and no fewer, and a
 * design-only fixture breaks none. This holds the fixtures and their
 * expectations, not the kit's verdicts. The checker reads every member a
 * manifest's design declares: the estimator (with `counts`), the render (with
 * `empty_content`), expiry, the fill (with `ties` and `levels`), the context
 * order, groups, a cut and a marker, and holds each omission's reason to the
 * truth; its own tests at the end hold it to those readings.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES: { fixture: string; command: string; deviations: string[]; witness?: any }[] = JSON.parse(
  readFileSync(`${ROOT}test/fixtures/designs/expected.json`, 'utf8'),
).fixtures;

/** A fixture's witness requests: one, or several where no one answer can show every deviation (a split group leaves the fill unjudged, ANY-14). */
function witnesses(f: { witness?: any }): any[] {
  return f.witness === undefined ? [] : Array.isArray(f.witness) ? f.witness : [f.witness];
}

const LEGAL_REASONS = new Set([
  'expired',
  'excluded',
  'superseded',
  'disputed',
  'tier budget exhausted; overflow pool exhausted',
  'budget_exhausted',
  'budget',
  'max_segments',
  'duplicate',
  'source_cap',
  'score_floor',
]);

const BATTERY: any[] = [
  ...FIXTURES.flatMap((f) => witnesses(f)),
  {
    now: 50,
    budget: 40,
    blocks: [
      { block_id: 'emoji', source: 'chat', content: '👍👍👍👍 thumbs', priority: 2 },
      { block_id: 'empty', source: 'docs', content: '', priority: 1 },
      { block_id: 'old', source: 'docs', content: 'gone', priority: 3, created_at: 0, ttl_seconds: 10 },
      { block_id: 'pin', source: 'rules', content: 'always', priority: 0.6, pinned: true },
      { block_id: 'big', source: 'docs', content: 'x'.repeat(400), priority: 0.75 },
    ],
  },
  { now: 0, budget: 7, blocks: [] },
  {
    now: 0,
    budget: 100,
    blocks: [
      { block_id: 'w1', source: 'ops', content: 'Rollback deploy on key.', priority: 2 },
      { block_id: 'w2', source: 'ops', content: 'Key deploy on. Deploy deploy rollback.', priority: 1 },
      { block_id: 'w3', source: 'ops', content: 'Rollback deploy on key 2.', priority: 1 },
    ],
  },
  {
    now: 0,
    budget: 3000,
    blocks: Array.from({ length: 6 }, (_, i) => ({ block_id: `s${i}`, source: `src${i % 2}`, content: `Sentence ${i}. `.repeat(30), priority: 1 + i })),
  },
];

function units(text: string, unit: string): number {
  if (unit === 'code_points') return [...text].length;
  if (unit === 'utf16') return text.length;
  if (unit === 'words') return text.split(/\s+/).filter((w) => w !== '').length;
  return new TextEncoder().encode(text).length;
}

/** The estimator (SPEC DES-1) run once over a text: a tokenizer's count, or a unit divided, rounded and floored at min; no overhead. */
function counted(text: string, e: any): number {
  if (e.tokenizer) return (e.tokenizer === 'cl100k_base' ? encodeCl100k : encode)(text, { disallowedSpecial: new Set() }).length;
  const q = units(text, e.unit) / (e.per_token ?? 4);
  return Math.max(e.min ?? 1, (e.rounding ?? 'floor') === 'floor' ? Math.floor(q) : Math.ceil(q));
}

/** What a selection of these contents costs (DES-1): one count each, or one over them joined; overhead a block; context_overhead once. */
function cost(contents: string[], e: any): number {
  if (contents.length === 0) return 0;
  const base = e.join !== undefined ? counted(contents.join(e.join), e) : contents.reduce((s, c) => s + counted(c, e), 0);
  return base + (e.overhead ?? 0) * contents.length + (e.context_overhead ?? 0);
}

/**
 * DES-2's template, read left to right: `{{` and `}}` are one brace; a brace group `{name}` or
 * `{name:format}` naming a field or a declared member is its value ("" when the block has none);
 * every other character, a brace included, is itself. `fields` collects the names written.
 */
function fill(t: string, b: any, index: number, members: string[], fields: Set<string> = new Set()): string {
  const known = ['source', 'block_id', 'index', 'priority', 'confidence', 'created_at', 'status', 'lines', ...members];
  let out = '';
  let i = 0;
  while (i < t.length) {
    const two = t.slice(i, i + 2);
    if (two === '{{' || two === '}}') {
      out += t[i];
      i += 2;
      continue;
    }
    const close = t[i] === '{' ? t.indexOf('}', i + 1) : -1;
    const inner = close > 0 ? t.slice(i + 1, close) : '';
    const colon = inner.indexOf(':');
    const name = colon < 0 ? inner : inner.slice(0, colon);
    const format = colon < 0 ? null : inner.slice(colon + 1);
    const formatOk = format === null || format === 'upper' || format === 'lower' || /^\.([0-9]|10)f$/.test(format);
    if (close < 0 || inner.includes('{') || !known.includes(name) || !formatOk) {
      out += t[i];
      i += 1;
      continue;
    }
    fields.add(name);
    const value = name === 'index' ? index : name === 'lines' ? b.content.split('\n').length : b[name];
    if (value !== undefined) {
      const text = typeof value === 'string' ? value : String(value);
      if (format === 'upper') out += text.toUpperCase();
      else if (format === 'lower') out += text.toLowerCase();
      else if (format !== null && typeof value === 'number') out += value.toFixed(Number(format.slice(1, -1)));
      else out += text;
    }
    i = close + 1;
  }
  return out;
}

/** The template a header or footer takes for a block: a template, or a choice {by, cases, default} read by the block's member. */
function choose(spec: any, b: any): string {
  if (spec === undefined) return '';
  if (typeof spec === 'string') return spec;
  const key = spec.by === 'pinned' ? String(b.pinned === true) : b[spec.by] === undefined ? '' : String(b[spec.by]);
  return choose(spec.cases !== undefined && Object.hasOwn(spec.cases, key) ? spec.cases[key] : spec.default, b);
}

/** Every template a header or footer may take (an absent default is ""). */
const leaves = (spec: any): string[] =>
  spec === undefined ? [''] : typeof spec === 'string' ? [spec] : [...Object.values(spec.cases ?? {}).flatMap(leaves), ...leaves(spec.default)];

/** ANY-10 judges a render that names its blocks: its header, or its footer, writes {block_id} or {index} whichever template it takes. */
function namesBlocks(r: any, members: string[]): boolean {
  const names = (t: string) => {
    const fields = new Set<string>();
    fill(t, { content: '' }, 1, members, fields);
    return fields.has('block_id') || fields.has('index');
  };
  return leaves(r.header).every(names) || leaves(r.footer).every(names);
}

/**
 * The twin of a text (ANY-7), from its description: each ASCII letter rotated by `shift` within
 * its case, each digit among the ten digits, every other character kept; the same cost under
 * every unit estimator.
 */
const rotate = (text: string, shift: number) =>
  text.replace(/[a-z]|[A-Z]|[0-9]/g, (c) => {
    const [first, n] = c >= 'a' ? ['a', 26] : c >= 'A' ? ['A', 26] : ['0', 10];
    return String.fromCharCode(first.charCodeAt(0) + ((c.charCodeAt(0) - first.charCodeAt(0) + shift) % n));
  });
const twinOf = (request: any): any => ({ ...request, blocks: request.blocks.map((b: any) => ({ ...b, content: rotate(b.content, 1) })) });

/** What content blindness compares: the blocks included, in order, and each omitted block's reason (or the error's code). */
const selection = (answer: any): unknown =>
  answer.error
    ? { error: answer.error.code }
    : { included: answer.ok.included, omissions: answer.ok.omissions.map((o: any) => `${o.block_id}: ${o.reason}`).sort() };

/** content_blindness (ANY-7) when a request and its twin select differently; not judged for a tokenizer estimator (no twin costs the same). */
function blindness(manifest: any, answer: any, twinAnswer: any): Set<string> {
  if (manifest.design.estimator.tokenizer !== undefined) return new Set();
  return new Set(JSON.stringify(selection(answer)) === JSON.stringify(selection(twinAnswer)) ? [] : ['content_blindness']);
}

/**
 * Expiry (EXP-1) under the declared boundary, `design.expiry`: "exclusive" (the default) expires a block
 * when ttl_seconds > 0 and now > created_at + ttl_seconds, "inclusive" when now >= created_at + ttl_seconds.
 */
const expired = (b: any, now: number, design: any = {}) => {
  if (!((b.ttl_seconds ?? 0) > 0)) return false;
  const end = (b.created_at ?? 0) + b.ttl_seconds;
  return design.expiry === 'inclusive' ? now >= end : now > end;
};

/**
 * The blocks in a declared context order (DES-8's `by`), read from the words: priority highest first;
 * oldest_first and chronological by created_at (absent 0); input as sent; equal keys in the request's
 * order (`blocks` are given in it). newest_first is the history listed oldest first read from its end:
 * of two equal times, the later in the request first.
 */
function inOrder(blocks: any[], by: string): any[] {
  if (by === 'newest_first') return inOrder(blocks, 'oldest_first').reverse();
  const key: (b: any) => number = by === 'priority' ? (b) => -b.priority : by === 'input' ? () => 0 : (b) => b.created_at ?? 0;
  return blocks
    .map((b, i) => ({ b, i }))
    .sort((x, y) => key(x.b) - key(y.b) || x.i - y.i)
    .map(({ b }) => b);
}

/** Two texts in code-point order (not UTF-16's, which puts U+E000..U+FFFF after the astral planes). */
function codePointOrder(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** The key a fill order (DES-7) ranks by, smaller first; null for input, where no two blocks are equal. */
function fillKey(order: string): ((b: any) => number) | null {
  if (order === 'priority') return (b) => -b.priority;
  if (order === 'newest_first') return (b) => -(b.created_at ?? 0);
  if (order === 'oldest_first') return (b) => b.created_at ?? 0;
  return null;
}

/**
 * The blocks (given in the request's order) in a declared fill's order (DES-7): the order's key, then,
 * for blocks equal under it, `ties`: "input" (the request's order), "block_id" (code points,
 * ascending), "later_first" (the later in the request first), "newest_first" (created_at, newest first,
 * then the request's order). The default is "input", but "later_first" under order newest_first.
 */
function fillOrdered(blocks: any[], fill: any): any[] {
  const key = fillKey(fill.order);
  const ties = fill.ties ?? (fill.order === 'newest_first' ? 'later_first' : 'input');
  const tie = (x: { b: any; i: number }, y: { b: any; i: number }): number => {
    if (ties === 'later_first') return y.i - x.i;
    if (ties === 'block_id') return codePointOrder(x.b.block_id, y.b.block_id) || x.i - y.i;
    if (ties === 'newest_first') return (y.b.created_at ?? 0) - (x.b.created_at ?? 0) || x.i - y.i;
    return x.i - y.i;
  };
  return blocks
    .map((b, i) => ({ b, i }))
    .sort((x, y) => (key === null ? x.i - y.i : key(x.b) - key(y.b) || tie(x, y)))
    .map(({ b }) => b);
}

/** How the declared render writes an empty content (render.empty_content): "block" (default), "header" or "nothing". */
const emptyContent = (design: any): string => design.render.empty_content ?? 'block';

/**
 * One block as the declared render writes it (DES-2) at 0-based place `i` of the listing, `text` where its
 * content would stand (a cut block's kept part with the marker); null when it writes nothing at all (an
 * empty content under empty_content "nothing": no header, no footer, no separator); its header alone for
 * an empty content under "header".
 */
function written(b: any, i: number, design: any, members: string[], text: string = b.content): string | null {
  if (b.content === '' && emptyContent(design) === 'nothing') return null;
  const header = fill(choose(design.render.header, b), b, i + 1, members);
  if (b.content === '' && emptyContent(design) === 'header') return header;
  return header + text + fill(choose(design.render.footer, b), b, i + 1, members);
}

/**
 * What a selection costs (DES-1), the blocks listed in this order, each writing `textOf(b)` where its content
 * would: by `estimator.counts`, "content" (the default: the texts, one count each or joined), "block" (each
 * rendered block counted alone, summed), "block_and_separator" (each rendered block followed by the
 * separator, the last too, counted alone, summed), "context" (the rendered blocks joined by the separator,
 * counted once); a block that writes nothing costs nothing but its overhead and takes no separator. Overhead a block, context_overhead
 * once, as for the contents.
 */
function selectionCost(blocks: any[], design: any, members: string[], textOf: (b: any) => string = (b) => b.content): number {
  const e = design.estimator;
  const counts = e.counts ?? 'content';
  if (counts === 'content') return cost(blocks.map(textOf), e);
  if (blocks.length === 0) return 0;
  const sep = design.render.separator;
  const texts = blocks.map((b, i) => written(b, i, design, members, textOf(b)));
  const base =
    counts === 'context'
      ? counted(texts.filter((t) => t !== null).join(sep), e)
      : texts.reduce((s: number, t) => s + (t === null ? 0 : counted(counts === 'block_and_separator' ? t + sep : t, e)), 0);
  return base + (e.overhead ?? 0) * blocks.length + (e.context_overhead ?? 0);
}

/** The reasons of section 10's budget class: a drop for the budget. */
const BUDGET_REASONS = new Set(['budget', 'budget_exhausted', 'tier budget exhausted; overflow pool exhausted']);

/** A cost held to the budget within one part in a billion (DES-1). */
const within = (spent: number, budget: number) => spent <= budget + 1e-9 * Math.max(1, budget);

/** The listing of a selection: in the declared context order (DES-8) when there is one, else as given. */
function listed(request: any, design: any, blocks: any[]): any[] {
  const order = design.context_order;
  if (order === undefined) return blocks;
  const inRequest = request.blocks.filter((b: any) => blocks.includes(b));
  const first = order.pinned_first === true ? inRequest.filter((b: any) => b.pinned === true) : [];
  return [
    ...first,
    ...inOrder(
      inRequest.filter((b: any) => !first.includes(b)),
      order.by,
    ),
  ];
}

/**
 * fill (ANY-14). The candidates are the live blocks the answer does not omit for a reason outside the
 * budget class. Under a declared fill (DES-7): the live pinned candidates (pinned declared) first, in
 * the request's order, then the others in the fill's order (its `ties` read), each unit taken when the
 * selection with it costs at most the budget, the rest skipped or, at the first misfit with `stop`, left;
 * the live blocks included are exactly those. A unit is a block, a declared group (DES-9), or, with
 * `levels: "whole"`, the blocks equal under the order. At a misfit, a block the answer cut lawfully
 * (design.cut, `cuts`) is taken as cut, and the misfit still applies. Without a fill: when all candidates
 * together fit, none is omitted for the budget. Not judged for `"fill": "own"` (its drops for the budget
 * are its own), nor where another family has the answer: an expired block kept (expired), pinned blocks
 * over the budget (budget); an unlawful cut (whole_blocks) is left by the caller.
 */
function fillBroken(request: any, manifest: any, r: any, named: any[], cuts: Map<string, string>): boolean {
  const { design } = manifest;
  if (design.fill === 'own') return false;
  const members = Object.keys(design.members ?? {});
  const isExpired = (b: any) => expired(b, request.now, design);
  const reasonOf = new Map<string, string>(named.map((o: any) => [o.block_id, o.reason]));
  const included = new Set<string>(r.included);
  const live = request.blocks.filter((b: any) => !isExpired(b));
  if (request.blocks.some((b: any) => included.has(b.block_id) && isExpired(b))) return false;
  // With groups (DES-9), a group with an expired block is no candidate, and one with a live pinned block is taken with the pinned blocks.
  const groupOf = (b: any): string | undefined =>
    design.groups && typeof b[design.groups] === 'string' && b[design.groups] !== '' ? b[design.groups] : undefined;
  const gone = new Set(request.blocks.filter((b: any) => isExpired(b) && groupOf(b) !== undefined).map(groupOf));
  const candidates = live.filter(
    (b: any) =>
      (included.has(b.block_id) || !reasonOf.has(b.block_id) || BUDGET_REASONS.has(reasonOf.get(b.block_id)!)) && (b.pinned === true || !gone.has(groupOf(b))),
  );
  const droppedForBudget = candidates.filter((b: any) => !included.has(b.block_id) && BUDGET_REASONS.has(reasonOf.get(b.block_id) ?? ''));
  // The blocks the simulated fill took cut, with the text each writes.
  const cutTaken = new Map<string, string>();
  const costOf = (blocks: any[]) => selectionCost(listed(request, design, blocks), design, members, (b) => cutTaken.get(b.block_id) ?? b.content);
  const pinnedOn = manifest.capabilities.includes('pinned');
  const heldGroups = new Set(candidates.filter((b: any) => pinnedOn && b.pinned === true && groupOf(b) !== undefined).map(groupOf));
  const isPinned = (b: any) => (pinnedOn && b.pinned === true) || heldGroups.has(groupOf(b));
  const taken = candidates.filter(isPinned);
  if (!within(costOf(taken), request.budget)) return false;
  if (design.fill === undefined) return droppedForBudget.length > 0 && within(costOf(candidates), request.budget);
  const ordered = fillOrdered(
    candidates.filter((b: any) => !isPinned(b)),
    design.fill,
  );
  const units: any[][] = [];
  if (design.fill.levels === 'whole') {
    // The blocks equal under the order stand together, as one unit, where the first of them stands.
    const key = fillKey(design.fill.order);
    for (const b of ordered) {
      const last = units.at(-1);
      if (last && key !== null && key(last[0]) === key(b)) last.push(b);
      else units.push([b]);
    }
  } else {
    // A group is considered where the first of its blocks stands in the fill's order, all of them together.
    for (const b of ordered) {
      const unit = groupOf(b) === undefined ? undefined : units.find((u) => groupOf(u[0]) === groupOf(b));
      if (unit) unit.push(b);
      else units.push([b]);
    }
  }
  for (const unit of units) {
    if (within(costOf([...taken, ...unit]), request.budget)) {
      taken.push(...unit);
      continue;
    }
    const lone = unit.length === 1 ? unit[0] : undefined;
    if (lone !== undefined && cuts.has(lone.block_id)) {
      cutTaken.set(lone.block_id, cuts.get(lone.block_id)!);
      if (within(costOf([...taken, lone]), request.budget)) taken.push(lone);
      else cutTaken.delete(lone.block_id);
    }
    if (design.fill.misfit === 'stop') break;
  }
  const want = new Set(taken.map((b: any) => b.block_id));
  const got = live.filter((b: any) => included.has(b.block_id)).map((b: any) => b.block_id);
  return got.length !== want.size || got.some((id: string) => !want.has(id));
}

/** order (ANY-15): with a declared context order (DES-8), included lists its blocks in it: pinned ones first, in the request's order, with pinned_first. */
function orderBroken(request: any, design: any, r: any): boolean {
  if (design.context_order === undefined) return false;
  const listedIds = new Set<string>(r.included);
  const expected = listed(
    request,
    design,
    request.blocks.filter((b: any) => listedIds.has(b.block_id)),
  ).map((b: any) => b.block_id);
  return JSON.stringify(expected) !== JSON.stringify(r.included);
}

/**
 * groups (ANY-16): with a declared linking member (DES-9), the blocks of each group of two or more
 * are all included or none is; a group holding an expired block and a live pinned one is not judged.
 */
function groupsBroken(request: any, manifest: any, r: any): boolean {
  const member = manifest.design.groups;
  if (member === undefined) return false;
  const pinnedOn = manifest.capabilities.includes('pinned');
  const isExpired = (b: any) => expired(b, request.now, manifest.design);
  const groups = new Map<string, any[]>();
  for (const b of request.blocks) if (typeof b[member] === 'string' && b[member] !== '') groups.set(b[member], [...(groups.get(b[member]) ?? []), b]);
  return [...groups.values()].some((blocks) => {
    if (blocks.length < 2) return false;
    if (blocks.some(isExpired) && blocks.some((b) => pinnedOn && b.pinned === true && !isExpired(b))) return false;
    const kept = blocks.filter((b) => r.included.includes(b.block_id)).length;
    return kept > 0 && kept < blocks.length;
  });
}

/**
 * Reasons held to the truth (accounting): `expired` only for a block expired under the declared boundary,
 * a reason of the budget class only for a live block, `excluded` only for a block the request's
 * constraints.exclude names, `superseded` / `disputed` only for a block of that status, `duplicate` only
 * when the request holds another block (duplicates may be removed before the budget is filled, so the one
 * kept may be dropped too), `score_floor` only when no included unpinned block has a priority at or
 * below the omitted block's.
 */
function falseReason(request: any, manifest: any, r: any, named: any[]): boolean {
  const byId = new Map<string, any>(request.blocks.map((b: any) => [b.block_id, b]));
  const pinnedOn = manifest.capabilities.includes('pinned');
  const included = r.included.map((id: string) => byId.get(id)).filter((b: any) => b !== undefined);
  const exclude: string[] = request.constraints?.exclude ?? [];
  return named.some((o: any) => {
    const b = byId.get(o.block_id);
    if (b === undefined) return false;
    const isExpired = expired(b, request.now, manifest.design);
    if (o.reason === 'expired') return !isExpired;
    if (BUDGET_REASONS.has(o.reason)) return isExpired;
    if (o.reason === 'excluded') return !exclude.includes(b.block_id);
    if (o.reason === 'superseded' || o.reason === 'disputed') return (b.status ?? 'active') !== o.reason;
    if (o.reason === 'duplicate') return request.blocks.length < 2;
    if (o.reason === 'score_floor') return included.some((x: any) => !(pinnedOn && x.pinned === true) && x.priority <= b.priority);
    return false;
  });
}

/**
 * The marker (DES-10) an answer owes: when the design declares one and some block of the request is not
 * included, its text ({count}: how many; {ids}: their ids in the request's order, joined by ", ") and its
 * place among the context's parts: first, last, or (after_pinned) right after the pinned blocks the
 * context starts with (first when none). null when none is owed.
 */
function markerOwed(request: any, manifest: any, r: any, included: any[]): { text: string; at: number } | null {
  const marker = manifest.design.marker;
  if (marker === undefined) return null;
  const left = request.blocks.filter((b: any) => !r.included.includes(b.block_id));
  if (left.length === 0) return null;
  const text = String(marker.text).replace(/\{count\}|\{ids\}/g, (f) => (f === '{count}' ? String(left.length) : left.map((b: any) => b.block_id).join(', ')));
  const writes = (b: any) => !(b.content === '' && emptyContent(manifest.design) === 'nothing');
  const parts = included.filter(writes).length;
  if (marker.where === 'last') return { text, at: parts };
  if (marker.where === 'after_pinned') {
    const pinnedOn = manifest.capabilities.includes('pinned');
    let lead = 0;
    while (lead < included.length && pinnedOn && included[lead].pinned === true) lead++;
    return { text, at: included.slice(0, lead).filter(writes).length };
  }
  return { text, at: 0 };
}

/** The declared render of `included` (DES-2), each writing `textOf(b)`, empty_content read, the owed marker in its place. */
function rendered(included: any[], design: any, members: string[], marker: { text: string; at: number } | null, textOf: (b: any) => string): string {
  const parts = included.map((b, i) => written(b, i, design, members, textOf(b))).filter((t): t is string => t !== null);
  if (marker) parts.splice(marker.at, 0, marker.text);
  if (parts.length === 0) return included.length === 0 ? design.render.empty : '';
  return parts.join(design.render.separator);
}

/**
 * The texts a declared cut (design.cut: keep head or tail, at character or whitespace, an optional marker)
 * may write for a content, the longest kept part first: a head content.slice(0, n) followed by the marker,
 * where content[n] is white space (at whitespace) or n is any code-point boundary short of the end (at
 * character); or the marker followed by a tail content.slice(n), where content[n - 1] is white space, or n
 * is any code-point boundary after the start.
 */
function cutShapes(content: string, cut: any): string[] {
  const marker = cut.marker ?? '';
  const chars = Array.from(content);
  const bounds: number[] = [];
  let n = 0;
  for (const c of chars) {
    bounds.push(n);
    n += c.length;
  }
  bounds.push(n);
  if (cut.keep === 'tail') {
    const starts = bounds.filter((k) => k > 0 && (cut.at === 'character' || /\s/.test(content[k - 1]!)));
    return starts.map((k) => marker + content.slice(k));
  }
  const ends = bounds.filter((k) => k < content.length && (cut.at === 'character' || /\s/.test(content[k]!)));
  return ends.reverse().map((k) => content.slice(0, k) + marker);
}

/**
 * The text each included block writes where its content would, read off the context as the declared render
 * of `included` (DES-2, empty_content, the owed marker in its place): its content, or, under a declared cut,
 * one of the content's cut shapes. null when the context is no such render.
 */
function writtenTexts(
  context: string,
  included: any[],
  design: any,
  members: string[],
  marker: { text: string; at: number } | null,
): Map<string, string> | null {
  const sep = design.render.separator;
  type Part = { marker: string } | { b: any; i: number };
  const parts: Part[] = included.map((b, i) => ({ b, i })).filter(({ b }) => !(b.content === '' && emptyContent(design) === 'nothing'));
  if (marker) parts.splice(marker.at, 0, { marker: marker.text });
  const texts = new Map<string, string>(included.map((b) => [b.block_id, b.content]));
  if (parts.length === 0) return context === (included.length === 0 ? design.render.empty : '') ? texts : null;
  const failed = new Set<string>();
  const from = (k: number, pos: number): boolean => {
    if (k === parts.length) return pos === context.length;
    const seen = `${k}:${pos}`;
    if (failed.has(seen)) return false;
    const at = pos + (k === 0 ? 0 : sep.length);
    const part = parts[k]!;
    let ok = false;
    if (k > 0 && !context.startsWith(sep, pos)) ok = false;
    else if ('marker' in part) ok = context.startsWith(part.marker, at) && from(k + 1, at + part.marker.length);
    else {
      const { b, i } = part;
      const header = fill(choose(design.render.header, b), b, i + 1, members);
      const footer = fill(choose(design.render.footer, b), b, i + 1, members);
      if (!context.startsWith(header, at)) ok = false;
      else if (b.content === '' && emptyContent(design) === 'header') ok = from(k + 1, at + header.length);
      else {
        const start = at + header.length;
        for (const text of [b.content, ...(design.cut !== undefined ? cutShapes(b.content, design.cut) : [])]) {
          if (context.startsWith(text + footer, start) && from(k + 1, start + text.length + footer.length)) {
            texts.set(b.block_id, text);
            ok = true;
            break;
          }
        }
      }
    }
    if (!ok) failed.add(seen);
    return ok;
  };
  return from(0, 0) ? texts : null;
}

/** The request as the kit sends it to a design that declares members (DES-5): the block at place i carries the i mod n-th value of each. */
function withMembers(request: any, members: Record<string, string[]>): any {
  const blocks = request.blocks.map((b: any, i: number) => {
    const added = Object.fromEntries(
      Object.entries(members)
        .filter(([m]) => !(m in b))
        .map(([m, values]) => [m, values[i % values.length]]),
    );
    return { ...b, ...added };
  });
  return { ...request, blocks };
}

/** The families one answer breaks. */
function broken(request: any, manifest: any, answer: any): Set<string> {
  const out = new Set<string>();
  const { design } = manifest;
  const members = Object.keys(design.members ?? {});
  const pinnedOn = manifest.capabilities.includes('pinned');
  const isExpired = (b: any) => expired(b, request.now, design);
  const live = request.blocks.filter((b: any) => !isExpired(b));
  if (answer.error) {
    if (!(pinnedOn && answer.error.code === 'pinned_overflow')) out.add('answered');
    return out;
  }
  const r = answer.ok;
  const byId = new Map(request.blocks.map((b: any) => [b.block_id, b]));
  const included = r.included.map((id: string) => byId.get(id));
  const marker = markerOwed(request, manifest, r, included);
  // Under a declared cut, the context is read as the render with each block's written text: its content or a cut shape of it.
  const texts = design.cut !== undefined ? writtenTexts(r.context, included, design, members, marker) : null;
  const textOf = (b: any): string => texts?.get(b.block_id) ?? b.content;
  // A cut is lawful when the whole block does not fit (the selection with it whole costs more than the
  // budget) and the selection with the cut text does.
  const lawful = (b: any) =>
    !within(
      selectionCost(included, design, members, (x) => (x === b ? x.content : textOf(x))),
      request.budget,
    ) && within(selectionCost(included, design, members, textOf), request.budget);
  const cuts = new Map<string, string>();
  const whole =
    texts === null
      ? included.filter((b: any) => r.context.includes(b.content))
      : included.filter((b: any) => {
          if (textOf(b) === b.content) return true;
          if (!lawful(b)) return false;
          cuts.set(b.block_id, textOf(b));
          return true;
        });
  if (whole.length < included.length) out.add('whole_blocks');
  // A block that does not appear whole is a whole_blocks failure; its full cost against the budget would fail the budget for the same cut.
  // A block cut lawfully costs what it writes.
  const spent = selectionCost(whole, design, members, textOf);
  // Fractional overheads are summed as they are: held to the budget within one part in a billion (DES-1).
  if (Math.max(spent, r.estimated_tokens) > request.budget + 1e-9 * Math.max(1, request.budget) || r.total_budget !== request.budget) out.add('budget');
  const named = design.omissions === 'reported' ? r.omissions : [];
  const ids = [...r.included, ...named.map((o: any) => o.block_id)];
  if (ids.length !== byId.size || new Set(ids).size !== byId.size || named.some((o: any) => !LEGAL_REASONS.has(o.reason))) out.add('accounting');
  if (falseReason(request, manifest, r, named)) out.add('accounting');
  if (included.some(isExpired)) out.add('expired');
  if (pinnedOn && live.some((b: any) => b.pinned === true && !r.included.includes(b.block_id))) out.add('pinned');
  if (groupsBroken(request, manifest, r)) out.add('groups');
  // A block cut unlawfully, or a split group, leaves the fill to whole_blocks or groups (ANY-14).
  if (!out.has('whole_blocks') && !out.has('groups') && fillBroken(request, manifest, r, named, cuts)) out.add('fill');
  if (orderBroken(request, design, r)) out.add('order');
  if (included.length === 0) {
    if (r.context !== (marker ? marker.text : design.render.empty)) out.add('invented');
    return out;
  }
  const header = (b: any, i: number) => fill(choose(design.render.header, b), b, i + 1, members);
  // Provenance (ANY-10), for a render that names its blocks: each block's own header, in order (a block that writes nothing has none).
  if (namesBlocks(design.render, members)) {
    let at = 0;
    included.forEach((b: any, i: number) => {
      if (written(b, i, design, members) === null) return;
      const found = r.context.indexOf(header(b, i), at);
      if (found < 0) out.add('provenance');
      else at = found + header(b, i).length;
    });
  }
  // Nothing invented (ANY-11): with every content whole (or cut lawfully) and every header its own, the context is exactly the render.
  if (!out.has('whole_blocks') && !out.has('provenance') && r.context !== rendered(included, design, members, marker, textOf)) out.add('invented');
  return out;
}

describe.each(FIXTURES.map((f) => [f.fixture, f] as const))('%s', (_, f) => {
  it(`breaks exactly ${f.deviations.join(', ') || 'nothing'} over the battery, its witness included`, () => {
    const [cmd, ...args] = f.command.split(' ');
    const exchange = (messages: unknown[]): any[] =>
      spawnSync(cmd!, args, { cwd: ROOT, input: `${messages.map((l) => JSON.stringify(l)).join('\n')}\n`, encoding: 'utf8', timeout: 20_000 })
        .stdout.trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    const [described] = exchange([{ id: 'm', op: 'describe' }]);
    const manifest = described.ok;
    // As the kit does, a pinned block goes only to an implementation that declares the capability,
    // and each block carries a value of every member the design declares (DES-5).
    const pinnedOn = manifest.capabilities.includes('pinned');
    const battery = BATTERY.map((q) => withMembers(pinnedOn ? q : { ...q, blocks: q.blocks.map(({ pinned, ...b }: any) => b) }, manifest.design.members ?? {}));
    // Each request, then its twin (ANY-7).
    const sent = [...battery, ...battery.map(twinOf)];
    const all = exchange(sent.map((request, i) => ({ id: String(i), op: 'assemble', request })));
    expect(all).toHaveLength(sent.length);
    const answers = all.slice(0, battery.length);
    const twins = all.slice(battery.length);
    const families = new Set<string>();
    answers.forEach((a, i) => {
      for (const x of [...broken(battery[i], manifest, a), ...blindness(manifest, a, twins[i])]) families.add(x);
    });
    expect([...families].sort()).toEqual([...f.deviations].sort());
    if (f.witness) {
      const own = new Set<string>();
      for (const w of witnesses(f)) {
        const at = BATTERY.indexOf(w);
        for (const x of [...broken(battery[at], manifest, answers[at]), ...blindness(manifest, answers[at], twins[at])]) own.add(x);
      }
      expect([...own].sort(), 'the witness alone').toEqual([...f.deviations].sort());
    }
  });
});

/**
 * The checker itself, on answers written here by hand: the declarations the fixtures above reach only in
 * part (expiry, estimator.counts, fill.ties and fill.levels, cut, render.empty_content, the marker's
 * after_pinned place, reasons held to the truth), each read as its description says.
 */
describe('the checker', () => {
  const SPEC_ESTIMATOR = { unit: 'code_points', per_token: 4, rounding: 'floor', min: 1, overhead: 0 };
  const RENDER = { header: '[{block_id}]\n', footer: '', separator: '\n\n', empty: '' };
  const manifestOf = (design: any, capabilities: string[] = []) => ({
    capabilities,
    design: { estimator: SPEC_ESTIMATOR, render: RENDER, omissions: 'reported', ...design },
  });
  const b = (block_id: string, content: string, priority = 1, extra: any = {}) => ({ block_id, source: 'kb', content, priority, ...extra });
  const ok = (context: string, included: string[], estimated_tokens: number, omissions: any[] = [], total_budget?: number) => ({
    ok: { context, included, estimated_tokens, omissions, total_budget },
  });
  /** The families `result` breaks for `request` under `design`; total_budget defaults to the request's. */
  const judge = (design: any, request: any, result: any, capabilities: string[] = []) => {
    result.ok.total_budget ??= request.budget;
    return [...broken(request, manifestOf(design, capabilities), result)].sort();
  };
  const budget = (id: string) => ({ block_id: id, reason: 'budget' });

  it('reads design.expiry: inclusive expires a block at the boundary instant, exclusive (the default) does not', () => {
    const request = { now: 20, budget: 100, blocks: [b('edge', 'abcd', 1, { created_at: 10, ttl_seconds: 10 })] };
    const kept = () => ok('[edge]\nabcd', ['edge'], 1);
    const dropped = () => ok('', [], 0, [{ block_id: 'edge', reason: 'expired' }]);
    expect(judge({ expiry: 'inclusive' }, request, kept())).toEqual(['expired']);
    expect(judge({ expiry: 'inclusive' }, request, dropped())).toEqual([]);
    expect(judge({}, request, kept())).toEqual([]);
    expect(judge({}, request, dropped())).toEqual(['accounting']);
    // Under inclusive, a block at the boundary omitted for the budget is a reason that is not true of it.
    expect(judge({ expiry: 'inclusive' }, request, ok('', [], 0, [budget('edge')]))).toEqual(['accounting']);
  });

  it('reads estimator.counts: block, block_and_separator and context count the rendered text', () => {
    // '[p]\nabcdef' is 10 code points (2 tokens); with the separator 12 (3); both blocks joined, 22 (5).
    const request = (n: number) => ({ now: 0, budget: n, blocks: [b('p', 'abcdef'), b('q', 'abcdef')] });
    const both = (est: number) => ok('[p]\nabcdef\n\n[q]\nabcdef', ['p', 'q'], est);
    const counts = (c: string) => ({ estimator: { ...SPEC_ESTIMATOR, counts: c } });
    expect(judge(counts('content'), request(2), both(2))).toEqual([]);
    expect(judge(counts('block'), request(4), both(4))).toEqual([]);
    expect(judge(counts('block'), request(3), both(3))).toEqual(['budget']);
    expect(judge(counts('block_and_separator'), request(6), both(6))).toEqual([]);
    expect(judge(counts('block_and_separator'), request(5), both(5))).toEqual(['budget']);
    expect(judge(counts('context'), request(5), both(5))).toEqual([]);
    expect(judge(counts('context'), request(4), both(4))).toEqual(['budget']);
    // Under a declared fill the selection is counted as declared: with counts block, q fits beside p at 4, not at 3.
    const fill = { ...counts('block'), fill: { order: 'input', misfit: 'skip' } };
    expect(judge(fill, request(3), ok('[p]\nabcdef', ['p'], 2, [budget('q')]))).toEqual([]);
    expect(judge(fill, request(4), ok('[p]\nabcdef', ['p'], 2, [budget('q')]))).toEqual(['fill']);
  });

  it('reads fill.ties: block_id, later_first, newest_first, and the defaults', () => {
    const blocks = [b('m', 'abcd', 1, { created_at: 5 }), b('k', 'abcd', 1, { created_at: 9 }), b('z', 'abcd', 1, { created_at: 1 })];
    const request = { now: 0, budget: 1, blocks };
    const only = (id: string) =>
      ok(
        `[${id}]\nabcd`,
        [id],
        1,
        blocks.filter((x) => x.block_id !== id).map((x) => budget(x.block_id)),
      );
    const ties = (t?: string, order = 'priority') => ({ fill: { order, misfit: 'stop', ...(t ? { ties: t } : {}) } });
    expect(judge(ties(), request, only('m'))).toEqual([]);
    expect(judge(ties('input'), request, only('k'))).toEqual(['fill']);
    expect(judge(ties('block_id'), request, only('k'))).toEqual([]);
    expect(judge(ties('later_first'), request, only('z'))).toEqual([]);
    expect(judge(ties('newest_first'), request, only('k'))).toEqual([]);
    expect(judge(ties('newest_first'), request, only('m'))).toEqual(['fill']);
    // newest_first as the order: equal times later first by default, in the request's order when ties say input.
    const equal = { now: 0, budget: 1, blocks: [b('a', 'abcd', 1, { created_at: 3 }), b('c', 'abcd', 1, { created_at: 3 })] };
    const one = (id: string) => ok(`[${id}]\nabcd`, [id], 1, [budget(id === 'a' ? 'c' : 'a')]);
    expect(judge(ties(undefined, 'newest_first'), equal, one('c'))).toEqual([]);
    expect(judge(ties('input', 'newest_first'), equal, one('a'))).toEqual([]);
    expect(judge(ties('input', 'newest_first'), equal, one('c'))).toEqual(['fill']);
  });

  it('reads fill.levels whole: equal blocks are one unit, the misfit applying to the unit', () => {
    // a and b (priority 2) cost 2 together at budget 1; c (priority 1) costs 1.
    const request = { now: 0, budget: 1, blocks: [b('a', 'abcd', 2), b('b', 'abcd', 2), b('c', 'abcd', 1)] };
    const levels = (misfit: string) => ({ fill: { order: 'priority', misfit, levels: 'whole' } });
    expect(judge(levels('skip'), request, ok('[c]\nabcd', ['c'], 1, [budget('a'), budget('b')]))).toEqual([]);
    expect(judge(levels('skip'), request, ok('[a]\nabcd', ['a'], 1, [budget('b'), budget('c')]))).toEqual(['fill']);
    expect(judge(levels('stop'), request, ok('', [], 0, [budget('a'), budget('b'), budget('c')]))).toEqual([]);
    expect(judge({ fill: { order: 'priority', misfit: 'stop' } }, request, ok('[a]\nabcd', ['a'], 1, [budget('b'), budget('c')]))).toEqual([]);
  });

  it('reads design.cut: a head or tail at the declared boundary, with the marker, only where the whole block does not fit', () => {
    // 'one two three four' is 18 code points (4 tokens); at budget 2 it does not fit.
    const request = (n: number) => ({ now: 0, budget: n, blocks: [b('x', 'one two three four')] });
    const head = { cut: { keep: 'head', at: 'whitespace', marker: '…' }, fill: { order: 'priority', misfit: 'stop' } };
    expect(judge(head, request(2), ok('[x]\none two…', ['x'], 2))).toEqual([]);
    // A head that does not end before white space, a missing marker, a head that does not fit, a cut of a block that fits.
    expect(judge(head, request(2), ok('[x]\none tw…', ['x'], 2))).toEqual(['whole_blocks']);
    expect(judge(head, request(2), ok('[x]\none two', ['x'], 2))).toEqual(['whole_blocks']);
    expect(judge(head, request(2), ok('[x]\none two three…', ['x'], 2))).toEqual(['whole_blocks']);
    expect(judge(head, request(4), ok('[x]\none two…', ['x'], 2))).toEqual(['whole_blocks']);
    expect(judge({}, request(2), ok('[x]\none two…', ['x'], 2))).toEqual(['whole_blocks']);
    // A kept tail: the marker right before it, where content[n - 1] is white space; at character, any place.
    const tail = { cut: { keep: 'tail', at: 'whitespace', marker: '[…] ' } };
    expect(judge(tail, request(2), ok('[x]\n[…] four', ['x'], 2))).toEqual([]);
    expect(judge(tail, request(2), ok('[x]\n[…] our', ['x'], 2))).toEqual(['whole_blocks']);
    expect(judge({ cut: { keep: 'tail', at: 'character' } }, request(2), ok('[x]\nour', ['x'], 1))).toEqual([]);
    // Under a stop fill, the cut block is the misfit: the fill takes it cut and stops. w costs 1, x whole 4 (5 > 4),
    // 'one two three…' 3 and 'one two…' 2; y (1) would fit beside the shorter cut, but the fill has stopped.
    const two = { now: 0, budget: 4, blocks: [b('w', 'abcd', 2), b('x', 'one two three four'), b('y', 'ab', 0)] };
    expect(judge(head, two, ok('[w]\nabcd\n\n[x]\none two three…', ['w', 'x'], 4, [budget('y')]))).toEqual([]);
    expect(judge(head, two, ok('[w]\nabcd\n\n[x]\none two…\n\n[y]\nab', ['w', 'x', 'y'], 4))).toEqual(['fill']);
    // The selection with the cut text must fit: 'one two three…' beside y costs 5.
    expect(judge(head, two, ok('[w]\nabcd\n\n[x]\none two three…\n\n[y]\nab', ['w', 'x', 'y'], 4))).toEqual(['whole_blocks']);
  });

  it('reads render.empty_content: header writes the header alone, nothing writes no part and no separator', () => {
    const request = { now: 0, budget: 10, blocks: [b('a', 'abcd'), b('e', ''), b('c', 'efgh')] };
    const all = (context: string) => ok(context, ['a', 'e', 'c'], 3);
    expect(judge({}, request, all('[a]\nabcd\n\n[e]\n\n\n[c]\nefgh'))).toEqual([]);
    expect(judge({ render: { ...RENDER, footer: '<', empty_content: 'header' } }, request, all('[a]\nabcd<\n\n[e]\n\n\n[c]\nefgh<'))).toEqual([]);
    expect(judge({ render: { ...RENDER, footer: '<', empty_content: 'header' } }, request, all('[a]\nabcd<\n\n[e]\n<\n\n[c]\nefgh<'))).toEqual(['invented']);
    expect(judge({ render: { ...RENDER, empty_content: 'nothing' } }, request, all('[a]\nabcd\n\n[c]\nefgh'))).toEqual([]);
    expect(judge({ render: { ...RENDER, empty_content: 'nothing' } }, request, all('[a]\nabcd\n\n[e]\n\n\n[c]\nefgh'))).toEqual(['invented']);
    const lone = { now: 0, budget: 10, blocks: [b('e', '')] };
    expect(judge({ render: { ...RENDER, empty: '(none)', empty_content: 'nothing' } }, lone, ok('', ['e'], 1))).toEqual([]);
  });

  it('reads the marker (DES-10): its count and ids, and its place first, last or after the pinned blocks', () => {
    const blocks = [b('x', 'x'.repeat(40)), b('p', 'rule', 0, { pinned: true }), b('a', 'abcd')];
    const request = { now: 0, budget: 2, blocks };
    const marker = (where: string) => ({ marker: { text: 'Skipped {count}: {ids}', where } });
    const answer = (context: string) => ok(context, ['p', 'a'], 2, [budget('x')]);
    const pinned = ['pinned'];
    expect(judge(marker('after_pinned'), request, answer('[p]\nrule\n\nSkipped 1: x\n\n[a]\nabcd'), pinned)).toEqual([]);
    expect(judge(marker('after_pinned'), request, answer('Skipped 1: x\n\n[p]\nrule\n\n[a]\nabcd'), pinned)).toEqual(['invented']);
    expect(judge(marker('first'), request, answer('Skipped 1: x\n\n[p]\nrule\n\n[a]\nabcd'), pinned)).toEqual([]);
    expect(judge(marker('last'), request, answer('[p]\nrule\n\n[a]\nabcd\n\nSkipped 1: x'), pinned)).toEqual([]);
    expect(judge(marker('last'), request, answer('[p]\nrule\n\n[a]\nabcd\n\nSkipped 2: x'), pinned)).toEqual(['invented']);
    expect(judge(marker('last'), request, answer('[p]\nrule\n\n[a]\nabcd'), pinned)).toEqual(['invented']);
    // With no pinned block first, after_pinned stands first; with nothing included, the marker alone.
    const unpinned = { now: 0, budget: 1, blocks: [b('x', 'x'.repeat(40)), b('a', 'abcd')] };
    expect(judge(marker('after_pinned'), unpinned, ok('Skipped 1: x\n\n[a]\nabcd', ['a'], 1, [budget('x')]))).toEqual([]);
    expect(judge(marker('last'), { ...unpinned, budget: 0 }, ok('Skipped 2: x, a', [], 0, [budget('x'), budget('a')]))).toEqual([]);
    // Nothing left out: no marker.
    expect(
      judge(marker('last'), { ...unpinned, budget: 100 }, ok('[x]\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n\n[a]\nabcd\n\nSkipped 0: ', ['x', 'a'], 11)),
    ).toEqual(['invented']);
  });

  it('holds omission reasons to the truth', () => {
    const blocks = [b('a', 'abcd', 0.4), b('f', 'abcd', 0.3, { status: 'superseded' }), b('g', 'abcd', 0.5)];
    const request = (constraints?: any) => ({ now: 0, budget: 10, blocks, ...(constraints ? { constraints } : {}) });
    const answer = (reasons: Record<string, string>, included = ['g']) =>
      ok(
        included.map((id) => `[${id}]\nabcd`).join('\n\n'),
        included,
        included.length,
        Object.entries(reasons).map(([block_id, reason]) => ({ block_id, reason })),
      );
    expect(judge({}, request({ exclude: ['a'] }), answer({ a: 'excluded', f: 'superseded' }))).toEqual([]);
    expect(judge({}, request(), answer({ a: 'excluded', f: 'superseded' }))).toEqual(['accounting']);
    expect(judge({}, request({ exclude: ['a'] }), answer({ a: 'excluded', f: 'disputed' }))).toEqual(['accounting']);
    // score_floor: no included unpinned block at or below the omitted one's priority.
    expect(judge({}, request(), answer({ a: 'score_floor', f: 'score_floor' }))).toEqual([]);
    expect(judge({}, request(), answer({ g: 'score_floor', f: 'score_floor' }, ['a']))).toEqual(['accounting']);
    expect(judge({}, request(), answer({ g: 'score_floor', f: 'score_floor' }, ['a']), ['pinned'])).toEqual(['accounting']);
    const pinnedLow = [b('a', 'abcd', 0.1, { pinned: true }), b('g', 'abcd', 0.5)];
    expect(judge({}, { now: 0, budget: 10, blocks: pinnedLow }, ok('[a]\nabcd', ['a'], 1, [{ block_id: 'g', reason: 'score_floor' }]), ['pinned'])).toEqual([]);
    // duplicate: only when the request holds another block, kept or not.
    expect(judge({}, request(), answer({ a: 'duplicate', f: 'duplicate' }))).toEqual([]);
    expect(judge({}, request(), answer({ a: 'duplicate', f: 'duplicate', g: 'duplicate' }, []))).toEqual([]);
    const lone = { now: 0, budget: 10, blocks: [b('g', 'abcd', 0.5)] };
    expect(judge({}, lone, ok('', [], 0, [{ block_id: 'g', reason: 'duplicate' }]))).toEqual(['accounting']);
    // expired only for an expired block, the budget class only for a live one.
    expect(judge({}, request(), answer({ a: 'expired', f: 'superseded' }))).toEqual(['accounting']);
    const old = { now: 20, budget: 10, blocks: [b('o', 'abcd', 1, { created_at: 0, ttl_seconds: 10 }), b('g', 'abcd', 0.5)] };
    expect(judge({}, old, ok('[g]\nabcd', ['g'], 1, [{ block_id: 'o', reason: 'expired' }]))).toEqual([]);
    expect(judge({}, old, ok('[g]\nabcd', ['g'], 1, [budget('o')]))).toEqual(['accounting']);
  });
});
