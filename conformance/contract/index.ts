/**
 * The contract run for a memory service (profile `working-context-api`,
 * SPEC section 16): every scenario goes into a fresh scope, is assembled
 * twice, and each answer is checked clause by clause. The result is one
 * CaseResult per clause, `contract/<name>`, naming the first violation with
 * the request and the answer that show it.
 */
import { JsonClient, type CallRecord } from '../../adapters/memory-api/http.js';
import { MemoryService } from '../../adapters/memory-api/service.js';
import { newRunId, scopeFor, toAssembleRequest } from '../../adapters/memory-api/index.js';
import { refKey, type AssembleContextRequest } from '../../adapters/memory-api/wire.js';
import type { CaseResult, Outcome, Status } from '../types.js';
import { checkExchange } from './check.js';
import { CLAUSES, type ClauseId } from './clauses.js';
import { DIRECTED, randomScenarios, type Scenario } from './scenarios.js';

export { CLAUSES, clause, type Clause, type ClauseId } from './clauses.js';
export { checkExchange, type Exchange, type Finding } from './check.js';
export { DIRECTED, randomScenarios, type Scenario } from './scenarios.js';
export { workingContextProblems } from './schema.js';

export interface ContractOptions {
  url: string;
  apiKey?: string;
  timeoutMs: number;
  runs: number;
  seed: number;
  runId?: string;
}

/** A service that fails this many exchanges in a row is not asked again: it is down or hanging. */
const GIVE_UP_AFTER = 3;

interface Violation {
  scenario: string;
  message: string;
  request: { kit: unknown; reservedTokens: number; sent?: AssembleContextRequest };
  actual: unknown;
}

interface Tally {
  violations: Violation[];
  exercised: number;
}

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
  const tallies = new Map<ClauseId, Tally>(CLAUSES.map((c) => [c.id, { violations: [], exercised: 0 }]));
  let transport: { status: Status; violation: Violation } | undefined;
  let exchanges = 0;
  let failuresInARow = 0;
  let n = 0;

  const scenarios: Scenario[] = [...DIRECTED, ...randomScenarios(o.seed, o.runs)];
  try {
    for (const sc of scenarios) {
      if (failuresInARow >= GIVE_UP_AFTER) break;
      const calls: CallRecord[] = [];
      const requestOf = (sent?: AssembleContextRequest) => ({ kit: sc.request, reservedTokens: sc.reservedTokens, ...(sent ? { sent } : {}) });
      const stop = (out: Outcome) => {
        failuresInARow++;
        tallies.get('MAPI-1')!.exercised++;
        const v: Violation = { scenario: sc.name, message: outcomeMessage(out), request: requestOf(), actual: calls.at(-1) };
        tallies.get('MAPI-1')!.violations.push(v);
        transport ??= { status: transportStatus(out), violation: v };
      };
      const deadline = () => Date.now() + o.timeoutMs;
      const ing = await service.ingest(scopeFor(runId, ++n), sc.request.blocks, deadline(), calls);
      if (!ing.ok) {
        stop(ing.outcome);
        continue;
      }
      const st = await service.statuses(ing.value, deadline(), calls);
      if (!st.ok) {
        stop(st.outcome);
        continue;
      }
      const sent = toAssembleRequest(sc.request, ing.value, { reservedTokens: sc.reservedTokens });
      const first = await service.assemble(sent, deadline(), calls);
      if (!first.ok) {
        stop(first.outcome);
        continue;
      }
      const second = await service.assemble(sent, deadline(), calls);
      if (!second.ok) {
        stop(second.outcome);
        continue;
      }
      failuresInARow = 0;
      exchanges++;
      tallies.get('MAPI-1')!.exercised++;
      const ingested = new Map([...ing.value.refByBlock].map(([id, ref]) => [refKey(ref), { blockId: id, text: ing.value.blockByRef.get(refKey(ref))!.content }]));
      const { findings, exercised } = checkExchange({ ingested, statuses: st.value, sent, body: first.value.body, again: second.value.body });
      for (const id of exercised) tallies.get(id)!.exercised++;
      for (const f of findings) {
        const actual = f.clause === 'MAPI-12' ? { first: first.value.body, second: second.value.body } : first.value.body;
        tallies.get(f.clause)!.violations.push({ scenario: sc.name, message: f.message, request: requestOf(sent), actual });
      }
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
    if (c.id === 'MAPI-1' && transport && first) {
      return { ...base, status: transport.status, message: `${c.id} (${c.description}) broken in "${first.scenario}": ${first.message}${failuresInARow >= GIVE_UP_AFTER ? `; stopped after ${GIVE_UP_AFTER} failed exchanges in a row` : ''}`, request: first.request, actual: first.actual, counterexample: first.request };
    }
    if (first) {
      const more = t.violations.length > 1 ? ` (${t.violations.length} of ${t.exercised} exchanges broke it)` : '';
      return { ...base, status: 'fail', message: `${c.id} (${c.description}) broken in "${first.scenario}": ${first.message}${more}`, request: first.request, actual: first.actual, counterexample: first.request };
    }
    if (t.exercised === 0) {
      const why = exchanges === 0 ? 'no exchange with the service completed (see contract/answers)' : 'no exchange put it to the test';
      return { ...base, status: 'skip', message: `${c.id} not exercised: ${why}` };
    }
    return base;
  });
}
