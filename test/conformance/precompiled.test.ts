/**
 * What the build computes once (dist/corpus.json, dist/validators.cjs) is what
 * the kit computes at run time: the precompiled corpus is the corpus parsed
 * afresh, member for member (-0, NaN and Infinity included), and each
 * precompiled validator gives the runtime-compiled one's verdict and errors.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../judging/cases/load.js';
import { caseValidator } from '../../judging/cases/schema.js';
import { workingContextValidator } from '../../contract/schema.js';
import { KIT_REFS, PRECOMPILED_VALIDATORS, compiled, createAjv } from '../../protocol/schemas.js';
import type { GuardedValidator } from '../../protocol/schemas.js';
import { assemble } from '../../reference/index.js';
import { ROOT } from '../cli.js';

describe('dist/corpus.json', () => {
  it('the compiled loader gives the same corpus from the index as from parsing every file, and uses the index', () => {
    // "Uses the index": every bundled case file has an entry the loader takes (its bytes hash to what was compiled,
    // and SPEC.md and the schema are the ones it was compiled against); a count, not a time a loaded machine could flip.
    const script = `
      import { readFileSync } from 'node:fs';
      import { relative } from 'node:path';
      import { isDeepStrictEqual } from 'node:util';
      import { BUNDLED_CASES_DIR, loadCorpus } from './dist/judging/cases/load.js';
      import { precompiledCase } from './dist/judging/cases/precompiled.js';
      const fast = loadCorpus();
      const slow = loadCorpus(undefined, { precompiled: false });
      const fromIndex = fast.cases.filter((c) => precompiledCase(relative(BUNDLED_CASES_DIR, c.file), readFileSync(c.file, 'utf8')) !== undefined).length;
      console.log(JSON.stringify({ same: isDeepStrictEqual(fast, slow), cases: fast.cases.length, fromIndex }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as Record<string, unknown>;
    const cases = loadCorpus().cases.length;
    expect(out).toEqual({ same: true, cases, fromIndex: cases });
  });

  it('the corpus sends -0 and non-finite numbers, which the index must keep', () => {
    const numbers: number[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'number') numbers.push(v);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    for (const c of loadCorpus().cases) walk(c.request);
    expect(numbers.some((n) => Object.is(n, -0))).toBe(true);
  });
});

describe('dist/validators.cjs', () => {
  caseValidator();
  workingContextValidator();
  const fresh = createAjv();
  const corpus = loadCorpus().cases;
  const samples: unknown[] = [
    ...corpus.flatMap((c) => [c.request, assemble(c.request), c]),
    null,
    [],
    {},
    { now: 0, budget: -1, blocks: [{}] },
    { error: { code: 'nope' } },
  ];

  for (const ref of [...KIT_REFS, 'case.schema.json', 'working-context.schema.json']) {
    it(`${ref}: the precompiled validator's verdicts and errors are ajv's at run time`, () => {
      const pre = compiled(ref);
      const now = fresh.getSchema(ref)!;
      // The kit's validator is the build's, not one compiled now (behind the guard against values nested too deep).
      expect((pre as GuardedValidator).unguarded).toBe((createRequire(import.meta.url)(PRECOMPILED_VALIDATORS) as Record<string, unknown>)[ref]);
      let differing = 0;
      for (const s of samples) {
        const a = pre(s);
        const b = now(s);
        if (a !== b || !isDeepStrictEqual(pre.errors ?? null, now.errors ?? null)) differing++;
      }
      expect(differing).toBe(0);
    });
  }
});
