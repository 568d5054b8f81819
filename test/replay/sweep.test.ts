/**
 * `ctxconform sweep`: the budget that admits everything
 * does, the reference agrees with itself at every budget, a broken
 * implementation's first disagreement is the first budget at which its answer
 * differs (found by asking at every budget), the disagreement is shrunk and
 * saved as a case that fails it, and the reports carry the chart.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFunctions, openModule } from '../../adapters/inprocess.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { judge } from '../../judging/judge.js';
import { request } from '../../judging/properties/arbitraries.js';
import { reasonClass } from '../../vocabulary/reason-classes.js';
import { budgetAdmittingAll, MAX_STALLS, parseBudgets, sweep } from '../../traffic/sweep.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { Manifest, Report } from '../../protocol/types.js';
import { resultsOf } from '../../protocol/types.js';
import { assemble, CAPABILITIES, describe as referenceManifest, isErrorAnswer } from '../../reference/index.js';
import type { Result } from '../../reference/index.js';
import { renderHtml } from '../../report/html.js';
import { renderMarkdown } from '../../report/markdown.js';
import { cliWith } from '../cli.js';
import { compiledFixture } from '../fixture-command.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MUTANT = join(root, 'test/fixtures/broken/no-overflow-pool.ts');
/** The same module compiled, for the command line: given the TypeScript, its worker would load tsx and compile it on every run. */
const MUTANT_JS = compiledFixture(MUTANT);
const CASE = 'overflow/pool-by-rank-across-tiers';
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-sweep-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const caseRequest = loadCorpus().cases.find((c) => c.id === CASE)!.request as Record<string, unknown>;

describe('the budget that admits everything', () => {
  it('leaves no block omitted for budget, and no pinned overflow, on 2000 random requests', () => {
    fc.assert(
      fc.property(request({ profiles: ['tiered', 'ranked'], capabilities: [...CAPABILITIES] }), (r) => {
        const a = assemble({ ...r, budget: budgetAdmittingAll(r) });
        expect(isErrorAnswer(a)).toBe(false);
        expect((a as Result).omissions.filter((o) => reasonClass(o.reason) === 'budget')).toEqual([]);
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});

describe('parseBudgets', () => {
  it('reads A..B and A..B/STEP and refuses the rest', () => {
    expect(parseBudgets('0..40')).toEqual({ from: 0, to: 40, step: 1 });
    expect(parseBudgets(' 10..100/5 ')).toEqual({ from: 10, to: 100, step: 5 });
    for (const bad of ['5..4', '-1..3', '0..3/0', '1.5..3', '0..', '0..9007199254740992', 'a..b']) expect(parseBudgets(bad), bad).toBeUndefined();
  });
});

describe('sweep', () => {
  it("the reference against itself: no disagreement, and intervals that are the reference's answers", async () => {
    const impl = referenceImplementation();
    const manifest = await impl.describe();
    const report = await sweep({ request: caseRequest, source: CASE, impl, manifest, timeoutMs: 5000, concurrency: 2, shrink: true });
    expect(report.cases[0]).toMatchObject({ id: `sweep/${CASE}`, kind: 'sweep', status: 'pass' });
    const s = report.sweep!;
    expect(s.first_disagreement).toBeNull();
    expect(s.disagreements).toEqual([]);
    expect(s.budgets).toEqual({ from: 0, to: budgetAdmittingAll(caseRequest), step: 1, count: budgetAdmittingAll(caseRequest) + 1 });
    for (const b of [0, 17, 18, 40, 63, s.budgets.to]) {
      const included = (assemble({ ...caseRequest, budget: b }) as Result).included;
      for (const row of s.blocks) {
        const inside = row.reference.some(([x, y]) => x <= b && b <= y);
        expect(inside, `${row.block_id} at ${b}`).toBe(included.includes(row.block_id));
        expect(row.implementation).toEqual(row.reference);
      }
    }
    expect(s.admits_all_from).not.toBeNull();
  });

  it('a broken implementation: the first disagreement is the first budget where its answer differs; shrunk, saved, and the saved case fails it', async () => {
    const impl = await openModule(MUTANT);
    const manifest = await impl.describe();
    const dir = join(tmp, 'saved-api');
    const report = await sweep({ request: caseRequest, source: CASE, impl, manifest, timeoutMs: 5000, concurrency: 1, shrink: true, saveCounterexamples: dir });
    // Asked budget by budget, independently of the sweep.
    let first: number | undefined;
    for (let b = 0; first === undefined && b <= budgetAdmittingAll(caseRequest); b++) {
      const req = { ...caseRequest, budget: b };
      const out = await impl.assemble(req, { timeoutMs: 5000 });
      if (JSON.stringify(out.kind === 'result' ? out.value : out) !== JSON.stringify(assemble(req, { capabilities: [] }))) first = b;
    }
    expect(first).toBeDefined();
    expect(report.sweep!.first_disagreement).toBe(first);
    expect(report.cases[0]).toMatchObject({ status: 'fail', request: { ...caseRequest, budget: first } });
    expect(report.cases[0]!.message).toMatch(new RegExp(`^first disagreement at budget ${first}; \\d+ of \\d+ swept budgets disagree`));
    const valid = validators.report();
    expect(valid(report), formatErrors(valid.errors).join('\n')).toBe(true);

    const [file] = readdirSync(dir);
    expect(file).toBe(`sweep-pool-by-rank-across-tiers-${first}.yaml`);
    const saved = loadCorpus(dir).cases[0]!;
    expect(saved.tags).toEqual(['counterexample', 'sweep']);
    expect((saved.request as { blocks: unknown[] }).blocks.length).toBeLessThan((caseRequest.blocks as unknown[]).length);
    expect(judge(saved, await impl.assemble(saved.request, { timeoutMs: 5000 }), manifest).status).toBe('fail');
    expect(judge(saved, await referenceImplementation(manifest).assemble(saved.request, { timeoutMs: 5000 }), manifest).status).toBe('pass');
  });

  it('with a step, the first disagreement is still found budget by budget between two swept budgets', async () => {
    const impl = await openModule(MUTANT);
    const manifest = await impl.describe();
    const fine = await sweep({ request: caseRequest, source: CASE, impl, manifest, timeoutMs: 5000, concurrency: 1, shrink: false });
    const coarse = await sweep({
      request: caseRequest,
      source: CASE,
      impl,
      manifest,
      timeoutMs: 5000,
      concurrency: 1,
      shrink: false,
      budgets: { from: 0, to: 100, step: 7 },
    });
    expect(coarse.sweep!.budgets).toEqual({ from: 0, to: 100, step: 7, count: 16 });
    expect(coarse.sweep!.first_disagreement).toBe(fine.sweep!.first_disagreement);
    expect(fine.sweep!.first_disagreement! % 7).not.toBe(0);
  });

  it('an implementation that hangs is asked at a few budgets, not at every one', async () => {
    let calls = 0;
    const hang = fromFunctions(
      () => {
        calls++;
        return new Promise(() => {});
      },
      undefined,
      referenceManifest() as Manifest,
    );
    const report = await sweep({
      request: caseRequest,
      source: CASE,
      impl: hang,
      manifest: await hang.describe(),
      timeoutMs: 20,
      concurrency: 1,
      shrink: true,
      budgets: { from: 0, to: 60, step: 1 },
    });
    expect(calls).toBe(MAX_STALLS);
    expect(report.cases[0]).toMatchObject({ status: 'timeout' });
    expect(report.sweep!.first_disagreement).toBe(0);
    expect(resultsOf(report.cases, 'sweep')[0]!.counterexample).toBeUndefined();
  });

  it('the HTML report draws the chart (inline SVG: a bar per interval, the first disagreement marked) and Markdown tabulates it', async () => {
    const impl = await openModule(MUTANT);
    const manifest = await impl.describe();
    const hostile = {
      ...caseRequest,
      blocks: (caseRequest.blocks as Record<string, unknown>[]).map((b, i) => (i === 0 ? { ...b, block_id: '<script>alert(1)</script>' } : b)),
    };
    const report = await sweep({ request: hostile, source: '<b>src</b>', impl, manifest, timeoutMs: 5000, concurrency: 1, shrink: false });
    const html = renderHtml(report);
    const svg = html.slice(html.indexOf('<svg'), html.indexOf('</svg>') + 6);
    const bars = report.sweep!.blocks.reduce((n, b) => n + b.reference.length + b.implementation.length, 0);
    expect(svg.match(/<rect [^>]*height="6"/g)?.length).toBe(bars);
    expect(svg).toContain(`first disagreement: ${report.sweep!.first_disagreement}`);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;src&lt;/b&gt;');
    const md = renderMarkdown(report);
    expect(md).toContain('### Budget sweep');
    expect(md).toContain(`**first disagreement at budget ${report.sweep!.first_disagreement}**`);
  });
});

describe('ctxconform sweep', () => {
  const cli = (...args: string[]) => cliWith({ cwd: tmp }, 'sweep', ...args);

  it('exit 1 for a broken implementation, with the interval table; exit 0 for the reference', () => {
    const broken = cli('--case', CASE, '--module', MUTANT_JS, '--json', 'sweep.json', '--html', 'sweep.html');
    expect(broken.status, broken.stderr).toBe(1);
    expect(broken.stdout).toMatch(/^FAIL sweep\/overflow\/pool-by-rank-across-tiers/m);
    expect(broken.stdout).toMatch(/^first disagreement at budget \d+; disagreeing budgets: /m);
    expect(broken.stdout).toMatch(/<- differs$/m);
    const report = JSON.parse(readFileSync(join(tmp, 'sweep.json'), 'utf8')) as Report;
    expect(report.sweep?.source).toBe(CASE);
    expect(readFileSync(join(tmp, 'sweep.html'), 'utf8')).toContain('<figure id="sweep-chart"><svg');
    const ok = cli('--case', CASE);
    expect(ok.status, ok.stdout).toBe(0);
    expect(ok.stdout).toContain('the implementation agrees with the reference at every swept budget');
  });

  it('sweeps a generated block set and a recorded request', () => {
    const gen = cli('--generate', '5', '--json', 'gen.json');
    expect(gen.status, gen.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(tmp, 'gen.json'), 'utf8')) as Report;
    expect(report.sweep!.source).toBe('generated-seed-5');
    expect(report.sweep!.blocks.length).toBeGreaterThan(2);
    writeFileSync(join(tmp, 'rec.jsonl'), `{"now":1,"budget":1,"blocks":[]}\n${JSON.stringify({ ...caseRequest, budget: 3 })}\n`);
    const rec = cli('--request', 'rec.jsonl:2', '--module', MUTANT_JS, '--no-shrink', '--json', 'rec.json');
    expect(rec.status, rec.stderr).toBe(1);
    const r2 = JSON.parse(readFileSync(join(tmp, 'rec.json'), 'utf8')) as Report;
    expect(r2.sweep!.source).toBe('rec.jsonl:2');
    expect(resultsOf(r2.cases, 'sweep')[0]!.counterexample).toBeUndefined();
  });

  it('exit 2 for a usage error', () => {
    expect(cli().status).toBe(2);
    expect(cli('--case', CASE, '--generate', '1').stderr).toContain('name one block set');
    expect(cli('--case', 'no/such-case').stderr).toContain('no case no/such-case');
    const bad = cli('--case', CASE, '--budgets', '9..3');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--budgets needs A..B');
    expect(cli('--case', 'validation/budget-negative').stderr).toMatch(/is not a valid request|no case/);
  });
});
