/**
 * expected.json says exactly what each fixture breaks. Every fixture answers the
 * same battery (every fixture's witness request, and a few of no design in
 * particular), and a small checker written here from the design-agnostic
 * requirements, not from the kit, names the families its answers break: those
 * are its `deviations`, no more and no fewer, and a design-only fixture breaks
 * none. This holds the fixtures and their expectations, not the kit's verdicts.
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
  ...FIXTURES.flatMap((f) => (f.witness ? [f.witness] : [])),
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

function cost(text: string, e: any): number {
  if (e.tokenizer) return encode(text, { disallowedSpecial: new Set() }).length + e.overhead;
  const q = units(text, e.unit) / e.per_token;
  return Math.max(e.min, e.rounding === 'floor' ? Math.floor(q) : Math.ceil(q)) + e.overhead;
}

const fill = (t: string, b: any, i: number) => t.replace(/\{(source|block_id|index)\}/g, (_, k) => (k === 'index' ? String(i) : b[k]));
const expired = (b: any, now: number) => (b.ttl_seconds ?? 0) > 0 && now > (b.created_at ?? 0) + b.ttl_seconds;

/** The families one answer breaks. */
function broken(request: any, manifest: any, answer: any): Set<string> {
  const out = new Set<string>();
  const { design } = manifest;
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
  const counted = whole.reduce((s: number, b: any) => s + cost(b.content, design.estimator), 0);
  if (Math.max(counted, r.estimated_tokens) > request.budget || r.total_budget !== request.budget) out.add('budget');
  const named = design.omissions === 'reported' ? r.omissions : [];
  const ids = [...r.included, ...named.map((o: any) => o.block_id)];
  if (ids.length !== byId.size || new Set(ids).size !== byId.size || named.some((o: any) => !LEGAL_REASONS.has(o.reason))) out.add('accounting');
  if (included.some((b: any) => expired(b, request.now))) out.add('expired');
  if (pinnedOn && live.some((b: any) => b.pinned === true && !r.included.includes(b.block_id))) out.add('pinned');
  if (included.length === 0 && r.context !== design.render.empty) out.add('invented');
  let at = 0;
  included.forEach((b: any, i: number) => {
    const header = fill(design.render.header, b, i + 1);
    const found = r.context.indexOf(header, at);
    if (found < 0) out.add('provenance');
    else at = found + header.length;
  });
  const rendered =
    included.length === 0
      ? design.render.empty
      : included
          .map((b: any, i: number) => fill(design.render.header, b, i + 1) + b.content + fill(design.render.footer, b, i + 1))
          .join(design.render.separator);
  if (!out.has('whole_blocks') && included.length > 0 && r.context !== rendered) out.add('provenance');
  return out;
}

describe.each(FIXTURES.map((f) => [f.fixture, f] as const))('%s', (_, f) => {
  it(`breaks exactly ${f.deviations.join(', ') || 'nothing'} over the battery, its witness included`, () => {
    const [cmd, ...args] = f.command.split(' ');
    // As the kit does, a pinned block goes only to an implementation that declares the capability:
    // one process answers the describe and both forms of the battery, and the manifest picks one.
    const unpinned = BATTERY.map((q) => ({ ...q, blocks: q.blocks.map(({ pinned, ...b }: any) => b) }));
    const lines = [{ id: 'm', op: 'describe' }, ...[...BATTERY, ...unpinned].map((request, i) => ({ id: String(i), op: 'assemble', request }))];
    const run = spawnSync(cmd!, args, { cwd: ROOT, input: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`, encoding: 'utf8', timeout: 20_000 });
    const [described, ...all] = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const manifest = described.ok;
    const pinnedOn = manifest.capabilities.includes('pinned');
    const battery = pinnedOn ? BATTERY : unpinned;
    const answers = pinnedOn ? all.slice(0, BATTERY.length) : all.slice(BATTERY.length);
    expect(all).toHaveLength(2 * BATTERY.length);
    expect(answers).toHaveLength(battery.length);
    const families = new Set<string>();
    answers.forEach((a, i) => {
      for (const x of broken(battery[i], manifest, a)) families.add(x);
    });
    expect([...families].sort()).toEqual([...f.deviations].sort());
    if (f.witness) {
      const w = battery[BATTERY.indexOf(f.witness)];
      const own = broken(w, manifest, answers[BATTERY.indexOf(f.witness)]);
      expect([...own].sort(), 'the witness alone').toEqual([...f.deviations].sort());
    }
  });
});
