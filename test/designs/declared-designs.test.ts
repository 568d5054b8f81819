/**
 * The fixtures of designs that declare the newer members of a manifest's `design` (expiry,
 * estimator.counts, fill.ties and fill.levels, cut, render.empty_content) do what their
 * descriptions say: each answers small requests, worked out by hand from its top comment,
 * with the deviation each plant adds (or none). These hold the fixtures, not the kit: the
 * kit's verdicts on them are held to expected.json elsewhere (kit-verdicts.test.ts), and
 * what a checker written from the requirements finds in them in witness.test.ts.
 */
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { DIR, EXPECTED, entry, fixtureProcesses, ROOT } from './running-fixtures.js';

const { exchange, closeAll } = fixtureProcesses();
afterAll(async () => {
  // End of input means exit (PROTO-3): every fixture ends on its own, with status 0.
  expect((await closeAll()).every((c) => c === 0)).toBe(true);
});

let sent = 0;
const manifestOf = async (name: string): Promise<any> => (await exchange(name, [{ id: `m${++sent}`, op: 'describe' }]))[0].ok;
/** The one answer to `request`, an error answer or a result, as sent. */
const raw = async (name: string, request: unknown): Promise<any> => (await exchange(name, [{ id: `q${++sent}`, op: 'assemble', request }]))[0];
/** The result of `request`; an error answer fails the test. */
async function answer(name: string, request: unknown): Promise<any> {
  const a = await raw(name, request);
  expect(a.error, name).toBeUndefined();
  return a.ok;
}
/** The fixture's own witness (expected.json), answered. */
const onWitness = async (name: string, fixture = name): Promise<any> => answer(fixture, entry(name).witness);

const block = (block_id: string, content: string, priority: number, extra: Record<string, unknown> = {}) => ({
  block_id,
  source: 'kb',
  content,
  priority,
  ...extra,
});
const ask = (budget: number, blocks: unknown[], now = 0) => ({ now, budget, blocks });
const AS_TEXT = { disallowedSpecial: new Set<string>() };

const FIXTURES = ['scored-memories', 'priority-pruner', 'priority-cutoff', 'chunk-cutter', 'sectioned-prompt'];

describe('the declared-design fixtures', () => {
  it('each has entries in expected.json: the design without deviation, each plant with its families and a witness', () => {
    for (const name of FIXTURES) {
      const own = EXPECTED.filter((e) => e.file === `${DIR}${name}.mjs`);
      expect(own.find((e) => e.fixture === name)?.deviations, name).toEqual([]);
      for (const e of own.filter((e) => e.fixture !== name)) {
        expect(e.command, e.fixture).toBe(`node ${DIR}${name}.mjs --plant ${e.fixture.slice(name.length + 1)}`);
        expect(e.deviations.length, e.fixture).toBeGreaterThan(0);
        expect(e.witness, e.fixture).toBeDefined();
      }
    }
  });

  it.each(EXPECTED.filter((e) => FIXTURES.some((n) => e.file === `${DIR}${n}.mjs`)).map((e) => e.fixture))(
    '%s describes the same design as its plain fixture, under its own name, at the any level',
    async (name) => {
      const plain = FIXTURES.find((n) => name.startsWith(n))!;
      const [m, base] = [await manifestOf(name), await manifestOf(plain)];
      expect(m.name).toBe(`design-${name}`);
      expect(m.design).toEqual(base.design);
      expect(m).toMatchObject({ profiles: ['any'], validates: false, language: 'javascript' });
    },
  );

  it('refuses an unknown plant at start', async () => {
    for (const name of FIXTURES) {
      const child = spawn('node', [`${DIR}${name}.mjs`, '--plant', 'nonsense'], { cwd: ROOT });
      const code = await new Promise((done) => child.on('exit', done));
      expect(code, name).not.toBe(0);
    }
  });
});

describe('scored-memories: pinned first, then by priority with block_id ties, skipping misfits; cl100k_base of each rendered block', () => {
  // cl100k_base, counted alone for each rendered block (header and content):
  const costs: Record<string, string> = {
    '### sys (sys)\nBe brief.': '8',
    '### kb (m-a)\nRoll back the deploy.': '11',
    '### kb (m-b)\nRoll back the deploy.': '11',
    [`### kb (big)\n${'word '.repeat(20)}`]: '26',
    '### kb (tiny)\nok': '6',
    '### kb (a)\nRoll back the deploy.': '10',
    '### kb (sp)\n<|endoftext|>': '12',
    '### sys (rule)\nAnswer in English.': '9',
    '### kb (edge)\nRoll back the deploy.': '10',
  };
  it('counts the rendered blocks as the comments below say', () => {
    for (const [text, n] of Object.entries(costs)) expect(String(cl100k(text, AS_TEXT).length), JSON.stringify(text)).toBe(n);
  });

  const sys = block('sys', 'Be brief.', 0, { source: 'sys', pinned: true });
  const blocks = [
    block('m-b', 'Roll back the deploy.', 1),
    sys,
    block('m-a', 'Roll back the deploy.', 1),
    block('big', 'word '.repeat(20), 2),
    block('tiny', 'ok', 0.5),
  ];

  it('declares the design it runs', async () => {
    const m = await manifestOf('scored-memories');
    expect(m.capabilities).toEqual(['pinned']);
    expect(m.design).toEqual({
      estimator: { tokenizer: 'cl100k_base', counts: 'block' },
      render: { header: '### {source} ({block_id})\n', footer: '', separator: '\n\n', empty: '' },
      omissions: 'reported',
      fill: { order: 'priority', misfit: 'skip', ties: 'block_id' },
    });
  });

  it('keeps the pinned block first, then fills by priority, equal priorities by block_id, skipping what does not fit', async () => {
    // sys 8; big (priority 2) 34 > 28, skipped; m-a before m-b (block_id): 19; m-b 30 > 28, skipped; tiny 25.
    const r = await answer('scored-memories', ask(28, blocks));
    expect(r).toEqual({
      context: '### sys (sys)\nBe brief.\n\n### kb (m-a)\nRoll back the deploy.\n\n### kb (tiny)\nok',
      included: ['sys', 'm-a', 'tiny'],
      estimated_tokens: 25,
      total_budget: 28,
      omissions: [
        { block_id: 'big', reason: 'budget' },
        { block_id: 'm-b', reason: 'budget' },
      ],
    });
  });

  it('answers pinned_overflow when the pinned blocks alone cost more than the budget; an expired pinned block is omitted expired', async () => {
    expect((await raw('scored-memories', ask(7, blocks))).error.code).toBe('pinned_overflow');
    // sys expired (created 0, ttl 10, now 11): m-a 11 > 7 and m-b 11 > 7 skipped, tiny 6.
    const r = await answer('scored-memories', ask(7, [{ ...sys, created_at: 0, ttl_seconds: 10 }, ...blocks.filter((b) => b !== sys)], 11));
    expect(r).toEqual({
      context: '### kb (tiny)\nok',
      included: ['tiny'],
      estimated_tokens: 6,
      total_budget: 7,
      omissions: [
        { block_id: 'sys', reason: 'expired' },
        { block_id: 'big', reason: 'budget' },
        { block_id: 'm-a', reason: 'budget' },
        { block_id: 'm-b', reason: 'budget' },
      ],
    });
  });

  it('counts special-token text as text, and keeps a block at the boundary instant (exclusive expiry)', async () => {
    const r = await answer('scored-memories', ask(12, [block('sp', '<|endoftext|>', 1)]));
    expect(r).toMatchObject({ included: ['sp'], estimated_tokens: 12 });
    // '### sys (rule)\nAnswer in English.' is 9 tokens, '### kb (edge)\nRoll back the deploy.' 10.
    const edge = await answer('scored-memories', entry('scored-memories-inclusive-boundary').witness);
    expect(edge).toMatchObject({ included: ['rule', 'edge'], estimated_tokens: 19, omissions: [] });
  });

  it('--plant false-expired omits a live block that does not fit as expired', async () => {
    const [good, bad] = [await onWitness('scored-memories-false-expired', 'scored-memories'), await onWitness('scored-memories-false-expired')];
    expect(good).toMatchObject({ included: ['a'], estimated_tokens: 10, omissions: [{ block_id: 'big', reason: 'budget' }] });
    expect(bad).toEqual({ ...good, omissions: [{ block_id: 'big', reason: 'expired' }] });
  });

  it('--plant inclusive-boundary drops a block at now == created_at + ttl_seconds as expired, a pinned one too', async () => {
    const r = await onWitness('scored-memories-inclusive-boundary');
    expect(r).toEqual({
      context: '',
      included: [],
      estimated_tokens: 0,
      total_budget: 100,
      omissions: [
        { block_id: 'edge', reason: 'expired' },
        { block_id: 'rule', reason: 'expired' },
      ],
    });
  });

  it('--plant exact-fit drops a block that fits the budget exactly', async () => {
    // Two blocks of 10 tokens at budget 20.
    const good = await onWitness('scored-memories-exact-fit', 'scored-memories');
    expect(good).toMatchObject({ included: ['a', 'b'], estimated_tokens: 20, omissions: [] });
    const bad = await onWitness('scored-memories-exact-fit');
    expect(bad).toEqual({
      context: '### kb (a)\nRoll back the deploy.',
      included: ['a'],
      estimated_tokens: 10,
      total_budget: 20,
      omissions: [{ block_id: 'b', reason: 'budget' }],
    });
  });

  it('--plant input-ties takes equal priorities in request order', async () => {
    // b is listed before a; room for one block of 10 tokens.
    const good = await onWitness('scored-memories-input-ties', 'scored-memories');
    expect(good).toMatchObject({ included: ['a'], omissions: [{ block_id: 'b', reason: 'budget' }] });
    const bad = await onWitness('scored-memories-input-ties');
    expect(bad).toEqual({
      context: '### kb (b)\nRoll back the deploy.',
      included: ['b'],
      estimated_tokens: 10,
      total_budget: 15,
      omissions: [{ block_id: 'a', reason: 'budget' }],
    });
  });
});

describe('priority-pruner: prunes the lowest priority, the earliest of equal ones, while the whole prompt is over the budget', () => {
  // Each section '## kb\n' + 4 characters is 10 code points; sections are joined by 2.
  const blocks = [
    block('a', 'aaaa', 1),
    block('b', 'bbbb', 3),
    block('c', 'cccc', 1),
    block('d', 'dddd', 2),
    block('e', 'eeee', 5, { created_at: 0, ttl_seconds: 10 }),
  ];
  const section = (id: string) => `## kb\n${id.repeat(4)}`;

  it('declares the design it runs', async () => {
    const m = await manifestOf('priority-pruner');
    expect(m.capabilities).toEqual([]);
    expect(m.design).toEqual({
      estimator: { unit: 'code_points', per_token: 4, rounding: 'ceil', min: 0, overhead: 0, counts: 'context' },
      render: { header: '## {source}\n', footer: '', separator: '\n\n', empty: '' },
      omissions: 'reported',
      fill: { order: 'priority', misfit: 'stop', ties: 'later_first' },
      context_order: { by: 'input' },
    });
  });

  it('keeps everything that fits, in request order, an expired block omitted expired', async () => {
    // 4 sections and 3 separators: 46 code points, ceil(46 / 4) = 12.
    const r = await answer('priority-pruner', ask(12, blocks, 11));
    expect(r).toEqual({
      context: ['a', 'b', 'c', 'd'].map(section).join('\n\n'),
      included: ['a', 'b', 'c', 'd'],
      estimated_tokens: 12,
      total_budget: 12,
      omissions: [{ block_id: 'e', reason: 'expired' }],
    });
  });

  it('prunes a (priority 1, the earliest of the two), then c, while the prompt is over the budget', async () => {
    // At 9: without a, 34 code points, 9 tokens. At 6: without c too, 22 code points, 6 tokens (5.5 rounded up).
    const [nine, six] = [await answer('priority-pruner', ask(9, blocks, 11)), await answer('priority-pruner', ask(6, blocks, 11))];
    expect(nine).toEqual({
      context: ['b', 'c', 'd'].map(section).join('\n\n'),
      included: ['b', 'c', 'd'],
      estimated_tokens: 9,
      total_budget: 9,
      omissions: [
        { block_id: 'e', reason: 'expired' },
        { block_id: 'a', reason: 'budget' },
      ],
    });
    expect(six).toEqual({
      context: ['b', 'd'].map(section).join('\n\n'),
      included: ['b', 'd'],
      estimated_tokens: 6,
      total_budget: 6,
      omissions: [
        { block_id: 'e', reason: 'expired' },
        { block_id: 'a', reason: 'budget' },
        { block_id: 'c', reason: 'budget' },
      ],
    });
  });

  it('prunes everything at budget 0: an empty prompt counts 0', async () => {
    const r = await answer('priority-pruner', ask(0, blocks.slice(0, 2)));
    expect(r).toEqual({
      context: '',
      included: [],
      estimated_tokens: 0,
      total_budget: 0,
      omissions: [
        { block_id: 'a', reason: 'budget' },
        { block_id: 'b', reason: 'budget' },
      ],
    });
  });

  it('--plant input-ties prunes the latest of equal priorities first', async () => {
    // At 9: c goes instead of a.
    const r = await answer('priority-pruner-input-ties', ask(9, blocks, 11));
    expect(r).toMatchObject({ included: ['a', 'b', 'd'], estimated_tokens: 9, omissions: [{ block_id: 'e' }, { block_id: 'c', reason: 'budget' }] });
    const w = await onWitness('priority-pruner-input-ties');
    expect(w).toEqual({
      context: '## kb\naaaaaaaaaa',
      included: ['x'],
      estimated_tokens: 4,
      total_budget: 4,
      omissions: [{ block_id: 'y', reason: 'budget' }],
    });
    expect(await onWitness('priority-pruner-input-ties', 'priority-pruner')).toMatchObject({ included: ['y'], omissions: [{ block_id: 'x' }] });
  });

  it('--plant exact-fit prunes a prompt that costs exactly the budget', async () => {
    // 36 code points, 9 tokens, at budget 9: the design keeps both; the plant prunes y (17 code points: 5).
    expect(await onWitness('priority-pruner-exact-fit', 'priority-pruner')).toMatchObject({ included: ['x', 'y'], estimated_tokens: 9 });
    const r = await onWitness('priority-pruner-exact-fit');
    expect(r).toEqual({
      context: '## kb\naaaaaaaaaaa',
      included: ['x'],
      estimated_tokens: 5,
      total_budget: 9,
      omissions: [{ block_id: 'y', reason: 'budget' }],
    });
  });
});

describe('priority-cutoff: whole priority levels from the highest down while they fit', () => {
  // Each block: '<doc id="?">\n' (13) + 20 characters + '\n</doc>' (7) = 40 code points, 10 tokens.
  const blocks = [block('w', 'w'.repeat(20), 1), block('z', 'z'.repeat(20), 2), block('x', 'x'.repeat(20), 3), block('y', 'y'.repeat(20), 2)];
  const doc = (id: string) => `<doc id="${id}">\n${id.repeat(20)}\n</doc>`;

  it('declares the design it runs', async () => {
    const m = await manifestOf('priority-cutoff');
    expect(m.capabilities).toEqual([]);
    expect(m.design).toEqual({
      estimator: { unit: 'code_points', per_token: 4, rounding: 'floor', min: 1, overhead: 0, counts: 'block' },
      render: { header: '<doc id="{block_id}">\n', footer: '\n</doc>', separator: '\n', empty: '' },
      omissions: 'reported',
      fill: { order: 'priority', misfit: 'stop', levels: 'whole' },
      context_order: { by: 'priority' },
    });
  });

  it('keeps the levels 3 and 2 at budget 35, listed by priority, equal ones in request order', async () => {
    // Level 3: 10; level 2 (z, y): 30; level 1: 40 > 35.
    const r = await answer('priority-cutoff', ask(35, blocks));
    expect(r).toEqual({
      context: ['x', 'z', 'y'].map(doc).join('\n'),
      included: ['x', 'z', 'y'],
      estimated_tokens: 30,
      total_budget: 35,
      omissions: [{ block_id: 'w', reason: 'budget' }],
    });
  });

  it('drops a level whole, and every level under it, even where one of its blocks alone would fit', async () => {
    // Level 2 costs 30 > 25 with level 3; z alone would make 20.
    const r = await answer('priority-cutoff', ask(25, blocks));
    expect(r).toEqual({
      context: doc('x'),
      included: ['x'],
      estimated_tokens: 10,
      total_budget: 25,
      omissions: ['z', 'y', 'w'].map((block_id) => ({ block_id, reason: 'budget' })),
    });
  });

  it('omits an expired block expired, and an empty selection writes nothing', async () => {
    const r = await answer('priority-cutoff', ask(5, [block('x', 'x'.repeat(20), 3), block('old', 'o', 9, { created_at: 0, ttl_seconds: 1 })], 2));
    expect(r).toEqual({
      context: '',
      included: [],
      estimated_tokens: 0,
      total_budget: 5,
      omissions: [
        { block_id: 'old', reason: 'expired' },
        { block_id: 'x', reason: 'budget' },
      ],
    });
  });

  it('--plant split-level takes the first level that does not fit block by block while they fit', async () => {
    const r = await answer('priority-cutoff-split-level', ask(25, blocks));
    expect(r).toEqual({
      context: [doc('x'), doc('z')].join('\n'),
      included: ['x', 'z'],
      estimated_tokens: 20,
      total_budget: 25,
      omissions: ['y', 'w'].map((block_id) => ({ block_id, reason: 'budget' })),
    });
    expect(await onWitness('priority-cutoff-split-level')).toMatchObject({ included: ['a', 'b'], omissions: [{ block_id: 'c', reason: 'budget' }] });
    expect(await onWitness('priority-cutoff-split-level', 'priority-cutoff')).toMatchObject({ included: ['a'] });
  });

  it('--plant exact-fit drops a level that fits the budget exactly', async () => {
    // At 30 the levels 3 and 2 cost exactly 30.
    expect(await answer('priority-cutoff', ask(30, blocks))).toMatchObject({ included: ['x', 'z', 'y'], estimated_tokens: 30 });
    const r = await answer('priority-cutoff-exact-fit', ask(30, blocks));
    expect(r).toMatchObject({ included: ['x'], estimated_tokens: 10, omissions: ['z', 'y', 'w'].map((block_id) => ({ block_id, reason: 'budget' })) });
    expect(await onWitness('priority-cutoff-exact-fit')).toMatchObject({ included: ['a'], omissions: [{ block_id: 'b', reason: 'budget' }] });
  });
});

describe('chunk-cutter: the first chunk that does not fit, cut at white space with "…", then stop', () => {
  const witness = entry('chunk-cutter-mid-word').witness as any;

  it('declares the design it runs', async () => {
    const m = await manifestOf('chunk-cutter');
    expect(m.capabilities).toEqual([]);
    expect(m.design).toEqual({
      estimator: { unit: 'code_points', per_token: 4, rounding: 'floor', min: 1, overhead: 0 },
      render: { header: '[{block_id}]\n', footer: '', separator: '\n\n', empty: '' },
      omissions: 'reported',
      fill: { order: 'priority', misfit: 'stop' },
      cut: { keep: 'head', at: 'whitespace', marker: '…' },
    });
  });

  it('cuts the first misfit to the longest head at white space that fits with the marker, and stops', async () => {
    // w 'take me' costs 1 (3 left); x (39 code points, 9) does not fit; its heads at white space end after 7, 15,
    // 23, 31 characters: 'aaaaaaa…' is 8 code points, 2 tokens; 'aaaaaaa bbbbbbb…' 16, 4 > 3. 'tiny' (1) would fit, but the fill has stopped.
    const r = await answer('chunk-cutter', { ...witness, blocks: [...witness.blocks, block('tiny', 'tiny', 0)] });
    expect(r).toEqual({
      context: '[w]\ntake me\n\n[x]\naaaaaaa…',
      included: ['w', 'x'],
      estimated_tokens: 3,
      total_budget: 4,
      omissions: [{ block_id: 'tiny', reason: 'budget' }],
    });
  });

  it('omits a misfit it cannot cut to a non-empty head that fits, and stops there too', async () => {
    // 'x' * 40 has no white space; at budget 0, 'ab cd' (1) does not fit and 'ab…' costs the minimum 1.
    const r = await answer('chunk-cutter', ask(2, [block('w', 'take me', 3), block('x', 'x'.repeat(40), 2), block('t', 'tiny', 1)]));
    expect(r).toEqual({
      context: '[w]\ntake me',
      included: ['w'],
      estimated_tokens: 1,
      total_budget: 2,
      omissions: [
        { block_id: 'x', reason: 'budget' },
        { block_id: 't', reason: 'budget' },
      ],
    });
    const zero = await answer('chunk-cutter', ask(0, [block('ab', 'ab cd', 1)]));
    expect(zero).toEqual({ context: '', included: [], estimated_tokens: 0, total_budget: 0, omissions: [{ block_id: 'ab', reason: 'budget' }] });
  });

  it('takes equal priorities in request order, whole when they fit, and omits an expired block expired', async () => {
    const r = await answer('chunk-cutter', ask(10, [block('q', 'qqqq', 1), block('old', 'o', 5, { created_at: 0, ttl_seconds: 1 }), block('p', 'pppp', 1)], 5));
    expect(r).toEqual({
      context: '[q]\nqqqq\n\n[p]\npppp',
      included: ['q', 'p'],
      estimated_tokens: 2,
      total_budget: 10,
      omissions: [{ block_id: 'old', reason: 'expired' }],
    });
  });

  it('--plant mid-word cuts inside a word: the longest head at any character', async () => {
    // 'aaaaaaa bbbbbb…' is 15 code points, 3 tokens: the 3 left.
    const r = await onWitness('chunk-cutter-mid-word');
    expect(r).toEqual({ context: '[w]\ntake me\n\n[x]\naaaaaaa bbbbbb…', included: ['w', 'x'], estimated_tokens: 4, total_budget: 4, omissions: [] });
  });

  it('--plant needless-cut also cuts the last block taken whole, to a head at white space of at most half its code points', async () => {
    // n1 (18 code points, 4) and n2 (29, 7) fit at 100. n2's half is 14: 'five six seven' (14) + '…' is 15 code points, 3.
    const good = await onWitness('chunk-cutter-needless-cut', 'chunk-cutter');
    expect(good).toEqual({
      context: '[n1]\none two three four\n\n[n2]\nfive six seven eight nine ten',
      included: ['n1', 'n2'],
      estimated_tokens: 11,
      total_budget: 100,
      omissions: [],
    });
    const bad = await onWitness('chunk-cutter-needless-cut');
    expect(bad).toEqual({ ...good, context: '[n1]\none two three four\n\n[n2]\nfive six seven…', estimated_tokens: 7 });
    // The last block taken whole there is w ('take me', half 3): no head at white space that short, so it stays whole.
    expect(await answer('chunk-cutter-needless-cut', witness)).toMatchObject({ context: '[w]\ntake me\n\n[x]\naaaaaaa…' });
  });
});

describe('sectioned-prompt: "# {source}" sections in request order, an empty content writing nothing, o200k_base of the whole prompt, inclusive expiry', () => {
  const costs: Record<string, string> = {
    '# kb\nRoll back the deploy.': '8',
    '# kb\nRoll back the deploy.\n\n# ops\nRotate the key.': '15',
    [`# kb\nRoll back the deploy.\n\n# web\n${'word '.repeat(20)}`]: '32',
    '# kb\nGone at 20.\n\n# sp\n<|endoftext|>': '18',
    [`# kb\nRoll back the deploy.\n\n# ops\nRotate the key.\n\n# web\n${'word '.repeat(20)}`]: '39',
  };
  it('counts the prompts as the comments below say', () => {
    for (const [text, n] of Object.entries(costs)) expect(String(o200k(text, AS_TEXT).length), JSON.stringify(text)).toBe(n);
  });

  const blocks = [
    block('old', 'Gone at 20.', 1, { created_at: 10, ttl_seconds: 10 }),
    block('a', 'Roll back the deploy.', 1),
    block('e', '', 1, { source: 'notes' }),
    block('big', 'word '.repeat(20), 1, { source: 'web' }),
    block('c', 'Rotate the key.', 1, { source: 'ops' }),
  ];

  it('declares the design it runs', async () => {
    const m = await manifestOf('sectioned-prompt');
    expect(m.capabilities).toEqual([]);
    expect(m.design).toEqual({
      estimator: { tokenizer: 'o200k_base', counts: 'context' },
      render: { header: '# {source}\n', footer: '', separator: '\n\n', empty: '', empty_content: 'nothing' },
      omissions: 'reported',
      expiry: 'inclusive',
      fill: { order: 'input', misfit: 'skip' },
      context_order: { by: 'input' },
    });
  });

  it('writes no section for an empty content, skips a block that does not fit, and expires a block at the boundary instant', async () => {
    // old: now 20 == 10 + 10, expired (inclusive). a 8; e writes nothing (8); big makes 32 > 20, skipped; c makes 15.
    const r = await answer('sectioned-prompt', ask(20, blocks, 20));
    expect(r).toEqual({
      context: '# kb\nRoll back the deploy.\n\n# ops\nRotate the key.',
      included: ['a', 'e', 'c'],
      estimated_tokens: 15,
      total_budget: 20,
      omissions: [
        { block_id: 'old', reason: 'expired' },
        { block_id: 'big', reason: 'budget' },
      ],
    });
  });

  it('keeps a block just before the boundary, counts special-token text as text, and an empty content alone writes ""', async () => {
    // At now 19.5, old (until 20) is live: '# kb\nGone at 20.\n\n# sp\n<|endoftext|>' is 18 tokens.
    const r = await answer('sectioned-prompt', ask(18, [blocks[0], block('sp', '<|endoftext|>', 1, { source: 'sp' })], 19.5));
    expect(r).toEqual({ context: '# kb\nGone at 20.\n\n# sp\n<|endoftext|>', included: ['old', 'sp'], estimated_tokens: 18, total_budget: 18, omissions: [] });
    const lone = await answer('sectioned-prompt', ask(0, [block('e', '', 1)]));
    expect(lone).toEqual({ context: '', included: ['e'], estimated_tokens: 0, total_budget: 0, omissions: [] });
  });

  it('--plant empty-header writes an empty content as its header alone', async () => {
    const good = await onWitness('sectioned-prompt-empty-header', 'sectioned-prompt');
    expect(good).toEqual({
      context: '# kb\nRoll back the deploy.\n\n# ops\nRotate the key.',
      included: ['a', 'e', 'c'],
      estimated_tokens: 15,
      total_budget: 100,
      omissions: [],
    });
    const bad = await onWitness('sectioned-prompt-empty-header');
    expect(bad).toEqual({ ...good, context: '# kb\nRoll back the deploy.\n\n# notes\n\n\n# ops\nRotate the key.' });
  });

  it('--plant exclusive-boundary reads a block at the boundary instant as live: kept when it fits, omitted budget when not', async () => {
    // edge and big are at the boundary (10 + 10 = now). With edge and live the prompt is 15 tokens; big would make it 39 > 20.
    const good = await onWitness('sectioned-prompt-exclusive-boundary', 'sectioned-prompt');
    expect(good).toEqual({
      context: '# ops\nRotate the key.',
      included: ['live'],
      estimated_tokens: 7,
      total_budget: 20,
      omissions: [
        { block_id: 'edge', reason: 'expired' },
        { block_id: 'big', reason: 'expired' },
      ],
    });
    const bad = await onWitness('sectioned-prompt-exclusive-boundary');
    expect(bad).toEqual({
      context: '# kb\nRoll back the deploy.\n\n# ops\nRotate the key.',
      included: ['edge', 'live'],
      estimated_tokens: 15,
      total_budget: 20,
      omissions: [{ block_id: 'big', reason: 'budget' }],
    });
  });
});
