/**
 * The conformance suite inside a vendor's own vitest run: one `describe` per
 * case area, one `it` per golden case, skipped (with the reason) when the
 * manifest does not declare what the case needs; with `properties: N`, one
 * `it` per property as well.
 *
 *   // conformance.test.ts
 *   import { defineConformanceSuite } from 'ctxconform/vitest';
 *   defineConformanceSuite({ stdio: 'python3 impl.py' });
 *
 * The package is compiled JavaScript with declarations: vitest needs no configuration for it.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { BUNDLED_CASES_DIR, formatProblem, loadCorpus } from './cases/load.js';
import { formatFailure, shellQuote } from './runner/console.js';
import { idMatcher } from './runner/filter.js';
import { openFromOptions } from './runner/open.js';
import type { Driven } from './runner/open.js';
import { implementationFlags, rerunCommand } from './runner/transports.js';
import { runCase, toResult } from './runner/run.js';
import type { GoldenCase } from './types.js';
import { PROPERTIES, runProperties } from './properties/index.js';

/** One transport's option and its value, as on the command line: `{ module: './impl.js' }`, `{ stdio: 'python3 impl.py' }`, `{ http: URL }`. */
export type ConformanceTarget = { module: string } | { stdio: string } | { http: string } | Record<string, string>;

export interface ConformanceSuiteOptions {
  /** Case directory (default: the bundled corpus). */
  cases?: string;
  /** Which cases, as `ctxconform run --filter`: id globs, tag:, req:, area:, `!` to exclude. */
  filter?: string;
  /** Manifest file, when the implementation cannot describe itself. */
  manifest?: string;
  /** Per case (default 5000). */
  timeoutMs?: number;
  /** Name of the outer describe block (default `ctxconform`). */
  name?: string;
  /** Runs per property, one `it` per property (default 0: golden cases only). */
  properties?: number;
  /** Property seed (default 1). */
  seed?: number;
}

/** The target and options as the command line would give them. */
function optionValues(target: ConformanceTarget, options: ConformanceSuiteOptions): Record<string, string> {
  return {
    ...target,
    ...(options.manifest ? { manifest: options.manifest } : {}),
    ...(options.timeoutMs !== undefined ? { timeout: String(options.timeoutMs) } : {}),
  };
}

/** The ctxconform command that reruns one case against the same target, outside vitest. */
function rerun(target: ConformanceTarget, options: ConformanceSuiteOptions, id: string): string {
  return rerunCommand('run', implementationFlags(optionValues(target, options)), [
    ...(options.cases ? ['--cases', shellQuote(options.cases)] : []),
    '--filter',
    shellQuote(id),
    '--properties',
    '0',
  ]);
}

function area(id: string): string {
  const i = id.indexOf('/');
  return i < 0 ? id : id.slice(0, i);
}

export function defineConformanceSuite(target: ConformanceTarget, options: ConformanceSuiteOptions = {}): void {
  const { cases, problems } = loadCorpus(options.cases ?? BUNDLED_CASES_DIR);
  if (problems.length > 0) throw new Error(`the cases have problems:\n${problems.map(formatProblem).join('\n')}`);
  const matches = idMatcher(options.filter);
  const selected = cases.filter((c) => matches(c));
  const timeoutMs = options.timeoutMs ?? 5000;
  let opened: Driven | undefined;

  describe(options.name ?? 'ctxconform', () => {
    beforeAll(async () => {
      opened = await openFromOptions(optionValues(target, options), ['assembler']);
    }, 60_000);
    afterAll(async () => {
      await opened?.impl.close();
    });
    const groups = new Map<string, GoldenCase[]>();
    for (const c of selected) groups.set(area(c.id), [...(groups.get(area(c.id)) ?? []), c]);
    for (const [name, group] of groups) {
      describe(name, () => {
        for (const c of group) {
          it(
            c.id,
            async (ctx) => {
              const o = opened!;
              // runCase skips (without asking the implementation) what the manifest does not declare.
              const r = await runCase(c, o.impl, o.manifest, timeoutMs);
              if (r.verdict.status === 'pass') return;
              if (r.verdict.status === 'skip') return ctx.skip(r.verdict.message);
              throw new Error(formatFailure(toResult(c, r, (id) => rerun(target, options, id))));
            },
            timeoutMs + 5000,
          );
        }
      });
    }
    const runs = options.properties ?? 0;
    const names = runs > 0 ? PROPERTIES.map((p) => p.name).filter((n) => matches(`property/${n}`)) : [];
    if (names.length > 0) {
      describe('property', () => {
        for (const name of names) {
          it(
            `property/${name}`,
            async (ctx) => {
              const o = opened!;
              const [result] = await runProperties(o.impl, o.manifest, { runs, seed: options.seed ?? 1, timeoutMs, only: [name] });
              if (!result || result.status === 'pass') return;
              if (result.status === 'skip') return ctx.skip(result.message);
              throw new Error(formatFailure(result));
            },
            // Shrinking may take many answers; the properties bound it themselves.
            Math.max(120_000, runs * timeoutMs),
          );
        }
      });
    }
  });
}
