/**
 * Any input the JSON parser reads, no crash: a recorded request with an
 * unknown member nested 10,000 deep is valid (REQ-3: ignored, whatever it
 * holds), so every walk over request and answer JSON (the wire encoder,
 * scrub, the judge, blame, shrinking, the schema checks, the report writers,
 * the module thread) must carry it, and what cannot (a YAML case file) must
 * refuse it with its reason. Through every command, in process and through
 * stdio.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { openModuleWorker } from '../../adapters/module.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { encodeRequest } from '../../adapters/wire.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { caseValidator } from '../../judging/cases/schema.js';
import { judgeRecorded } from '../../traffic/replay/judge.js';
import { replay } from '../../traffic/replay/run.js';
import { shrinkRecorded } from '../../traffic/replay/shrink.js';
import { runSuite } from '../../running/run.js';
import { scrubRequest } from '../../traffic/scrub.js';
import { sweep } from '../../traffic/sweep.js';
import { cloneJson, compactJson, deepStrictEqualJson, depthOf, equalJson, mapJson, stringifyJson, writeJson } from '../../protocol/deep-json.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { Report } from '../../protocol/types.js';
import { resultsOf } from '../../protocol/types.js';
import { renderHtml } from '../../report/html.js';
import { renderJson } from '../../report/json.js';
import { renderJunit } from '../../report/junit.js';
import { renderMarkdown } from '../../report/markdown.js';
import { assemble as mutant, describe as mutantDescribe } from '../fixtures/broken/chars-per-token-3.js';
import { cliWith, ROOT } from '../cli.js';
import { compiledFixture, fixtureCommand } from '../fixture-command.js';

const DEPTH = 10_000;
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-deep-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `{"x": {"x": ... 1}}`, `depth` objects deep, as JSON.parse makes it (JSON.parse reads any depth). */
const nestedText = (depth: number): string => '{"x":'.repeat(depth) + '1' + '}'.repeat(depth);
/** A valid request with an unknown member nested `depth` deep in a block and in the request (REQ-3). */
const deepRequestText = (depth: number, budget = 5): string =>
  `{"now":1,"budget":${budget},"blocks":[{"block_id":"a","source":"memory","content":"hello world, nine","priority":1,"extra":${nestedText(depth)}}],"ext":${nestedText(depth)}}`;
const deepRequest = (): Record<string, unknown> => JSON.parse(deepRequestText(DEPTH)) as Record<string, unknown>;

const MUTANT = join(ROOT, 'test/fixtures/broken/chars-per-token-3.ts');
/** The same module compiled, for a module thread: given the TypeScript, the thread would load tsx and compile it first. */
const MUTANT_JS = compiledFixture(MUTANT);
const MODULE_STDIO = (module: string): string => fixtureCommand(join(ROOT, 'test/fixtures/replay/module-stdio.ts'), module);
const STDIO_REFERENCE = fixtureCommand(join(ROOT, 'test/fixtures/replay/reference-stdio.ts'));
const broken = () => fromFunctions(mutant, mutantDescribe);

describe('the walks themselves (protocol/deep-json.ts)', () => {
  it('write what JSON.stringify writes, one line or indented, on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (v, indent) => {
        expect(writeJson(v, { indent })).toBe(JSON.stringify(v, null, indent));
        expect(stringifyJson(v, indent)).toBe(JSON.stringify(v, null, indent));
        expect(equalJson(cloneJson(v), v)).toBe(true);
        expect(
          equalJson(
            mapJson(v, (x) => x),
            v,
          ),
        ).toBe(true);
      }),
      { numRuns: 300, seed: 24 },
    );
    expect(writeJson({ a: undefined, b: [undefined, () => 1], c: new Date(0) })).toBe(
      JSON.stringify({ a: undefined, b: [undefined, () => 1], c: new Date(0) }),
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => writeJson(cyclic)).toThrow(TypeError);
    expect(depthOf(cyclic)).toBe(Infinity);
  });

  it('hold 10,000 levels, where JSON.stringify and structuredClone give up', () => {
    const v = JSON.parse(nestedText(DEPTH)) as unknown;
    expect(() => JSON.stringify(v)).toThrow(RangeError);
    expect(() => structuredClone(v)).toThrow(RangeError);
    expect(depthOf(v)).toBe(DEPTH);
    expect(depthOf(v, 50)).toBe(50);
    expect(stringifyJson(v)).toBe(nestedText(DEPTH));
    expect(equalJson(JSON.parse(stringifyJson(v, 2)!), v)).toBe(true);
    // Indented only so far: the text does not grow with the square of the depth.
    expect(stringifyJson(v, 2)!.length).toBeLessThan(2 * nestedText(DEPTH).length + 10_000);
    expect(depthOf(cloneJson(v))).toBe(DEPTH);
    expect(compactJson(v, 30)).toBe(`${nestedText(DEPTH).slice(0, 30)}…`);
  });
});

describe('a request nested 10,000 deep, piece by piece', () => {
  it('is sent over the wire (stdio, http) as the JSON it was', () => {
    const e = encodeRequest(deepRequest());
    expect(e.ok).toBe(true);
    expect(equalJson(JSON.parse((e as { json: string }).json), deepRequest())).toBe(true);
    // -0 or NaN deep inside: the slow path, at that depth too.
    const withZero = { ...deepRequest(), z: -0 };
    expect(JSON.parse((encodeRequest(withZero) as { json: string }).json).z).toBe(-0);
    const withNaN = { ...deepRequest(), n: NaN };
    expect(encodeRequest(withNaN)).toMatchObject({ ok: false, reason: expect.stringContaining('NaN at /n') });
  });

  it('is scrubbed: every string made filler at every depth, the shape kept', () => {
    const r = deepRequest() as { ext: unknown };
    (r.ext as Record<string, unknown>).secret = 'text';
    let inner: Record<string, unknown> = r.ext as Record<string, unknown>;
    for (let i = 0; i < DEPTH - 1; i++) inner = inner.x as Record<string, unknown>;
    inner.deepest = 'more text';
    const s = scrubRequest(r).request as { ext: Record<string, unknown> };
    expect(depthOf(s.ext)).toBe(DEPTH);
    const text = stringifyJson(s)!;
    expect(text).not.toContain('text');
    expect(text).toContain('"deepest":"xxxxxxxxx"');
  });

  it('is compared across --repeat rounds: an answer that deep, the same twice, is one answer, not a crash of the kit', async () => {
    const deepAnswer = (): unknown => ({
      context: '',
      included: [],
      omissions: [],
      estimated_tokens: 0,
      total_budget: 5,
      extra: JSON.parse(nestedText(DEPTH)) as unknown,
    });
    const impl = fromFunctions(deepAnswer, () => ({ name: 'deep', version: '1', profiles: ['tiered'], capabilities: [] }));
    const c = {
      id: 'deep/answer',
      file: '',
      description: 'an answer nested deep',
      requirements: ['RES-1'],
      profile: 'tiered' as const,
      since: 'v1',
      capabilities: [],
      tags: [],
      request: { now: 1, budget: 5, blocks: [] },
      expect: { included: [] },
    };
    const r = await runSuite({
      cases: [c],
      impl,
      manifest: { name: 'deep', version: '1', profiles: ['tiered'], capabilities: [] },
      timeoutMs: 10_000,
      concurrency: 1,
      properties: 0,
      seed: 1,
      repeat: 2,
    });
    // Refused by the result schema (an unknown member), the same way both times: error, not flaky.
    expect(r.cases[0]).toMatchObject({ status: 'error' });
    expect(
      deepStrictEqualJson(JSON.parse(nestedText(DEPTH)), JSON.parse(nestedText(DEPTH)), () => {
        throw new RangeError('Maximum call stack size exceeded');
      }),
    ).toBe(true);
    expect(equalJson({ a: 1, b: -0 }, { b: 0, a: 1 }, { anyOrder: true })).toBe(true);
    expect(equalJson({ a: -0 }, { a: 0 }, { negativeZero: true })).toBe(false);
    expect(equalJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
  });

  it('passes the schema checks: ajv does not recurse into members the schemas leave open', () => {
    const deep = JSON.parse(nestedText(DEPTH)) as unknown;
    const result = { context: '', included: [], omissions: [], estimated_tokens: 0, total_budget: 0, extra: deep };
    // Refused for the unknown member, and without walking it.
    expect(validators.result('tiered', [])(result)).toBe(false);
    expect(validators.error()({ error: { code: 'invalid_request', message: 'm', problems: [deep] } })).toBeTypeOf('boolean');
    expect(validators.manifest()({ name: 'n', version: '1', profiles: ['tiered'], capabilities: [], extra: deep })).toBeTypeOf('boolean');
    // uniqueItems compares items by deep equality, recursively: refused with the reason, not a RangeError.
    const manifest = validators.manifest();
    expect(manifest({ name: 'n', version: '1', profiles: [JSON.parse(nestedText(DEPTH)), JSON.parse(nestedText(DEPTH))], capabilities: [] })).toBe(false);
    expect(formatErrors(manifest.errors)).toEqual(['(root): is nested too deep to be checked (its arrays are compared by deep equality, which recurses)']);
    expect(validators.stdioAnswer()({ id: '1', ok: deep })).toBeTypeOf('boolean');
    const valid = caseValidator();
    expect(
      valid({
        description: 'a request nested deep',
        requirements: ['REQ-3'],
        profile: 'tiered',
        since: 'v1',
        request: deepRequest(),
        expect: { included: [] },
      }),
      formatErrors(valid.errors).join('; '),
    ).toBe(true);
  });

  it('is judged (differential, invariants, determinism, blame) in process against the reference and a broken build', async () => {
    const reference = referenceImplementation();
    const ok = await judgeRecorded(reference, await reference.describe(), deepRequest(), { timeoutMs: 10_000, twice: true });
    expect(ok.verdict).toMatchObject({ status: 'pass' });
    const bad = await judgeRecorded(broken(), mutantDescribe(), deepRequest(), { timeoutMs: 10_000, twice: true });
    expect(bad.verdict.status).toBe('fail');
    expect(bad.verdict.requirements).toContain('NUM-2');
  });

  it('is shrunk: the nesting goes first, as an unknown member the failure does not need', async () => {
    const impl = broken();
    const manifest = mutantDescribe();
    const s = await shrinkRecorded(
      deepRequest(),
      async (r) => (await judgeRecorded(impl, manifest, r, { timeoutMs: 10_000, twice: false })).verdict.status === 'fail',
    );
    expect(depthOf(s.request)).toBeLessThan(5);
  });

  it('crosses to a module thread (--module) and back, as JSON text past the structured clone depth', async () => {
    const { impl } = await openModuleWorker(MUTANT_JS);
    try {
      const echo = await impl.assemble(deepRequest(), { timeoutMs: 10_000 });
      expect(echo.kind).toBe('result');
    } finally {
      await impl.close();
    }
  });
});

describe('through every command, in process', () => {
  const file = join(tmp, 'deep.jsonl');
  writeFileSync(file, `${deepRequestText(DEPTH)}\n${deepRequestText(DEPTH, 9)}\n`);
  const source = { path: file, label: 'deep.jsonl' };

  const writers = (report: Report): void => {
    const json = renderJson(report);
    const back = JSON.parse(json) as Report;
    const valid = validators.report();
    expect(valid(back), formatErrors(valid.errors).join('\n')).toBe(true);
    expect(renderHtml(report)).toContain('</html>');
    expect(renderMarkdown(report)).toContain('ctxconform');
    expect(renderJunit(report)).toContain('</testsuites>');
  };

  it('replay: the reference passes, a broken build fails, shrunk and saved; every report written', async () => {
    const reference = referenceImplementation();
    const ok = await replay({
      sources: [source],
      impl: reference,
      manifest: await reference.describe(),
      timeoutMs: 10_000,
      concurrency: 2,
      twice: true,
      shrink: 10,
      maxListed: 100,
    });
    expect(ok.cases.map((c) => c.status)).toEqual(['pass', 'pass']);
    const saved = join(tmp, 'saved-in-process');
    const bad = await replay({
      sources: [source],
      impl: broken(),
      manifest: mutantDescribe(),
      timeoutMs: 10_000,
      concurrency: 2,
      twice: true,
      shrink: 10,
      maxListed: 100,
      saveCounterexamples: saved,
    });
    expect(bad.cases.map((c) => c.status)).toEqual(['fail', 'fail']);
    expect(depthOf(resultsOf(bad.cases, 'replay')[0]!.request)).toBe(DEPTH + 3);
    expect(bad.cases[0]!.message).toMatch(/saved as /);
    writers(bad);
  });

  it('sweep: every budget judged, the disagreement shrunk; every report written', async () => {
    const report = await sweep({
      request: deepRequest(),
      source: 'deep',
      impl: broken(),
      manifest: mutantDescribe(),
      timeoutMs: 10_000,
      concurrency: 2,
      shrink: true,
    });
    expect(report.cases[0]!.status).toBe('fail');
    writers(report);
  });

  it('run: a case held in memory is judged; a case file that deep is refused with its reason, naming the file and line', async () => {
    const reference = referenceImplementation();
    const c = {
      id: 'deep/nested',
      file: 'deep.yaml',
      description: 'd',
      requirements: ['REQ-3'],
      profile: 'tiered' as const,
      since: 'v1',
      capabilities: [],
      tags: [],
      request: deepRequest(),
      expect: { included: ['a'] },
    };
    const passed = await runSuite({
      cases: [c],
      impl: reference,
      manifest: await reference.describe(),
      timeoutMs: 10_000,
      concurrency: 1,
      properties: 0,
      seed: 1,
    });
    expect(passed.cases[0]!.status).toBe('pass');
    const failed = await runSuite({ cases: [c], impl: broken(), manifest: mutantDescribe(), timeoutMs: 10_000, concurrency: 1, properties: 0, seed: 1 });
    expect(failed.cases[0]!.status).toBe('fail');
    writers(failed);
    const dir = join(tmp, 'cases', 'deep');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'nested.yaml'),
      `description: deep\nrequirements: [REQ-3]\nprofile: tiered\nsince: v1\nrequest: ${deepRequestText(DEPTH)}\nexpect:\n  included: [a]\n`,
    );
    const corpus = loadCorpus(join(tmp, 'cases'));
    expect(corpus.cases).toEqual([]);
    expect(corpus.problems).toEqual([
      {
        file: join(dir, 'nested.yaml'),
        line: 5,
        col: 1,
        message: expect.stringMatching(/^nested about \d+ levels deep here; a case file holds at most 200 \(the YAML reader recurses\)/),
      },
    ]);
  });
});

describe('through every command, from the command line (stdio and module)', () => {
  // From the repository root, where tsx resolves for the stdio fixtures; every file is named by its absolute path.
  const cli = (...args: string[]) => cliWith({}, ...args);
  const at = (name: string): string => join(tmp, name);
  writeFileSync(at('deep-cli.jsonl'), `${deepRequestText(DEPTH)}\n`);

  it('replay through stdio: the reference passes, a broken build fails; the reports are written and valid', () => {
    const ok = cli('replay', at('deep-cli.jsonl'), '--stdio', STDIO_REFERENCE, '--json', at('ok.json'), '--quiet');
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    const bad = cli(
      'replay',
      at('deep-cli.jsonl'),
      '--stdio',
      MODULE_STDIO(MUTANT),
      '--json',
      at('bad.json'),
      '--html',
      at('bad.html'),
      '--markdown',
      at('bad.md'),
      '--junit',
      at('bad.xml'),
      '--quiet',
    );
    expect(bad.status, bad.stdout + bad.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(tmp, 'bad.json'), 'utf8')) as Report;
    expect(report.cases[0]).toMatchObject({ status: 'fail' });
    expect(depthOf(resultsOf(report.cases, 'replay')[0]!.request)).toBe(DEPTH + 3);
    expect(readFileSync(join(tmp, 'bad.html'), 'utf8')).toContain('</html>');
  });

  it('replay through --module (a worker thread)', () => {
    const bad = cli('replay', at('deep-cli.jsonl'), '--module', MUTANT_JS, '--quiet');
    expect(bad.status, bad.stdout + bad.stderr).toBe(1);
    expect(bad.stdout).toMatch(/^FAIL replay\/.*deep-cli\.jsonl:1 /m);
    expect(bad.stdout).toMatch(/ 0 crash, /);
    expect(bad.stdout).not.toMatch(/Maximum call stack|cannot be passed/);
  });

  it('sweep --request through stdio', () => {
    const r = cli('sweep', '--request', at('deep-cli.jsonl'), '--stdio', MODULE_STDIO(MUTANT), '--json', at('sweep.json'));
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/first disagreement at budget \d+/);
  });

  it('scrub', () => {
    const r = cli('scrub', at('deep-cli.jsonl'), at('deep-scrubbed.jsonl'));
    expect(r.status, r.stderr).toBe(0);
    expect(depthOf(JSON.parse(readFileSync(at('deep-scrubbed.jsonl'), 'utf8')))).toBe(DEPTH + 3);
  });

  it('a describe answer that deep over stdio: the manifest is refused with the reason (exit 2), no crash', () => {
    const r = cli('run', '--cases', 'none', '--properties', '1', '--stdio', fixtureCommand(join(ROOT, 'test/fixtures/replay/deep-describe.ts')));
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/is not valid: \(root\): is nested too deep to be checked/);
  });

  it('run --cases with a case file that deep: exit 2 and the reason, no crash', () => {
    mkdirSync(join(tmp, 'cli-cases'), { recursive: true });
    writeFileSync(
      join(tmp, 'cli-cases', 'nested.yaml'),
      `description: deep\nrequirements: [REQ-3]\nprofile: tiered\nsince: v1\nrequest: ${deepRequestText(DEPTH)}\nexpect:\n  included: [a]\n`,
    );
    const r = cli('run', '--cases', at('cli-cases'), '--properties', '0', '--stdio', STDIO_REFERENCE);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cli-cases\/nested\.yaml:5:1: nested about \d+ levels deep here; a case file holds at most 200/);
  });
});
