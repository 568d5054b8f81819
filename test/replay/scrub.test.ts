/**
 * The scrub claim: the reference answers a scrubbed request
 * with the same selection, reasons and order as the original, modulo the
 * renaming, over the whole corpus and random requests, valid and invalid; and
 * nothing of the original text is left in the copy.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openModule } from '../../adapters/inprocess.js';
import { encodeRequest } from '../../adapters/wire.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { replay } from '../../traffic/replay/run.js';
import { request } from '../../judging/properties/arbitraries.js';
import { invalidRequest } from '../../judging/properties/corruptions.js';
import { filler, scrubRequest } from '../../traffic/scrub.js';
import type { Scrubbed } from '../../traffic/scrub.js';
import { assemble, CAPABILITIES, codePointLength, compareCodePoints, isErrorAnswer, SOURCE_TO_TIER, tierOf } from '../../reference/index.js';
import type { Result } from '../../reference/index.js';
import { cliWith } from '../cli.js';

const SEED = 20261129;

/** The reference's answer with every id and source renamed as the scrub renamed them; context aside (its text is filler). */
function renamedAnswer(request: unknown, ids: Map<string, string>, sources: Map<string, string>): unknown {
  const a = assemble(request, { capabilities: CAPABILITIES });
  if (isErrorAnswer(a)) return { error: a.error.code };
  const id = (x: string): string => ids.get(x) ?? `unmapped ${x}`;
  const r = a as Result;
  return {
    included: r.included.map(id),
    omissions: r.omissions.map((o) => [id(o.block_id), o.reason]),
    estimated_tokens: r.estimated_tokens,
    total_budget: r.total_budget,
    context_length: codePointLength(r.context) > 0,
    segments: r.segments?.map((s) => ({ ...s, block_id: id(s.block_id), source: sources.get(s.source) ?? `unmapped ${s.source}` })),
    truncated: r.truncated,
    warnings: r.warnings?.map((w) => ({ code: w.code, ...(w.block_id !== undefined ? { block_id: id(w.block_id) } : {}) })),
    generated_at: r.generated_at,
  };
}

/** The scrubbed answer in the same view, nothing renamed. */
function scrubbedAnswer(request: unknown): unknown {
  const identity = new Map<string, string>();
  const a = assemble(request, { capabilities: CAPABILITIES });
  if (isErrorAnswer(a)) return { error: a.error.code };
  const r = a as Result;
  for (const x of [...r.included, ...r.omissions.map((o) => o.block_id), ...(r.warnings ?? []).flatMap((w) => (w.block_id ? [w.block_id] : []))])
    identity.set(x, x);
  const sources = new Map((r.segments ?? []).map((s) => [s.source, s.source]));
  return renamedAnswer(request, identity, sources);
}

/** `s` is the original's scrubbed copy (scrubRequest is pure: a test that also reads the copy passes the one it made). */
function expectSameAnswer(original: unknown, s: Scrubbed = scrubRequest(original)): void {
  expect(scrubbedAnswer(s.request)).toEqual(renamedAnswer(original, s.ids, s.sources));
}

const FILLERS = new Set(['x', '\u03c7', '\uff58', '\u{1d465}']);
/** Only filler characters and lone surrogates (which the scrub keeps: they are no text). */
const isFiller = (v: string): boolean => [...v].every((ch) => FILLERS.has(ch) || (ch.length === 1 && ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) <= 0xdfff));

/** Every string of the copy (`s`, the original's scrubbed copy) is filler, an opaque id, a tier source, a renamed source or an enumerated value. */
function leftovers(s: Scrubbed): string[] {
  const allowed = new Set([...s.ids.values(), ...s.sources.values(), 'tiered', 'ranked', 'active', 'disputed', 'superseded', 'stale', '']);
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (!allowed.has(v) && !isFiller(v)) out.push(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
  };
  walk(s.request);
  return out;
}

describe('filler', () => {
  it('keeps the code-point, UTF-16 and UTF-8 lengths of every character, and keeps lone surrogates', () => {
    const s = 'a\u00e9\u4e2d\u{1f600}\ud800z\u0301\n';
    const f = filler(s);
    expect([...f].length).toBe([...s].length);
    expect(f.length).toBe(s.length);
    expect(Buffer.byteLength(f.replace(/\ud800/g, ''))).toBe(Buffer.byteLength(s.replace(/\ud800/g, '')));
    expect(f).toBe('x\u03c7\uff58\u{1d465}\ud800x\u03c7x');
  });
});

describe('scrubRequest', () => {
  it('numbers ids in code-point order, renames must_include and exclude alike, keeps duplicates and -0', () => {
    const s = scrubRequest({
      now: 0,
      budget: 5,
      blocks: [
        { block_id: 'zeta', source: 'notes', content: 'secret', priority: 1 },
        { block_id: 'alpha', source: 'memory', content: 'secret', priority: 1 },
        { block_id: 'alpha', source: 'Memory', content: '', priority: -0 },
      ],
      constraints: { must_include: ['zeta', 'gone'], exclude: ['alpha'] },
    });
    expect(s.request).toEqual({
      now: 0,
      budget: 5,
      blocks: [
        { block_id: 'b2', source: expect.any(String), content: 'xxxxxx', priority: 1 },
        { block_id: 'b0', source: 'memory', content: 'xxxxxx', priority: 1 },
        { block_id: 'b0', source: expect.any(String), content: '', priority: -0 },
      ],
      constraints: { must_include: ['b2', 'b1'], exclude: ['b0'] },
    });
    expect(Object.is((s.request as { blocks: { priority: number }[] }).blocks[2]!.priority, -0)).toBe(true);
  });

  it('where UTF-16 order is not code-point order on the ids (U+FF5E against U+1F600), renames them keeping both orders', () => {
    const ids = ['\u{1f600}', '\uff5e', 'k\u{1f600}x', 'k\uff5e', 'a', '\udc00', '\u{10000}'];
    const s = scrubRequest({ now: 0, budget: 5, blocks: ids.map((block_id) => ({ block_id, source: 's', content: '', priority: 0 })) });
    const renamed = ids.map((id) => s.ids.get(id)!);
    const utf16 = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    for (const cmp of [compareCodePoints, utf16]) {
      const order = ids.map((_, i) => i).sort((i, j) => cmp(ids[i]!, ids[j]!));
      const renamedOrder = ids.map((_, i) => i).sort((i, j) => cmp(renamed[i]!, renamed[j]!));
      expect(renamedOrder).toEqual(order);
    }
    expect(renamed.join('')).not.toMatch(/[\uff5e\u{1f600}ak]/u);
    expect(new Set(renamed).size).toBe(ids.length);
  });

  it('keeps tier sources, and puts every other source where it sat in code-point order, naming no tier', () => {
    const others = [
      'Memory',
      'a',
      'coverage ',
      'd',
      'knowledgf',
      'memory_x',
      'tactics2',
      'tool_results\u{1f600}',
      'zzz',
      '\u00e9pisodes',
      '__proto__',
      'constructor',
      'waf_info!',
    ];
    const all = [...Object.keys(SOURCE_TO_TIER), ...others];
    const s = scrubRequest({ now: 0, budget: 1, blocks: all.map((source, i) => ({ block_id: `b${i}`, source, content: '', priority: 0 })) });
    for (const t of Object.keys(SOURCE_TO_TIER)) expect(s.sources.get(t)).toBe(t);
    for (const o of others) {
      const n = s.sources.get(o)!;
      expect(Object.hasOwn(SOURCE_TO_TIER, n), `${o} -> ${n}`).toBe(false);
      expect(tierOf(n)).toBe('working');
      expect(n).toMatch(/^[a-z]+\d+$/);
    }
    const sorted = [...all].sort(compareCodePoints);
    const renamedSorted = sorted.map((x) => s.sources.get(x)!);
    expect([...renamedSorted].sort(compareCodePoints)).toEqual(renamedSorted);
    expect(new Set(renamedSorted).size).toBe(all.length);
  });

  it('leaves a member named __proto__ a plain member, and scrubs strings in members the spec does not define', () => {
    const original = JSON.parse(
      '{"now":1,"budget":9,"blocks":[{"block_id":"a","source":"s","content":"c","priority":1,"__proto__":{"note":"private"}}],"trace":{"user":"alice@example.com","n":3}}',
    ) as unknown;
    const s = scrubRequest(original).request as { blocks: Record<string, unknown>[]; trace: unknown };
    expect(Object.getPrototypeOf(s.blocks[0])).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(s.blocks[0], '__proto__')?.value).toEqual({ note: 'xxxxxxx' });
    expect(s.trace).toEqual({ user: 'xxxxxxxxxxxxxxxxx', n: 3 });
  });

  it('keeps profile and status only when they hold a value the spec defines', () => {
    const s = scrubRequest({
      profile: 'Ranked',
      now: 0,
      budget: 0,
      blocks: [
        { block_id: 'a', source: 'x', content: '', priority: 0, status: 'Active' },
        { block_id: 'b', source: 'x', content: '', priority: 0, status: 'stale' },
      ],
    }).request as Record<string, unknown> & { blocks: { status: string }[] };
    expect(s.profile).toBe('xxxxxx');
    expect(s.blocks.map((b) => b.status)).toEqual(['xxxxxx', 'stale']);
  });
});

/** The bundled cases, loaded once for the claim over them and for the recording the command line scrubs (read only). */
const CORPUS = loadCorpus().cases;

describe('the reference answers a scrubbed request as the original, modulo the renaming', () => {
  const corpus = CORPUS;

  it(`over every request of the corpus (${corpus.length})`, () => {
    expect(corpus.length).toBeGreaterThan(150);
    for (const c of corpus) {
      const s = scrubRequest(c.request);
      expect(scrubbedAnswer(s.request), c.id).toEqual(renamedAnswer(c.request, s.ids, s.sources));
      expect(leftovers(s), c.id).toEqual([]);
    }
  });

  const gen = { profiles: ['tiered', 'ranked'], capabilities: [...CAPABILITIES] };
  it("over 3000 random valid requests of the properties' generators", () => {
    fc.assert(
      fc.property(request(gen), (r) => {
        const s = scrubRequest(r);
        expectSameAnswer(r, s);
        expect(leftovers(s)).toEqual([]);
      }),
      { numRuns: 3000, seed: SEED },
    );
  });

  it('over 1000 random invalid requests (one member broken): still invalid', () => {
    fc.assert(
      fc.property(invalidRequest(gen), ({ request: r }) => {
        expectSameAnswer(r);
      }),
      { numRuns: 1000, seed: SEED },
    );
  });
});

describe('ctxconform scrub', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-scrub-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const cli = (...args: string[]) => cliWith({ cwd: tmp }, 'scrub', ...args);
  const lines = CORPUS.map((c) => encodeRequest(c.request)).flatMap((e) => (e.ok ? [e.json] : []));
  writeFileSync(join(tmp, 'traffic.jsonl'), lines.join('\n') + '\n');

  it('copies every request, in order, gzip when OUT ends in .gz; an implementation that miscounts still fails the copy where it failed the original', async () => {
    const r = cli('traffic.jsonl', 'shared.jsonl.gz');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`scrubbed ${lines.length} requests from traffic.jsonl into shared.jsonl.gz`);
    const copy = gunzipSync(readFileSync(join(tmp, 'shared.jsonl.gz')))
      .toString('utf8')
      .trimEnd()
      .split('\n');
    expect(copy).toHaveLength(lines.length);
    expect(copy.some((l) => l.includes('-0.0'))).toBe(true);
    // Lengths, astral characters and id order kept: these defects show on the copy exactly as on the original.
    for (const name of ['utf16-lengths', 'utf16-id-order', 'no-overflow-pool']) {
      const impl = await openModule(join(root, `test/fixtures/broken/${name}.ts`));
      const manifest = await impl.describe();
      const statuses = async (path: string): Promise<string[]> =>
        (
          await replay({ sources: [{ path, label: 'x' }], impl, manifest, timeoutMs: 5000, concurrency: 1, twice: false, shrink: 0, maxListed: 10_000 })
        ).cases.map((c) => c.status);
      const original = await statuses(join(tmp, 'traffic.jsonl'));
      expect(original).toContain('fail');
      expect(await statuses(join(tmp, 'shared.jsonl.gz')), name).toEqual(original);
    }
  });

  it('leaves out an unreadable line, naming it (exit 1), and refuses to write over IN (exit 2)', () => {
    writeFileSync(join(tmp, 'bad.jsonl'), '{"now":1,"budget":2,"blocks":[]}\nnot json\n');
    const r = cli('bad.jsonl', 'bad-out.jsonl');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('bad.jsonl:2: left out, unreadable: not JSON');
    expect(readFileSync(join(tmp, 'bad-out.jsonl'), 'utf8')).toBe('{"now":1,"budget":2,"blocks":[]}\n');
    expect(cli('bad.jsonl', './bad.jsonl').status).toBe(2);
    expect(cli('bad.jsonl').status).toBe(2);
    expect(cli('nope.jsonl', 'x.jsonl').stderr).toContain('cannot read nope.jsonl');
  });
});
