/**
 * `ctxconform replay`: the corpus requests written out as
 * JSON lines get the verdicts `run` gives the cases, in process and over
 * stdio; every broken implementation is caught, and a saved shrunk case
 * fails it; unreadable lines are reported and skipped, invalid requests
 * judged; the report stays bounded.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFunctions, openModule } from '../../adapters/inprocess.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { encodeRequest } from '../../adapters/wire.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { capabilitiesNeeded } from '../../traffic/replay/judge.js';
import { replay } from '../../traffic/replay/run.js';
import type { ReplaySource } from '../../traffic/replay/run.js';
import { openImplementation } from '../../running/open.js';
import { runSuite } from '../../running/run.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { CaseResult, Implementation, Manifest, Report } from '../../protocol/types.js';
import type { GoldenCase } from '../../vocabulary/types.js';
import { byId, resultsOf } from '../../protocol/types.js';
import { assemble, describe as referenceManifest } from '../../reference/index.js';
import { cliWith } from '../cli.js';
import { compiledFixture, fixtureCommand } from '../fixture-command.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BROKEN = join(root, 'test/fixtures/broken');
const MUTANTS = readdirSync(BROKEN)
  .filter((f) => f.endsWith('.ts') && f !== 'mutant.ts' && f !== 'known-defects.ts')
  .map((f) => f.slice(0, -3))
  .sort();
const STDIO_REFERENCE = fixtureCommand(join(root, 'test/fixtures/replay/reference-stdio.ts'));
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-replay-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// The corpus as a recording: line k is the k-th case in id order. A request JSON cannot carry (NaN) cannot be recorded.
const corpus = loadCorpus().cases.sort(byId);
const recorded: GoldenCase[] = corpus.filter((c) => encodeRequest(c.request).ok);
const corpusFile = join(tmp, 'corpus.jsonl');
writeFileSync(corpusFile, recorded.map((c) => (encodeRequest(c.request) as { json: string }).json).join('\n') + '\n');
const source: ReplaySource = { path: corpusFile, label: 'corpus.jsonl' };

async function both(impl: Implementation, manifest: Manifest, concurrency = 1): Promise<{ run: Map<string, CaseResult>; replayed: CaseResult[] }> {
  const run = await runSuite({ cases: recorded, impl, manifest, timeoutMs: 10_000, concurrency, properties: 0, seed: 1 });
  const rep = await replay({ sources: [source], impl, manifest, timeoutMs: 10_000, concurrency, twice: true, shrink: 0, maxListed: 10_000 });
  expect(rep.cases.map((c) => c.id)).toEqual(recorded.map((_, i) => `replay/corpus.jsonl:${i + 1}`));
  return { run: new Map(run.cases.map((c) => [c.id, c])), replayed: rep.cases };
}

describe('the corpus written as JSON lines', () => {
  it('holds every case whose request JSON can carry, -0 written as -0.0', () => {
    expect(corpus.length - recorded.length).toBeLessThan(20);
    const negativeZero = recorded.filter((c) => (encodeRequest(c.request) as { json: string }).json.includes('-0.0'));
    expect(negativeZero.length).toBeGreaterThan(0);
  });

  it('replayed against the reference in process: the verdict run gives each case, request by request', async () => {
    const impl = referenceImplementation();
    const { run, replayed } = await both(impl, await impl.describe());
    expect(replayed.map((r) => r.status)).toEqual(recorded.map((c) => run.get(c.id)!.status));
    expect(new Set(replayed.map((r) => r.status))).toEqual(new Set(['pass']));
  });

  it('replayed against the reference over stdio (every request through the wire, -0.0 included): the verdicts of run over stdio', async () => {
    const o = await openImplementation({ transport: 'stdio', config: { command: STDIO_REFERENCE, processes: 4 }, timeoutMs: 10_000, concurrency: 4 });
    try {
      const { run, replayed } = await both(o.impl, o.manifest, 4);
      expect(replayed.map((r) => `${r.status} ${r.message ?? ''}`)).toEqual(
        recorded.map((c) => `${run.get(c.id)!.status} ${run.get(c.id)!.message ?? ''}`.replace(/ $/, ' ')),
      );
      expect(replayed.every((r) => r.status === 'pass')).toBe(true);
    } finally {
      await o.impl.close();
    }
  });

  /**
   * The only ways replay may differ from run on a broken implementation, each
   * checked: the case declares a capability its request does not use (run
   * skips it, replay has nothing to skip it for), or replay finds a difference
   * in a member the case does not pin (a case lists only what it is about;
   * replay compares the whole answer with the reference).
   */
  function whyTheyDiffer(c: GoldenCase, run: CaseResult, replayed: CaseResult, manifest: Manifest): string | undefined {
    if (run.status === replayed.status) return undefined;
    if (run.status === 'skip' && replayed.status !== 'skip') {
      const undeclared = c.capabilities.filter((k) => !manifest.capabilities.includes(k));
      const needed = capabilitiesNeeded(c.request);
      if (undeclared.length > 0 && needed.every((k) => manifest.capabilities.includes(k))) return undefined;
    }
    if (run.status === 'pass' && replayed.status === 'fail') {
      const m = /^differs from the reference in ([a-z_, ]+):/.exec(replayed.message ?? '');
      const pins: Record<string, (keyof GoldenCase['expect'])[]> = {
        context: ['context'],
        included: ['included'],
        estimated_tokens: ['estimated_tokens'],
        total_budget: ['total_budget'],
        omissions: ['omissions', 'omission_order', 'omissions_exact'],
      };
      if (m && m[1]!.split(', ').every((member) => pins[member] !== undefined && pins[member]!.every((k) => c.expect[k] === undefined))) return undefined;
    }
    return `${c.id}: run ${run.status}, replay ${replayed.status}: ${replayed.message?.split('\n')[0] ?? ''}`;
  }

  it.each(MUTANTS)('replayed against the broken implementation %s: the verdicts of run, except where replay checks more; every defect caught', async (name) => {
    const impl = await openModule(join(BROKEN, `${name}.ts`));
    const manifest = await impl.describe();
    const { run, replayed } = await both(impl, manifest);
    const unexplained = recorded.map((c, i) => whyTheyDiffer(c, run.get(c.id)!, replayed[i]!, manifest)).filter((x) => x !== undefined);
    expect(unexplained).toEqual([]);
    // Never a pass where run fails, and (but for the mutants' shared core) a failure.
    const fails = replayed.filter((r) => r.status === 'fail').length;
    if (name === 'correct') expect(fails).toBe(0);
    else expect(fails, `replay did not catch ${name}`).toBeGreaterThan(0);
  });
});

describe('replay on its own', () => {
  const manifest = referenceManifest() as Manifest;
  const file = (name: string, lines: string[]): ReplaySource => {
    const path = join(tmp, name);
    writeFileSync(path, lines.join('\n') + '\n');
    return { path, label: name };
  };
  const valid = { now: 100, budget: 10, blocks: [{ block_id: 'a', source: 'coverage', content: 'aaaa', priority: 1 }] };

  it('judges an invalid request as one (an implementation that answers it with a result fails) and skips an unreadable line', async () => {
    const src = file('mixed.jsonl', [JSON.stringify(valid), 'not json', '{"now":1}']);
    const core = { ...manifest, capabilities: [] };
    const lenient = fromFunctions(
      (r) =>
        (r as { blocks?: unknown }).blocks
          ? assemble(r, { capabilities: [] })
          : { context: '', included: [], estimated_tokens: 0, total_budget: 0, omissions: [] },
      undefined,
      core,
    );
    const unreadable: string[] = [];
    const rep = await replay({
      sources: [src],
      impl: lenient,
      manifest: core,
      timeoutMs: 5000,
      concurrency: 1,
      twice: true,
      shrink: 0,
      maxListed: 100,
      onUnreadable: (where, why) => unreadable.push(`${where} ${why}`),
    });
    expect(rep.cases.map((c) => [c.id, c.status])).toEqual([
      ['replay/mixed.jsonl:1', 'pass'],
      ['replay/mixed.jsonl:2', 'skip'],
      ['replay/mixed.jsonl:3', 'fail'],
    ]);
    expect(rep.cases[1]!.message).toMatch(/^unreadable line: not JSON/);
    expect(unreadable).toEqual([expect.stringMatching(/^mixed\.jsonl:2 not JSON/)]);
    expect(rep.cases[2]!.message).toMatch(/differs from the reference in error/);
    expect(rep.cases[2]!.requirements).toContain('VAL-1');
    expect(rep.replay).toMatchObject({ requests: 3, unreadable: 1, files: [{ file: 'mixed.jsonl', requests: 2, unreadable: 1 }] });
    // The reference itself refuses it: judged, and passed.
    const ok = await replay({
      sources: [src],
      impl: referenceImplementation(),
      manifest,
      timeoutMs: 5000,
      concurrency: 1,
      twice: true,
      shrink: 0,
      maxListed: 100,
    });
    expect(ok.cases.map((c) => c.status)).toEqual(['pass', 'skip', 'pass']);
  });

  it('sends each request twice and fails an implementation whose answers differ in bytes only (REQ-2); --once does not', async () => {
    const src = file('tight.jsonl', [JSON.stringify({ ...valid, budget: 0 })]);
    let n = 0;
    // 'budget' and 'budget_exhausted' are the same reason class: only the bytes differ between calls.
    const flaky = fromFunctions(
      (r) => {
        const a = assemble(r) as { omissions: { block_id: string; reason: string }[] };
        return { ...a, omissions: a.omissions.map((o) => ({ ...o, reason: n++ % 2 ? 'budget' : 'budget_exhausted' })) };
      },
      undefined,
      manifest,
    );
    const twice = await replay({ sources: [src], impl: flaky, manifest, timeoutMs: 5000, concurrency: 1, twice: true, shrink: 0, maxListed: 10 });
    expect(twice.cases[0]).toMatchObject({ status: 'fail', requirements: ['REQ-2'] });
    const once = await replay({ sources: [src], impl: flaky, manifest, timeoutMs: 5000, concurrency: 1, twice: false, shrink: 0, maxListed: 10 });
    expect(once.cases[0]!.status).toBe('pass');
    expect(once.replay!.sent_twice).toBe(false);
  });

  it('a request that times out is timeout, sent once only, and not shrunk', async () => {
    const src = file('slow.jsonl', [JSON.stringify(valid)]);
    let calls = 0;
    const hang = fromFunctions(
      () => {
        calls++;
        return new Promise(() => {});
      },
      undefined,
      manifest,
    );
    const rep = await replay({ sources: [src], impl: hang, manifest, timeoutMs: 50, concurrency: 1, twice: true, shrink: 5, maxListed: 10 });
    expect(rep.cases[0]).toMatchObject({ status: 'timeout' });
    expect(calls).toBe(1);
    expect(rep.replay!.shrunk).toBe(0);
  });

  it('past --max-listed keeps the failing results only, counts every request, and keeps details for the first ones', async () => {
    const lines = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify({ ...valid, budget: i % 3 === 0 ? 0 : 10, blocks: [{ ...valid.blocks[0], block_id: `b${i}` }] }),
    );
    const src = file('many.jsonl', lines);
    // Includes every block whatever the budget: wrong exactly where the budget is 0.
    const greedy = fromFunctions(
      (r) => {
        const req = r as typeof valid;
        const a = assemble({ ...req, budget: 10 }) as unknown as Record<string, unknown>;
        return { ...a, total_budget: req.budget };
      },
      undefined,
      manifest,
    );
    const rep = await replay({ sources: [src], impl: greedy, manifest, timeoutMs: 5000, concurrency: 3, twice: false, shrink: 1, maxListed: 5 });
    expect(rep.summary).toMatchObject({ total: 30, pass: 20, fail: 10 });
    expect(rep.cases.map((c) => c.id)).toEqual([0, 3, 6, 9, 12].map((i) => `replay/many.jsonl:${i + 1}`));
    expect(resultsOf(rep.cases, 'replay').every((c) => c.status === 'fail' && c.request !== undefined)).toBe(true);
    expect(rep.replay).toMatchObject({ listed: 5, unlisted: 25, shrunk: 1 });
    const valid_ = validators.report();
    expect(valid_(rep), formatErrors(valid_.errors).join('\n')).toBe(true);
  });
});

describe('ctxconform replay', () => {
  const cli = (...args: string[]) => cliWith({ cwd: tmp }, ...args);

  it('catches a broken implementation; the shrunk request saved as a case fails it and passes the reference', () => {
    const saved = join(tmp, 'saved');
    const json = join(tmp, 'broken.json');
    const html = join(tmp, 'broken.html');
    // Compiled: given the TypeScript, the module thread of each run would load tsx and compile it first.
    const mod = compiledFixture(join(BROKEN, 'no-overflow-pool.ts'));
    const r = cli(
      'replay',
      'corpus.jsonl',
      '--module',
      mod,
      '--shrink',
      '2',
      '--save-counterexamples',
      saved,
      '--json',
      json,
      '--html',
      html,
      '--markdown',
      join(tmp, 'broken.md'),
      '--junit',
      join(tmp, 'broken.xml'),
    );
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL replay\/corpus\.jsonl:\d+ {2}\[/m);
    // Run from a folder outside the kit: the line runs the kit's own bin there (cli/invocation.ts).
    expect(r.stdout).toMatch(/rerun: node \S*bin\/ctxconform\.mjs replay --module \S+no-overflow-pool\.js corpus\.jsonl:\d+/);
    expect(r.stdout).toMatch(/FAIL: \d+ pass, \d+ fail, 0 error, 0 timeout, 0 crash, \d+ skip of \d+ requests in [\d.]+ s \([\d,]+ requests\/s\)/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    const valid = validators.report();
    expect(valid(report), formatErrors(valid.errors).join('\n')).toBe(true);
    expect(report.replay).toMatchObject({ files: [{ file: 'corpus.jsonl', requests: recorded.length, unreadable: 0 }], sent_twice: true, shrunk: 2 });
    expect(readFileSync(html, 'utf8')).toContain('<h2 id="replay">Replayed requests</h2>');
    expect(readFileSync(join(tmp, 'broken.md'), 'utf8')).toContain('### Replayed requests');
    expect(readFileSync(join(tmp, 'broken.xml'), 'utf8')).toContain(`<property name="replay_requests" value="${recorded.length}"/>`);

    const files = readdirSync(saved);
    expect(files).toHaveLength(2);
    expect(files.every((f) => /^replay-corpus-\d+\.yaml$/.test(f))).toBe(true);
    const againBroken = cli('run', '--cases', saved, '--properties', '0', '--module', mod);
    expect(againBroken.status, againBroken.stdout).toBe(1);
    expect(againBroken.stdout).toMatch(/FAIL: 0 pass, 2 fail/);
    const againReference = cli('run', '--cases', saved, '--properties', '0');
    expect(againReference.status, againReference.stdout).toBe(0);
  });

  it('FILE:LINE replays one request; an unreadable line is named on stderr, the run goes on, and its verdict is INCOMPLETE (PROTO-10)', () => {
    writeFileSync(
      join(tmp, 'one.jsonl'),
      `${JSON.stringify({ now: 1, budget: 5, blocks: [] })}\n{broken\n${JSON.stringify({ now: 1, budget: 9, blocks: [] })}\n`,
    );
    const whole = cli('replay', 'one.jsonl', '--json', 'one.json');
    expect(whole.status).toBe(3);
    expect(whole.stderr).toContain('one.jsonl:2: unreadable line: not JSON');
    expect(whole.stdout).toMatch(
      /\nINCOMPLETE \(1 record of the input could not be read[^)]*\): 2 pass, 0 fail, 0 error, 0 timeout, 0 crash, 1 skip of 3 requests/,
    );
    const single = cli('replay', 'one.jsonl:3', '--json', 'single.json', '--once');
    expect(single.status).toBe(0);
    const report = JSON.parse(readFileSync(join(tmp, 'single.json'), 'utf8')) as Report;
    expect(report.cases.map((c) => c.id)).toEqual(['replay/one.jsonl:3']);
    expect(report.replay?.sent_twice).toBe(false);
  });

  it('exit 2: no file, a file that is not there, and files with no readable request', () => {
    expect(cli('replay').status).toBe(2);
    const missing = cli('replay', 'nope.jsonl');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read nope.jsonl: no such file');
    writeFileSync(join(tmp, 'garbage.jsonl'), 'not json\nstill not\n');
    const garbage = cli('replay', 'garbage.jsonl');
    expect(garbage.status).toBe(2);
    expect(garbage.stderr).toContain('no readable request in garbage.jsonl');
  });
});
