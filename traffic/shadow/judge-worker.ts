// The judge's side of traffic/shadow/judge-queue.ts: each sampled exchange
// judged off the traffic's thread, the disagreeing ones kept as scrubbed
// records, and the likely cause worked out again now and then from what was
// observed. It always runs compiled (dist/traffic/shadow/judge-worker.js).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Manifest } from '../../protocol/types.js';
import { ObservationLog, STREAM_LIMITS } from '../../diagnosis/log.js';
import { recordedObservation } from '../../diagnosis/recorded.js';
import { diagnosisEntry } from '../../diagnosis/diagnose.js';
import { RecordedJudge } from '../replay/judge.js';
import { MAX_KINDS, judgeSample, kindOf } from './judging.js';
import type { Sample } from './judging.js';
import { RecordsKeeper, scrubMessage } from './records.js';
import type { FromJudge, JudgeMessage, JudgeSetup, ToJudge } from './judge-protocol.js';

const port = parentPort!;

/**
 * The judge gives way to the traffic: on Linux a thread has its own nice value, and this one
 * takes the lowest priority, so a busy machine's CPU goes to the proxy (and the assembler beside
 * it) first and the judge gets what is left; a judge that falls behind fills its queue, and
 * samples past it are dropped and counted, never waited for (SPEC SHD-4). Elsewhere the thread
 * keeps the process's priority.
 */
function yieldToTraffic(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 19);
  } catch {
    // No /proc/thread-self, or no right to change a priority: the judge runs as the process does.
  }
}
yieldToTraffic();
const setup = workerData as JudgeSetup;
const manifest: Manifest = setup.manifest;
/** Made at the first sample, as every judged sample reads it (invalid declared constants fail that sample's judging, not the worker). */
let recorded: RecordedJudge | undefined;
const keeper = setup.records ? new RecordsKeeper(setup.records.dir, setup.records.perKind) : undefined;
const observations = new ObservationLog(STREAM_LIMITS);
/** Kinds whose first message was sent: the report shows one message per kind (as many kinds as the tally lists, MAX_KINDS). */
const described = new Set<string>();
let newFailures = 0;
let lastDiagnosis = 0;

const post = (m: FromJudge): void => port.postMessage(m);

async function diagnoseNow(): Promise<void> {
  newFailures = 0;
  lastDiagnosis = performance.now();
  const { diagnose } = await import('../../diagnosis/diagnose.js');
  const d = diagnose(observations.observations());
  post({ kind: 'causes', causes: d ? d.causes.map((c) => diagnosisEntry(c)) : [] });
}

async function judge(s: Sample, out: JudgeMessage[]): Promise<void> {
  recorded ??= new RecordedJudge(manifest);
  const e = await judgeSample(recorded, s);
  const v = e.verdict;
  const judged: Extract<JudgeMessage, { kind: 'judged' }> = {
    kind: 'judged',
    seq: s.seq,
    at: s.at,
    status: v.status,
    requirements: v.requirements,
    figures: e.figures,
  };
  if (v.status !== 'skip' && e.request !== undefined) {
    observations.add(recordedObservation(`shadow/${s.seq}`, e.request, manifest, e.outcome, v.status === 'pass'));
    if (v.status !== 'pass') newFailures++;
  }
  if (v.status !== 'pass' && v.status !== 'skip') {
    const kind = kindOf(v);
    judged.kind_id = kind.id;
    judged.defect = kind.defect;
    const { kept, scrubbed } = keeper ? keeper.keep(e.request, kind.id) : {};
    if (kept) judged.kept = kept;
    // A message only when someone will read it: the first of its kind, or one kept as a record (the status page's list).
    if (kept || (!described.has(kind.id) && described.size < MAX_KINDS)) {
      described.add(kind.id);
      const copy = scrubbed ?? (await import('../scrub.js')).scrubRequest(e.request).request;
      judged.message = scrubMessage(v.message ?? v.status, e.request, copy);
      judged.scrubbed = copy;
    }
  }
  out.push(judged);
}

// One batch at a time, in order: the queue's bound counts the samples not yet answered; each batch's verdicts go back as one message.
let chain: Promise<void> = Promise.resolve();
port.on('message', (m: ToJudge) => {
  chain = chain.then(async () => {
    if (m.kind === 'finish') {
      try {
        if (observations.seen.failing > 0) await diagnoseNow();
      } finally {
        post({ kind: 'finished' });
      }
      return;
    }
    const messages: JudgeMessage[] = [];
    for (const s of m.samples) {
      try {
        await judge(s, messages);
      } catch (e) {
        // A judging that throws is the kit's fault, reported as such; the traffic never sees it.
        messages.push({ kind: 'judge-error', seq: s.seq, at: s.at, message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      }
    }
    post({ kind: 'batch', messages });
    try {
      if (newFailures > 0 && performance.now() - lastDiagnosis > setup.diagnoseEveryMs) await diagnoseNow();
    } catch (e) {
      post({ kind: 'judge-error', seq: -1, at: performance.now(), message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  });
});
