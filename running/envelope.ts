/** The envelope every command's Report shares (run, replay, sweep): kit, implementation, run, summary, cases. */
import { declaredConstants } from '../judging/expectation.js';
import { KIT_VERSION, SPEC_VERSION } from '../vocabulary/spec.js';
import type { AdapterName, CaseResult, Manifest, Report, Summary } from '../protocol/types.js';

export function reportOf(o: {
  manifest: Manifest;
  adapter?: AdapterName;
  target?: string;
  started: Date;
  durationMs: number;
  summary: Summary;
  cases: CaseResult[];
  /** The command's own members of `run` (seed, shard, filter ...). */
  run?: Omit<NonNullable<Report['run']>, 'adapter' | 'target' | 'constants' | 'started_at' | 'duration_ms'>;
  /** The command's own top-level member (replay, sweep). */
  extra?: Pick<Report, 'replay'> | Pick<Report, 'sweep'>;
}): Report {
  const constants = declaredConstants(o.manifest);
  return {
    kit: { name: 'ctxconform', version: KIT_VERSION, spec: SPEC_VERSION },
    implementation: o.manifest,
    run: {
      ...(o.adapter ? { adapter: o.adapter } : {}),
      ...(o.target ? { target: o.target } : {}),
      ...o.run,
      ...(constants ? { constants } : {}),
      started_at: o.started.toISOString(),
      duration_ms: Math.round(o.durationMs),
    },
    summary: o.summary,
    cases: o.cases,
    ...o.extra,
  };
}
