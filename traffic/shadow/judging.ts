/**
 * One live exchange judged exactly as `replay` judges a record
 * (traffic/replay/judge.ts): the answer the upstream already gave is the
 * implementation's answer, handed to judgeRecorded by an implementation that
 * answers with it. It is sent once, so determinism is not judged (a replay of
 * the kept records judges it). What runs in the judge's worker thread, and in
 * the observer's.
 */
import { judgeRecorded } from '../replay/judge.js';
import type { RecordedJudge } from '../replay/judge.js';
import type { RecordedVerdict } from '../replay/judge.js';
import { defectFrom } from '../../vocabulary/defect.js';
import { httpAnswerOutcome } from '../../adapters/http-answer.js';
import type { Defect, Implementation, Outcome, Status } from '../../protocol/types.js';

/** A sampled exchange as it crosses to the judge: the proxy's bytes (an http answer), or the observer's values. */
export type Sample =
  | { kind: 'bytes'; seq: number; at: number; request: Uint8Array; status: number; answer: Uint8Array }
  | { kind: 'outcome'; seq: number; at: number; request: unknown; outcome: Outcome };

/** The upstream's figures the chapter's metrics read (context_tokens_est, sections_omitted, pinned_overflow_errors). */
export interface AnswerFigures {
  tokens?: number;
  omitted?: number;
  pinnedOverflow: boolean;
}

export interface ExchangeVerdict {
  verdict: RecordedVerdict;
  /** The request as parsed, when it was JSON. */
  request?: unknown;
  outcome?: Outcome;
  figures: AnswerFigures;
}

const decoder = new TextDecoder('utf-8');

function answering(outcome: Outcome): Implementation {
  return {
    describe: () => Promise.reject(new Error('the shadow judges answers already given; it does not ask')),
    assemble: async () => outcome,
    close: async () => {},
  };
}

export function figuresOf(outcome: Outcome | undefined): AnswerFigures {
  if (outcome?.kind === 'error') return { pinnedOverflow: outcome.code === 'pinned_overflow' };
  if (outcome?.kind !== 'result' || typeof outcome.value !== 'object' || outcome.value === null) return { pinnedOverflow: false };
  const v = outcome.value as { estimated_tokens?: unknown; omissions?: unknown };
  return {
    ...(typeof v.estimated_tokens === 'number' && Number.isFinite(v.estimated_tokens) ? { tokens: v.estimated_tokens } : {}),
    ...(Array.isArray(v.omissions) ? { omitted: v.omissions.length } : {}),
    pinnedOverflow: false,
  };
}

/** The request and the answer of a sample as the judge reads them; a request that is not JSON is no request the kit can judge. */
export function readSample(s: Sample): { request: unknown; outcome: Outcome } | { skip: string } {
  if (s.kind === 'outcome') return { request: s.request, outcome: s.outcome };
  let request: unknown;
  try {
    request = JSON.parse(decoder.decode(s.request));
  } catch {
    return { skip: 'the request body is not JSON: no request to judge' };
  }
  return { request, outcome: httpAnswerOutcome(s.status, decoder.decode(s.answer)) };
}

export async function judgeSample(judge: RecordedJudge, s: Sample): Promise<ExchangeVerdict> {
  const read = readSample(s);
  if ('skip' in read) return { verdict: { status: 'skip', message: read.skip, requirements: [] }, figures: { pinnedOverflow: false } };
  const judged = await judgeRecorded(answering(read.outcome), judge, read.request, { timeoutMs: 0, twice: false });
  return { verdict: judged.verdict, request: read.request, outcome: read.outcome, figures: figuresOf(read.outcome) };
}

/**
 * A kind of disagreement: its requirements, the checks that failed and its
 * status. The shadow's report lists one result per kind, and a baseline entry
 * names it by this id, with the checks and members as its defect: where in
 * the answer it differs changes from request to request, so it is not part of
 * the key.
 */
export interface DisagreementKind {
  id: string;
  status: Exclude<Status, 'pass' | 'skip'>;
  requirements: string[];
  defect: Defect;
}

/** Kinds of disagreement listed in a report and described by a message; more are counted in the summary only. */
export const MAX_KINDS = 500;

export function kindOf(v: RecordedVerdict): DisagreementKind {
  const requirements = [...v.requirements].sort();
  const checks = [...(v.checks ?? [])].sort();
  const status = v.status as DisagreementKind['status'];
  const { paths: _, ...defect } = defectFrom(v);
  const id = `shadow/${requirements.join('+') || 'unattributed'}/${checks.join('+') || 'answer'}${status === 'fail' ? '' : `/${status}`}`;
  return { id, status, requirements, defect };
}
