/**
 * expected.json says exactly what each fixture breaks. Every fixture answers the
 * same battery (every fixture's witness request, and a few of no design in
 * particular) and each request's twin (ANY-7), and a small checker written here
 * from the design-agnostic requirements, not from the kit, names the families its
 * answers break: those are its `deviations`, no more and no fewer, and a
 * design-only fixture breaks none. This holds the fixtures and their
 * expectations, not the kit's verdicts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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
  if (e.tokenizer) return encode(text, { disallowedSpecial: new Set() }).length;
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

const expired = (b: any, now: number) => (b.ttl_seconds ?? 0) > 0 && now > (b.created_at ?? 0) + b.ttl_seconds;

/** The reasons of section 10's budget class: a drop for the budget. */
const BUDGET_REASONS = new Set(['budget', 'budget_exhausted', 'tier budget exhausted; overflow pool exhausted']);

/** A cost held to the budget within one part in a billion (DES-1). */
const within = (spent: number, budget: number) => spent <= budget + 1e-9 * Math.max(1, budget);

/**
 * The blocks in a declared order (DES-7's fill order, DES-8's `by`), read from the words: priority
 * highest first; oldest_first and chronological by created_at (absent 0); input as sent; equal keys
 * in the request's order (`blocks` are given in it). newest_first is the history listed oldest first
 * read from its end: of two equal times, the later in the request first.
 */
function inOrder(blocks: any[], by: string): any[] {
  if (by === 'newest_first') return inOrder(blocks, 'oldest_first').reverse();
  const key: (b: any) => number = by === 'priority' ? (b) => -b.priority : by === 'input' ? () => 0 : (b) => b.created_at ?? 0;
  return blocks
    .map((b, i) => ({ b, i }))
    .sort((x, y) => key(x.b) - key(y.b) || x.i - y.i)
    .map(({ b }) => b);
}

/**
 * fill (ANY-14). The candidates are the live blocks the answer does not omit for a reason outside the
 * budget class. Under a declared fill (DES-7): the live pinned candidates (pinned declared) first, in
 * the request's order, then the others in the fill's order, each taken when the selection with it
 * costs at most the budget, the rest skipped or, at the first misfit with `stop`, left; the live
 * blocks included are exactly those. Without one: when all candidates together fit, none is omitted
 * for the budget. Not judged for `"fill": "own"` (its drops for the budget are its own), nor where
 * another family has the answer: an expired block kept (expired), pinned blocks over the budget
 * (budget); a cut (whole_blocks) is left by the caller.
 */
function fillBroken(request: any, manifest: any, r: any, named: any[]): boolean {
  const { design } = manifest;
  if (design.fill === 'own') return false;
  const reasonOf = new Map<string, string>(named.map((o: any) => [o.block_id, o.reason]));
  const included = new Set<string>(r.included);
  const live = request.blocks.filter((b: any) => !expired(b, request.now));
  if (request.blocks.some((b: any) => included.has(b.block_id) && expired(b, request.now))) return false;
  // With groups (DES-9), a group with an expired block is no candidate, and one with a live pinned block is taken with the pinned blocks.
  const groupOf = (b: any): string | undefined =>
    design.groups && typeof b[design.groups] === 'string' && b[design.groups] !== '' ? b[design.groups] : undefined;
  const gone = new Set(request.blocks.filter((b: any) => expired(b, request.now) && groupOf(b) !== undefined).map(groupOf));
  const candidates = live.filter(
    (b: any) =>
      (included.has(b.block_id) || !reasonOf.has(b.block_id) || BUDGET_REASONS.has(reasonOf.get(b.block_id)!)) && (b.pinned === true || !gone.has(groupOf(b))),
  );
  const droppedForBudget = candidates.filter((b: any) => !included.has(b.block_id) && BUDGET_REASONS.has(reasonOf.get(b.block_id) ?? ''));
  const costOf = (blocks: any[]) =>
    cost(
      blocks.map((b) => b.content),
      design.estimator,
    );
  const pinnedOn = manifest.capabilities.includes('pinned');
  const heldGroups = new Set(candidates.filter((b: any) => pinnedOn && b.pinned === true && groupOf(b) !== undefined).map(groupOf));
  const isPinned = (b: any) => (pinnedOn && b.pinned === true) || heldGroups.has(groupOf(b));
  const taken = candidates.filter(isPinned);
  if (!within(costOf(taken), request.budget)) return false;
  if (design.fill === undefined) return droppedForBudget.length > 0 && within(costOf(candidates), request.budget);
  // A group is considered where the first of its blocks stands in the fill's order, all of them together.
  const units: any[][] = [];
  for (const b of inOrder(
    candidates.filter((b: any) => !isPinned(b)),
    design.fill.order,
  )) {
    const unit = groupOf(b) === undefined ? undefined : units.find((u) => groupOf(u[0]) === groupOf(b));
    if (unit) unit.push(b);
    else units.push([b]);
  }
  for (const unit of units) {
    if (within(costOf([...taken, ...unit]), request.budget)) taken.push(...unit);
    else if (design.fill.misfit === 'stop') break;
  }
  const want = new Set(taken.map((b: any) => b.block_id));
  const got = live.filter((b: any) => included.has(b.block_id)).map((b: any) => b.block_id);
  return got.length !== want.size || got.some((id: string) => !want.has(id));
}

/** order (ANY-15): with a declared context order (DES-8), included lists its blocks in it: pinned ones first, in the request's order, with pinned_first. */
function orderBroken(request: any, design: any, r: any): boolean {
  const order = design.context_order;
  if (order === undefined) return false;
  const listed = new Set<string>(r.included);
  const inRequest = request.blocks.filter((b: any) => listed.has(b.block_id));
  const first = order.pinned_first === true ? inRequest.filter((b: any) => b.pinned === true) : [];
  const expected = [
    ...first,
    ...inOrder(
      inRequest.filter((b: any) => !first.includes(b)),
      order.by,
    ),
  ].map((b: any) => b.block_id);
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
  const groups = new Map<string, any[]>();
  for (const b of request.blocks) if (typeof b[member] === 'string' && b[member] !== '') groups.set(b[member], [...(groups.get(b[member]) ?? []), b]);
  return [...groups.values()].some((blocks) => {
    if (blocks.length < 2) return false;
    if (blocks.some((b) => expired(b, request.now)) && blocks.some((b) => pinnedOn && b.pinned === true && !expired(b, request.now))) return false;
    const kept = blocks.filter((b) => r.included.includes(b.block_id)).length;
    return kept > 0 && kept < blocks.length;
  });
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
  const live = request.blocks.filter((b: any) => !expired(b, request.now));
  if (answer.error) {
    if (!(pinnedOn && answer.error.code === 'pinned_overflow')) out.add('answered');
    return out;
  }
  const r = answer.ok;
  const byId = new Map(request.blocks.map((b: any) => [b.block_id, b]));
  const included = r.included.map((id: string) => byId.get(id));
  const whole = included.filter((b: any) => r.context.includes(b.content));
  if (whole.length < included.length) out.add('whole_blocks');
  // A block that does not appear whole is a whole_blocks failure; its full cost against the budget would fail the budget for the same cut.
  const spent = cost(
    whole.map((b: any) => b.content),
    design.estimator,
  );
  // Fractional overheads are summed as they are: held to the budget within one part in a billion (DES-1).
  if (Math.max(spent, r.estimated_tokens) > request.budget + 1e-9 * Math.max(1, request.budget) || r.total_budget !== request.budget) out.add('budget');
  const named = design.omissions === 'reported' ? r.omissions : [];
  const ids = [...r.included, ...named.map((o: any) => o.block_id)];
  if (ids.length !== byId.size || new Set(ids).size !== byId.size || named.some((o: any) => !LEGAL_REASONS.has(o.reason))) out.add('accounting');
  if (included.some((b: any) => expired(b, request.now))) out.add('expired');
  if (pinnedOn && live.some((b: any) => b.pinned === true && !r.included.includes(b.block_id))) out.add('pinned');
  if (groupsBroken(request, manifest, r)) out.add('groups');
  // A block cut to fit, or a split group, leaves the fill to whole_blocks or groups (ANY-14).
  if (!out.has('whole_blocks') && !out.has('groups') && fillBroken(request, manifest, r, named)) out.add('fill');
  if (orderBroken(request, design, r)) out.add('order');
  if (included.length === 0) {
    if (r.context !== design.render.empty) out.add('invented');
    return out;
  }
  const header = (b: any, i: number) => fill(choose(design.render.header, b), b, i + 1, members);
  const footer = (b: any, i: number) => fill(choose(design.render.footer, b), b, i + 1, members);
  // Provenance (ANY-10), for a render that names its blocks: each block's own header, in order.
  if (namesBlocks(design.render, members)) {
    let at = 0;
    included.forEach((b: any, i: number) => {
      const found = r.context.indexOf(header(b, i), at);
      if (found < 0) out.add('provenance');
      else at = found + header(b, i).length;
    });
  }
  // Nothing invented (ANY-11): with every content whole and every header its own, the context is exactly the render.
  const rendered = included.map((b: any, i: number) => header(b, i) + b.content + footer(b, i)).join(design.render.separator);
  if (!out.has('whole_blocks') && !out.has('provenance') && r.context !== rendered) out.add('invented');
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
