/**
 * The contract run for a memory service (profile `working-context-api`,
 * SPEC section 16): every scenario goes into a fresh scope, is assembled
 * twice, and each answer is checked clause by clause. The result is one
 * CaseResult per clause, `contract/<name>`, naming the first violation with
 * the request and the answer that show it (shrunk when it came from a random
 * request).
 */
import { JsonClient, type CallRecord } from '../../adapters/memory-api/http.js';
import { MemoryService } from '../../adapters/memory-api/service.js';
import { newRunId, scopeFor, toAssembleRequest } from '../../adapters/memory-api/index.js';
import { refKey, type AssembleContextRequest } from '../../adapters/memory-api/wire.js';
import type { CaseResult, Outcome, Status } from '../types.js';
import { checkExchange, type Finding } from './check.js';
import { CLAUSES, type ClauseId } from './clauses.js';
import { DIRECTED, randomScenarios, type Scenario } from './scenarios.js';
import { shrink } from './shrink.js';

export { CLAUSES, clause, type Clause, type ClauseId } from './clauses.js';
export { checkExchange, type Exchange, type Finding } from './check.js';
export { DIRECTED, randomScenarios, type Scenario } from './scenarios.js';
export { workingContextProblems } from './schema.js';

export interface ContractOptions {
  url: string;
  apiKey?: string;
  timeoutMs: number;
  /** Random requests after the directed scenarios. */
  runs: number;
  seed: number;
  runId?: string;
  /** Exchanges allowed for shrinking each clause's random counterexample (default 40; 0 disables). */
  shrinkTries?: number;
  /** Leave out the directed scenarios (tests of the random part). */
  randomOnly?: boolean;
}

/** A service that fails this many exchanges in a row is not asked again: it is down or hanging. */
const GIVE_UP_AFTER = 3;

interface Violation {
  scenario: Scenario;
  message: string;
  request: { kit: unknown; reservedTokens: number; sent?: AssembleContextRequest };
  actual: unknown;
}

type ExchangeResult =
  | { kind: 'transport'; outcome: Outcome; last?: CallRecord }
  | { kind: 'checked'; findings: Finding[]; exercised: Set<ClauseId>; sent: AssembleContextRequest; first: unknown; second: unknown };

function outcomeMessage(o: Outcome): string {
  if (o.kind === 'error') return `the service answered the error ${String(o.code)}: ${String(o.message)}`;
  return o.kind === 'result' ? 'an unexpected result' : o.message;
}

function transportStatus(o: Outcome): Status {
  return o.kind === 'timeout' ? 'timeout' : o.kind === 'crash' ? 'crash' : o.kind === 'protocol' ? 'error' : 'fail';
}

export async function runContract(o: ContractOptions): Promise<CaseResult[]> {
  const started = Date.now();
  const client = new JsonClient(o.url, o.apiKey, o.timeoutMs);
  const service = new MemoryService(client);
  const runId = o.runId ?? newRunId();
  let n = 0;

  /** One scenario in a fresh scope: ingest, hydrate, assemble twice, check. */
  async function exchange(sc: Scenario): Promise<ExchangeResult> {
    const calls: CallRecord[] = [];
    const deadline = () => Date.now() + o.timeoutMs;
    const transport = (outcome: Outcome): ExchangeResult => ({ kind: 'transport', outcome, ...(calls.length ? { last: calls.at(-1)! } : {}) });
    const ing = await service.ingest(scopeFor(runId, ++n), sc.request.blocks, deadline(), calls);
    if (!ing.ok) return transport(ing.outcome);
    const st = await service.statuses(ing.value, deadline(), calls);
    if (!st.ok) return transport(st.outcome);
    const sent = toAssembleRequest(sc.request, ing.value, { reservedTokens: sc.reservedTokens });
    const first = await service.assemble(sent, deadline(), calls);
    if (!first.ok) return transport(first.outcome);
    const second = await service.assemble(sent, deadline(), calls);
    if (!second.ok) return transport(second.outcome);
    const ingested = new Map([...ing.value.refByBlock].map(([id, ref]) => [refKey(ref), { blockId: id, text: ing.value.blockByRef.get(refKey(ref))!.content }]));
    const { findings, exercised } = checkExchange({ ingested, statuses: st.value, sent, body: first.value.body, again: second.value.body });
    return { kind: 'checked', findings, exercised, sent, first: first.value.body, second: second.value.body };
  }

  const requestOf = (sc: Scenario, sent?: AssembleContextRequest) => ({ kit: sc.request, reservedTokens: sc.reservedTokens, ...(sent ? { sent } : {}) });
  const violationOf = (sc: Scenario, r: Extract<ExchangeResult, { kind: 'checked' }>, f: Finding): Violation => ({
    scenario: sc,
    message: f.message,
    request: requestOf(sc, r.sent),
    actual: f.clause === 'MAPI-12' ? { first: r.first, second: r.second } : r.first,
  });

  const tallies = new Map<ClauseId, { violations: Violation[]; exercised: number }>(CLAUSES.map((c) => [c.id, { violations: [], exercised: 0 }]));
  let transportFailure: { status: Status; violation: Violation } | undefined;
  let completed = 0;
  let failuresInARow = 0;
  const scenarios: Scenario[] = [...(o.randomOnly ? [] : DIRECTED), ...randomScenarios(o.seed, o.runs)];
  const shrunk = new Map<ClauseId, number>();
  const shrinkTries = o.shrinkTries ?? 40;

  try {
    for (const sc of scenarios) {
      if (failuresInARow >= GIVE_UP_AFTER) break;
      const r = await exchange(sc);
      tallies.get('MAPI-1')!.exercised++;
      if (r.kind === 'transport') {
        failuresInARow++;
        const v: Violation = { scenario: sc, message: outcomeMessage(r.outcome), request: requestOf(sc), actual: r.last };
        tallies.get('MAPI-1')!.violations.push(v);
        transportFailure ??= { status: transportStatus(r.outcome), violation: v };
        continue;
      }
      failuresInARow = 0;
      completed++;
      for (const id of r.exercised) tallies.get(id)!.exercised++;
      for (const f of r.findings) tallies.get(f.clause)!.violations.push(violationOf(sc, r, f));
    }

    // A random counterexample is shrunk before it is shown; a directed one is small already.
    for (const [id, t] of tallies) {
      const first = t.violations[0];
      if (id === 'MAPI-1' || !first || !first.scenario.name.startsWith('random') || shrinkTries <= 0) continue;
      let smallest: Violation = first;
      const { tries } = await shrink(
        first.scenario,
        async (s) => {
          const r = await exchange(s);
          const f = r.kind === 'checked' ? r.findings.find((x) => x.clause === id) : undefined;
          if (r.kind === 'checked' && f) smallest = violationOf({ ...s, name: `${first.scenario.name}, shrunk` }, r, f);
          return f !== undefined;
        },
        shrinkTries,
      );
      shrunk.set(id, tries);
      t.violations[0] = smallest;
    }
  } finally {
    await client.close();
  }

  const duration = Date.now() - started;
  return CLAUSES.map((c): CaseResult => {
    const t = tallies.get(c.id)!;
    const base: CaseResult = {
      id: `contract/${c.name}`,
      kind: 'contract',
      status: 'pass',
      requirements: [c.id],
      description: c.description,
      duration_ms: duration,
      seed: o.seed,
      num_runs: scenarios.length,
    };
    const first = t.violations[0];
    if (first) {
      const status = c.id === 'MAPI-1' && transportFailure ? transportFailure.status : 'fail';
      const count = t.violations.length > 1 ? ` (${t.violations.length} of ${t.exercised} exchanges broke it)` : '';
      const gaveUp = c.id === 'MAPI-1' && failuresInARow >= GIVE_UP_AFTER ? `; stopped after ${GIVE_UP_AFTER} failed exchanges in a row` : '';
      const shrinkNote = shrunk.has(c.id) ? `; shrunk to ${first.scenario.request.blocks.length} block(s) in ${shrunk.get(c.id)} tries` : '';
      return {
        ...base,
        status,
        message: `${c.id} (${c.description}) broken in "${first.scenario.name}": ${first.message}${count}${gaveUp}${shrinkNote}`,
        request: first.request,
        actual: first.actual,
        counterexample: first.request,
      };
    }
    if (t.exercised === 0) {
      const why = completed === 0 ? 'no exchange with the service completed (see contract/answers)' : 'no exchange put it to the test';
      return { ...base, status: 'skip', message: `${c.id} not exercised: ${why}` };
    }
    return base;
  });
}
