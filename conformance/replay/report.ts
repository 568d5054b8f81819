/** The Report a replay or a sweep makes: the envelope every command's report shares, and its own member. */
import { declaredConstants } from '../declared.js';
import { KIT_VERSION, SPEC_VERSION } from '../version.js';
import type { AdapterName, CaseResult, Manifest, Report, Summary } from '../../protocol/types.js';

export function reportOf(o: {
  manifest: Manifest;
  adapter?: AdapterName;
  target?: string;
  started: Date;
  durationMs: number;
  summary: Summary;
  cases: CaseResult[];
  extra: Pick<Report, 'replay'> | Pick<Report, 'sweep'>;
}): Report {
  const constants = declaredConstants(o.manifest);
  return {
    kit: { name: 'ctxconform', version: KIT_VERSION, spec: SPEC_VERSION },
    implementation: o.manifest,
    run: {
      ...(o.adapter ? { adapter: o.adapter } : {}),
      ...(o.target ? { target: o.target } : {}),
      ...(constants ? { constants } : {}),
      started_at: o.started.toISOString(),
      duration_ms: Math.round(o.durationMs),
    },
    summary: o.summary,
    cases: o.cases,
    ...o.extra,
  };
}
