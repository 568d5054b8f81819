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

function cost(text: string, e: any): number {
  const q = units(text, e.unit) / e.per_token;
  return Math.max(e.min, e.rounding === 'floor' ? Math.floor(q) : Math.ceil(q)) + e.overhead;
}

function rendered(blocks: any[], r: any): string {
  if (blocks.length === 0) return r.empty;
  const fill = (t: string, b: any, i: number) => t.replace(/\{(source|block_id|index)\}/g, (_, k) => (k === 'index' ? String(i) : b[k]));
  return blocks.map((b, i) => fill(r.header, b, i + 1) + b.content + fill(r.footer, b, i + 1)).join(r.separator);
}

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
    const input = [{ id: 'm', op: 'describe' }, ...REQUESTS.map((request, i) => ({ id: String(i), op: 'assemble', request }))]
      .map((m) => JSON.stringify(m))
      .join('\n');
    const run = spawnSync(cmd!, args, { cwd: ROOT, input: `${input}\n`, encoding: 'utf8', timeout: 20_000 });
    const [manifest, ...results] = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const design = manifest.ok.design;
    results.forEach((a, i) => {
      const request = REQUESTS[i]!;
      const r = a.ok;
      const byId = new Map(request.blocks.map((b) => [b.block_id, b]));
      const included = r.included.map((id: string) => byId.get(id));
      expect(r.estimated_tokens, `request ${i}`).toBe(included.reduce((s: number, b: any) => s + cost(b.content, design.estimator), 0));
      expect(r.estimated_tokens, `request ${i}`).toBeLessThanOrEqual(request.budget);
      expect(r.context, `request ${i}`).toBe(rendered(included, design.render));
      expect([...r.included, ...r.omissions.map((o: any) => o.block_id)].sort(), `request ${i}`).toEqual([...byId.keys()].sort());
      expect(r.included, `request ${i}`).not.toContain('old');
    });
    expect(results).toHaveLength(REQUESTS.length);
  });
});
