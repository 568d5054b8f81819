/**
 * What a manifest declares of its design is what the implementation does: for the
 * example wrappers of adapters/examples/any-design and the design-only fixtures,
 * each answer's `estimated_tokens` is the declared estimator's sum over `included`
 * and its `context` the declared render of the included blocks, on requests whose
 * contents tell the units apart (a surrogate pair is 1 code point, 2 UTF-16 units,
 * 4 UTF-8 bytes). The estimator and render are computed here from the manifest's
 * words (the brief's formula), not by the implementations' own code.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES: { fixture: string; command: string; design_only: boolean }[] = JSON.parse(
  readFileSync(`${ROOT}test/fixtures/designs/expected.json`, 'utf8'),
).fixtures;

const COMMANDS: [string, string][] = [
  ['example wrapper.py', 'python3 adapters/examples/any-design/wrapper.py'],
  ['example wrapper.mjs', 'node adapters/examples/any-design/wrapper.mjs'],
  ...FIXTURES.filter((f) => f.design_only && f.fixture !== 'tokenizer').map((f): [string, string] => [f.fixture, f.command]),
];

function units(text: string, unit: string): number {
  if (unit === 'code_points') return [...text].length;
  if (unit === 'utf16') return text.length;
  if (unit === 'utf8_bytes') return new TextEncoder().encode(text).length;
  if (unit === 'words') return text.split(/\s+/).filter((w) => w !== '').length;
  throw new Error(`unit ${unit}`);
}

/** The estimator run once over a text (DES-1): a tokenizer's count, or the unit divided, rounded, at least min. */
function once(text: string, e: any): number {
  if (e.tokenizer !== undefined) return (e.tokenizer === 'cl100k_base' ? encodeCl100k : encode)(text, { disallowedSpecial: new Set() }).length;
  const q = units(text, e.unit) / (e.per_token ?? 4);
  return Math.max(e.min ?? 1, (e.rounding ?? 'floor') === 'floor' ? Math.floor(q) : Math.ceil(q));
}

/**
 * A selection's cost (DES-1): by `counts`, each content counted (or all of them joined by `join`), each
 * block as written, each block as written and the separator after it, or the written blocks joined by the
 * separator counted once; a block written as nothing counts nothing; `overhead` a block, `context_overhead` once.
 */
function cost(blocks: any[], design: any, members: string[]): number {
  const e = design.estimator;
  if (blocks.length === 0) return 0;
  const contents = blocks.map((b) => b.content);
  const pieces = blocks.map((b, i) => piece(b, i, design.render, members));
  const sep = design.render.separator;
  const counts = e.counts ?? 'content';
  const base =
    counts === 'context'
      ? once(pieces.filter((p) => p !== undefined).join(sep), e)
      : counts === 'block' || counts === 'block_and_separator'
        ? pieces.reduce((s: number, p) => s + (p === undefined ? 0 : once(counts === 'block' ? p : p + sep, e)), 0)
        : e.join !== undefined
          ? once(contents.join(e.join), e)
          : contents.reduce((s, c) => s + once(c, e), 0);
  return base + (e.overhead ?? 0) * blocks.length + (e.context_overhead ?? 0);
}

/** DES-2's template for one block: `{{`/`}}` one brace, `{field}` or `{field:.Nf|upper|lower}` the block's value or "", other braces as they are. */
function fill(t: string, b: any, index: number, members: string[]): string {
  const fields = ['source', 'block_id', 'index', 'priority', 'confidence', 'created_at', 'status', 'lines', ...members];
  return t.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (whole, inner?: string) => {
    if (inner === undefined) return whole[0]!;
    const [name, format, ...rest] = inner.split(':');
    if (rest.length > 0 || !fields.includes(name!) || (format !== undefined && !/^(\.([0-9]|10)f|upper|lower)$/.test(format))) return whole;
    const value = name === 'index' ? index : name === 'lines' ? b.content.split('\n').length : b[name!];
    if (value === undefined) return '';
    if (format === 'upper') return String(value).toUpperCase();
    if (format === 'lower') return String(value).toLowerCase();
    if (format !== undefined && typeof value === 'number') return value.toFixed(Number(format.slice(1, -1)));
    return String(value);
  });
}

/** A header or footer's template for a block: itself, or a choice's case for the block's member (pinned: "true"/"false"), else its default. */
function choose(spec: any, b: any): string {
  if (spec === undefined) return '';
  if (typeof spec === 'string') return spec;
  const key = spec.by === 'pinned' ? String(b.pinned === true) : String(b[spec.by] ?? '');
  return choose(spec.cases !== undefined && Object.hasOwn(spec.cases, key) ? spec.cases[key] : spec.default, b);
}

/** One block as written at 0-based place i: header, content, footer; an empty content as its header alone or nothing, as `empty_content` says. */
function piece(b: any, i: number, r: any, members: string[]): string | undefined {
  if (b.content === '' && r.empty_content === 'nothing') return undefined;
  const header = fill(choose(r.header, b), b, i + 1, members);
  if (b.content === '' && r.empty_content === 'header') return header;
  return header + b.content + fill(choose(r.footer, b), b, i + 1, members);
}

function rendered(blocks: any[], r: any, members: string[]): string {
  if (blocks.length === 0) return r.empty;
  return blocks.flatMap((b, i) => piece(b, i, r, members) ?? []).join(r.separator);
}

/** The request as the kit sends it to a design that declares members (DES-5): the block at place i carries the i mod n-th value. */
const withMembers = (request: any, members: Record<string, string[]>) => ({
  ...request,
  blocks: request.blocks.map((b: any, i: number) => ({ ...b, ...Object.fromEntries(Object.entries(members).map(([m, v]) => [m, v[i % v.length]])) })),
});

const REQUESTS = [
  {
    now: 50,
    budget: 40,
    blocks: [
      { block_id: 'emoji', source: 'chat', content: '👍👍👍👍👍👍👍👍 thumbs', priority: 2 },
      { block_id: 'accents', source: 'docs', content: 'café crème brûlée', priority: 1.5 },
      { block_id: 'empty', source: 'docs', content: '', priority: 1 },
      { block_id: 'braces', source: '{block_id}', content: 'a source that reads like a placeholder', priority: 0.9 },
      { block_id: 'old', source: 'docs', content: 'expired', priority: 3, created_at: 0, ttl_seconds: 10 },
      { block_id: 'big', source: 'docs', content: 'x'.repeat(400), priority: 0.75 },
    ],
  },
  { now: 0, budget: 0, blocks: [{ block_id: 'a', source: 's', content: 'abcdefgh', priority: 1 }] },
  { now: 0, budget: 7, blocks: [] },
];

describe.each(COMMANDS)('%s answers as its manifest declares', (_, command) => {
  it('costs by the declared estimator and renders by the declared template', () => {
    const [cmd, ...args] = command.split(' ');
    const exchange = (messages: unknown[]) =>
      spawnSync(cmd!, args, { cwd: ROOT, input: `${messages.map((m) => JSON.stringify(m)).join('\n')}\n`, encoding: 'utf8', timeout: 20_000 })
        .stdout.trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    const design = exchange([{ id: 'm', op: 'describe' }])[0].ok.design;
    const members = Object.keys(design.members ?? {});
    const requests = REQUESTS.map((q) => withMembers(q, design.members ?? {}));
    const results = exchange(requests.map((request, i) => ({ id: String(i), op: 'assemble', request })));
    results.forEach((a, i) => {
      const request = requests[i]!;
      const r = a.ok;
      const byId = new Map<string, any>(request.blocks.map((b: any) => [b.block_id, b]));
      const included = r.included.map((id: string) => byId.get(id));
      const spent = cost(included, design, members);
      // A sum of fractional overheads is answered rounded up (a whole one as it is), read within one part in a billion.
      expect(r.estimated_tokens, `request ${i}`).toBe(spent === 0 ? 0 : Math.ceil(spent - 1e-9 * Math.max(1, spent)));
      expect(r.estimated_tokens, `request ${i}`).toBeLessThanOrEqual(request.budget);
      expect(r.context, `request ${i}`).toBe(rendered(included, design.render, members));
      expect([...r.included, ...r.omissions.map((o: any) => o.block_id)].sort(), `request ${i}`).toEqual([...byId.keys()].sort());
      expect(r.included, `request ${i}`).not.toContain('old');
    });
    expect(results).toHaveLength(REQUESTS.length);
  });
});
