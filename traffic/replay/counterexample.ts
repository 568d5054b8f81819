/**
 * A request that fails, shrunk with the judge that failed it and saved as a
 * ready golden case (judging/properties/counterexample.ts writes it, so
 * replay, sweep and property counterexamples are the same kind of case).
 */
import { basename } from 'node:path';
import { compact } from '../../judging/judge.js';
import { saveIfFailing } from '../../judging/properties/counterexample.js';
import type { Implementation, Manifest, Status } from '../../protocol/types.js';
import { judgeRecorded, RecordedJudge } from './judge.js';
import type { RecordedVerdict } from './judge.js';
import { shrinkRecorded } from './shrink.js';

/** A case file name: lower-case letters, digits and `-`, as case ids are. */
export function caseName(prefix: string, label: string, n: number): string {
  const stem = basename(label)
    .replace(/\.(jsonl|ndjson|json)(\.gz)?$|\.gz$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${prefix}-${stem || 'request'}-${n}`;
}

export interface ShrinkAndSave {
  impl: Implementation;
  manifest: Manifest;
  timeoutMs: number;
  twice: boolean;
  request: unknown;
  /** The status the request got: a smaller request must get it too. */
  status: Status;
  /** Where it was found, for the case's description, e.g. `replaying traffic.jsonl line 12`. */
  found: string;
  /** File name without `.yaml`, and the case's tag. */
  name: string;
  tag: 'replay' | 'sweep';
  /** Where to save the case; not saved when absent. */
  dir?: string;
  /** Cited when the shrunk request's failure cites none. */
  requirements: string[];
  /** Aborted (SIGINT, SIGTERM): shrinking ends at its next step, and nothing is saved. */
  signal?: AbortSignal;
}

/**
 * The shrunk request, its verdict when shrinking got anywhere (the failure a
 * baseline keys: vocabulary/defect.ts), and a line saying so (and where it
 * was saved) for the result's message.
 */
export async function shrinkAndSave(o: ShrinkAndSave): Promise<{ request: unknown; note: string; verdict?: RecordedVerdict }> {
  const judge = new RecordedJudge(o.manifest);
  const judgeOf = (r: unknown) => judgeRecorded(o.impl, judge, r, { timeoutMs: o.timeoutMs, twice: o.twice });
  // fast-check keeps the last candidate that still failed: its verdict is the shrunk request's.
  let last: { request: unknown; verdict: RecordedVerdict } | undefined;
  const s = await shrinkRecorded(
    o.request,
    async (r) => {
      const v = (await judgeOf(r)).verdict;
      if (v.status !== o.status) return false;
      last = { request: r, verdict: v };
      return true;
    },
    o.signal ? { signal: o.signal } : {},
  );
  const verdict = last !== undefined && last.request === s.request ? last.verdict : undefined;
  const withVerdict = <T extends object>(x: T): T & { verdict?: RecordedVerdict } => (verdict ? { ...x, verdict } : x);
  let note = `shrunk in ${s.steps} step${s.steps === 1 ? '' : 's'} (${s.tries} tr${s.tries === 1 ? 'y' : 'ies'}) to ${compact(s.request, 400)}`;
  if (s.stopped !== undefined) note += `\nshrinking stopped ${s.stopped}, so a smaller request may exist`;
  if (o.signal?.aborted) return withVerdict({ request: s.request, note: o.dir !== undefined ? `${note}\nnot saved as a case: interrupted` : note });
  if (o.dir !== undefined) {
    // The shrunk request's verdict is in hand when the last try kept was it: no second exchange.
    const v = verdict ?? (await judgeOf(s.request)).verdict;
    const requirements = v.requirements.length > 0 ? v.requirements : o.requirements;
    if (requirements.length === 0) return withVerdict({ request: s.request, note: `${note}\nnot saved as a case: the failure names no requirement` });
    const info = {
      property: o.tag,
      requirements,
      seed: 0,
      path: '',
      message: v.message ?? o.status,
      request: s.request,
      origin: { found: `${o.found} (shrunk)`, name: o.name, tag: o.tag },
    };
    note += '\n' + (await saveIfFailing(info, o.dir, { impl: o.impl, manifest: o.manifest, timeoutMs: o.timeoutMs }));
  }
  return withVerdict({ request: s.request, note });
}
