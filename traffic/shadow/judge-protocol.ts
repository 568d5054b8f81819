/** The messages between the traffic's thread and the judge's (judge-queue.ts, judge-worker.ts). */
import type { Defect, DiagnosisEntry, Manifest, Status } from '../../protocol/types.js';
import type { AnswerFigures, Sample } from './judging.js';
import type { Kept } from './records.js';

export interface JudgeSetup {
  manifest: Manifest;
  records?: { dir: string; perKind: number };
  /** The likely cause is worked out again at most this often, when there are new failures. */
  diagnoseEveryMs: number;
}

/** Samples go over in batches, and their verdicts come back so: one message, and one wake of each thread, for many samples. */
export type ToJudge = { kind: 'batch'; samples: Sample[] } | { kind: 'finish' };

export type FromJudge = JudgeMessage | { kind: 'batch'; messages: JudgeMessage[] };

export type JudgeMessage =
  | {
      kind: 'judged';
      seq: number;
      /** The traffic thread's clock when the sample was taken (the judge's lag is measured against it). */
      at: number;
      status: Status;
      requirements: string[];
      figures: AnswerFigures;
      /** A disagreement: its kind (judging.ts kindOf) and the kind's defect. */
      kind_id?: string;
      defect?: Defect;
      kept?: Kept;
      /** The judge's message and the request, scrubbed: for the first of a kind, and for each one kept. */
      message?: string;
      scrubbed?: unknown;
    }
  | { kind: 'judge-error'; seq: number; at: number; message: string }
  | { kind: 'causes'; causes: DiagnosisEntry[] }
  | { kind: 'finished' };
