/**
 * The conformance suite inside a vendor's own vitest run: one `describe` per
 * case area, one `it` per golden case, skipped (with the reason) when the
 * manifest does not declare what the case needs; with `properties: N`, one
 * `it` per property as well. The package's entry, `ctxconform/vitest`
 * (cli/vitest.ts), names the implementation and spells the rerun commands;
 * this defines the suite around an implementation it opens.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { BUNDLED_CASES_DIR, formatProblem, loadCorpus } from '../judging/cases/load.js';
import { formatFailure } from './console.js';
import { idMatcher } from './filter.js';
import { DEFAULT_TIMEOUT_MS } from './open.js';
import type { OpenedImplementation } from './open.js';
import { runCase, toResult } from './run.js';
import type { GoldenCase } from '../vocabulary/types.js';
import { PROPERTIES, runProperties } from '../judging/properties/index.js';

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

/** The implementation a suite drives: opened once before its first case, and how a failing case is rerun outside vitest. */
export interface SuiteImplementation {
  open(): Promise<OpenedImplementation>;
  rerun?(id: string): string;
}

function area(id: string): string {
  const i = id.indexOf('/');
  return i < 0 ? id : id.slice(0, i);
}

export function defineSuite(target: SuiteImplementation, options: ConformanceSuiteOptions = {}): void {
  const { cases, problems } = loadCorpus(options.cases ?? BUNDLED_CASES_DIR);
  if (problems.length > 0) throw new Error(`the cases have problems:\n${problems.map(formatProblem).join('\n')}`);
  const matches = idMatcher(options.filter);
  const selected = cases.filter((c) => matches(c));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let opened: OpenedImplementation | undefined;

  describe(options.name ?? 'ctxconform', () => {
    beforeAll(async () => {
      opened = await target.open();
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
              throw new Error(formatFailure(toResult(c, r, target.rerun ? (id) => target.rerun!(id) : undefined, o.manifest)));
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
