/**
 * The memory-api contract (SPEC section 16): the clauses a memory service is held to, and their run.
 *
 * The contract run for a memory service (profile `working-context-api`,
 * SPEC section 16): every scenario goes into a fresh scope, is assembled once
 * with nothing pressing on it (what the service retrieves) and twice as
 * asked, and each answer is checked clause by clause. The result is one
 * CaseResult per clause, `contract/<name>`: the first violation with the
 * request and the answer that show it (shrunk when it came from a random
 * request), how many exchanges tested the clause, or why none did.
 */
import { JsonClient, type CallRecord } from '../adapters/memory-api/http.js';
import { MemoryService } from '../adapters/memory-api/service.js';
import { fallbackNote, type Fallback } from '../adapters/memory-api/optional.js';
import { filtersOpenedRequest, newRunId, scopeFor, toAssembleRequest, unconstrainedRequest } from '../adapters/memory-api/index.js';
import { refKey, type AssembleContextRequest } from '../adapters/memory-api/wire.js';
import type { ContractResult, Outcome, Status } from '../protocol/types.js';
import { CONTRACT_LEVEL } from '../vocabulary/levels.js';
import { checkExchange, keptOut, type Finding, type IngestedMemory } from './check.js';
import { addUndercount, DEFAULT_ESTIMATOR, loadEstimator, noUndercount, undercountNote, type Estimator } from './estimator.js';
import { CLAUSES, FALLBACK_PREFIX, type Clause, type ClauseId, type Facet, type Need } from './clauses.js';

export { FALLBACK_PREFIX } from './clauses.js';
import { DIRECTED, randomScenarios, type Scenario } from './scenarios.js';
import { shrink } from './shrink.js';

export { CLAUSES, type Clause, type ClauseId, type Facet, type Need } from './clauses.js';
export { checkExchange, keptOut, statusAdmitted, type CheckOutcome, type Exchange, type Finding, type IngestedMemory } from './check.js';
export { DEFAULT_ESTIMATOR, ESTIMATOR_CHOICES, isEstimatorSpec, loadEstimator, type Estimator } from './estimator.js';
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
  /** The task sent (default: the marker). */
  task?: string;
  /** The run marker carried by every ingested text (default DEFAULT_MARKER; '' for none). */
  marker?: string;
  /** Exchanges allowed for shrinking each clause's random counterexample (default 40; 0 disables). */
  shrinkTries?: number;
  /** Leave out the directed scenarios (tests of the random part). */
  randomOnly?: boolean;
  /** How the service counts tokens, as `--estimator` spells it (default `4`: NUM-2's 4 code points a token). */
  estimator?: string;
}

/** How a note in contract/answers' message starts when the run left out a part of its requests the service refused as the contract allows. */

/** A service that fails this many exchanges in a row is not asked again: it is down or hanging. */
const GIVE_UP_AFTER = 3;

interface Violation {
  scenario: Scenario;
  message: string;
  request: { kit: unknown; reservedTokens: number; sent?: AssembleContextRequest; unconstrained?: AssembleContextRequest };
  actual: unknown;
}

interface Checked {
  kind: 'checked';
  findings: Finding[];
  /** Optional parts this exchange found broken and left out from then on (MAPI-1, optional.ts). */
  brokeOn: Fallback[];
  /** The call that refused the part (for the MAPI-1 report). */
  refused?: CallRecord;
  budget?: { estimate?: number; counted: number };
  tested: Set<ClauseId>;
  facets: Set<Facet>;
  sent: AssembleContextRequest;
  unconstrainedSent: AssembleContextRequest;
  unconstrained: unknown;
  first: unknown;
  second: unknown;
}

type ExchangeResult = { kind: 'transport'; outcome: Outcome; last?: CallRecord } | Checked;

function outcomeMessage(o: Outcome): string {
  if (o.kind === 'error') return `the service answered the error ${String(o.code)}: ${String(o.message)}`;
  return o.kind === 'result' ? 'an unexpected result' : o.message;
}

function fail(message: string): never {
  throw new Error(message);
}

function transportStatus(o: Outcome): Status {
  return o.kind === 'timeout' ? 'timeout' : o.kind === 'crash' ? 'crash' : o.kind === 'protocol' ? 'error' : 'fail';
}

interface Tally {
  /** The first violation (shrunk, when random) and how many exchanges broke the clause. */
  first?: Violation;
  broken: number;
  tested: number;
}

export async function runContract(o: ContractOptions): Promise<ContractResult[]> {
  const started = Date.now();
  const estimator: Estimator =
    o.estimator === undefined ? DEFAULT_ESTIMATOR : ((await loadEstimator(o.estimator)) ?? fail(`unknown estimator ${JSON.stringify(o.estimator)}`));
  const client = new JsonClient(o.url, o.apiKey, o.timeoutMs);
  const service = new MemoryService(client);
  const runId = o.runId ?? newRunId();
  let n = 0;

  /** One scenario in a fresh scope: ingest, hydrate, assemble unconstrained, assemble twice as asked (and with the filters opened when they keep something out), check. */
  async function exchange(sc: Scenario): Promise<ExchangeResult> {
    const calls: CallRecord[] = [];
    const fallbacksBefore = service.fallbacks.length;
    const deadline = () => Date.now() + o.timeoutMs;
    const transport = (outcome: Outcome): ExchangeResult => ({ kind: 'transport', outcome, ...(calls.length ? { last: calls.at(-1)! } : {}) });
    const ing = await service.ingest(() => scopeFor(runId, ++n), sc.request.blocks, deadline(), calls, o.marker);
    if (!ing.ok) return transport(ing.outcome);
    const st = await service.statuses(ing.value, deadline(), calls);
    if (!st.ok) return transport(st.outcome);
    const ingested = new Map<string, IngestedMemory>();
    for (const [id, ref] of ing.value.refByBlock) {
      const episode = ing.value.episodeByRef.get(refKey(ref))!;
      const sentWith = { createdBy: episode.createdBy, ...(episode.dedupeKey !== undefined ? { dedupeKey: episode.dedupeKey } : {}) };
      ingested.set(refKey(ref), { blockId: id, text: episode.content.text, content: episode.content, ...sentWith });
    }
    const asked = toAssembleRequest(sc.request, ing.value, {
      reservedTokens: sc.reservedTokens,
      ...(o.task !== undefined ? { task: o.task } : {}),
      ...(o.marker !== undefined ? { marker: o.marker } : {}),
    });
    const unconstrained = unconstrainedRequest(asked, ing.value);
    const open = await service.assemble(unconstrained, deadline(), calls);
    if (!open.ok) return transport(open.outcome);
    const first = await service.assemble(asked, deadline(), calls);
    if (!first.ok) return transport(first.outcome);
    const second = await service.assemble(asked, deadline(), calls);
    if (!second.ok) return transport(second.outcome);
    const sent = first.value.sent;
    let opened: unknown;
    if (keptOut({ ingested, statuses: st.value, sent }).size) {
      const r = await service.assemble(filtersOpenedRequest(open.value.sent), deadline(), calls);
      if (!r.ok) return transport(r.outcome);
      opened = r.value.body;
    }
    const checked = checkExchange({
      ingested,
      statuses: st.value,
      sent,
      body: first.value.body,
      again: second.value.body,
      unconstrained: open.value.body,
      estimator,
      ...(opened !== undefined ? { opened } : {}),
    });
    const brokeOn = service.fallbacks.slice(fallbacksBefore).filter((f) => !f.allowed);
    const refused = brokeOn.length ? calls.find((c) => c.op === brokeOn[0]!.op) : undefined;
    return {
      kind: 'checked',
      ...checked,
      brokeOn,
      ...(refused ? { refused } : {}),
      sent,
      unconstrainedSent: open.value.sent,
      unconstrained: open.value.body,
      first: first.value.body,
      second: second.value.body,
    };
  }

  const requestOf = (sc: Scenario, r?: Checked, withUnconstrained = false) => ({
    kit: sc.request,
    reservedTokens: sc.reservedTokens,
    ...(r ? { sent: r.sent } : {}),
    ...(r && withUnconstrained ? { unconstrained: r.unconstrainedSent } : {}),
  });
  // What each verdict rests on: MAPI-12 compares two answers, MAPI-4 the answer with what the service retrieves.
  const violationOf = (sc: Scenario, r: Checked, f: Finding): Violation => ({
    scenario: sc,
    message: f.message,
    request: requestOf(sc, r, f.clause === 'MAPI-4'),
    actual:
      f.clause === 'MAPI-12' ? { first: r.first, second: r.second } : f.clause === 'MAPI-4' ? { answer: r.first, unconstrained: r.unconstrained } : r.first,
  });

  const tallies = new Map<ClauseId, Tally>(CLAUSES.map((c) => [c.id, { broken: 0, tested: 0 }]));
  const facets = new Set<Facet>();
  const undercount = noUndercount();
  let transportFailure: Status | undefined;
  let attempted = 0;
  let completed = 0;
  let failuresInARow = 0;
  let failedOp = '';
  const scenarios: Scenario[] = [...(o.randomOnly ? [] : DIRECTED), ...randomScenarios(o.seed, o.runs)];
  const shrunk = new Map<ClauseId, number>();
  const shrinkTries = o.shrinkTries ?? 40;

  try {
    for (const sc of scenarios) {
      if (failuresInARow >= GIVE_UP_AFTER) break;
      const r = await exchange(sc);
      attempted++;
      const answers = tallies.get('MAPI-1')!;
      answers.tested++;
      facets.add('MAPI-1:asked');
      if (r.kind === 'transport') {
        failuresInARow++;
        failedOp = r.last?.op ?? '';
        answers.broken++;
        answers.first ??= { scenario: sc, message: outcomeMessage(r.outcome), request: requestOf(sc), actual: r.last };
        transportFailure ??= transportStatus(r.outcome);
        continue;
      }
      failuresInARow = 0;
      completed++;
      // A broken optional part fails MAPI-1 in the exchange that found it; the exchange went on without it and is checked like any other.
      if (r.brokeOn.length) {
        answers.broken++;
        answers.first ??= { scenario: sc, message: r.brokeOn.map(fallbackNote).join('; '), request: requestOf(sc, r), actual: r.refused };
        transportFailure ??= 'fail';
      }
      if (r.budget?.estimate !== undefined) addUndercount(undercount, r.budget.estimate, r.budget.counted, sc.name);
      for (const id of r.tested) tallies.get(id)!.tested++;
      for (const f of r.facets) facets.add(f);
      // "N of M exchanges": a clause broken twice in one exchange counts once.
      const seen = new Set<ClauseId>();
      for (const f of r.findings) {
        if (seen.has(f.clause)) continue;
        seen.add(f.clause);
        const t = tallies.get(f.clause)!;
        t.broken++;
        t.first ??= violationOf(sc, r, f);
      }
    }

    // A random counterexample is shrunk before it is shown; a directed one is small already.
    for (const [id, t] of tallies) {
      const first = t.first;
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
      t.first = smallest;
    }
  } finally {
    await client.close();
  }

  const duration = Date.now() - started;
  const stopped = failuresInARow >= GIVE_UP_AFTER;
  // Refusals the contract allows are noted once, in contract/answers (the terminal shows them under the clause table).
  const fallbackNotes = service.fallbacks
    .filter((f) => f.allowed)
    .map((f) => `; ${FALLBACK_PREFIX}${fallbackNote(f)}`)
    .join('');
  const notes = new Map<ClauseId, string>([
    ['MAPI-1', fallbackNotes],
    ['MAPI-3', undercountNote(undercount, estimator)],
  ]);
  const notReached =
    `not reached: the run stopped after ${attempted} of ${scenarios.length} exchanges, when ` +
    `${failedOp || 'the service'} failed in ${GIVE_UP_AFTER} exchanges in a row (see contract/answers)`;
  return CLAUSES.map((c): ContractResult => {
    const t = tallies.get(c.id)!;
    const note = notes.get(c.id) ?? '';
    const base: ContractResult = {
      id: `contract/${c.name}`,
      kind: 'contract',
      level: CONTRACT_LEVEL,
      status: 'pass',
      requirements: [c.id],
      description: c.description,
      duration_ms: duration,
      seed: o.seed,
      num_runs: attempted,
      exchanges_tested: t.tested,
    };
    const first = t.first;
    if (first) {
      const status = c.id === 'MAPI-1' && transportFailure ? transportFailure : 'fail';
      const count = ` (${t.broken} of ${t.tested} exchanges that tested it broke it)`;
      const gaveUp = c.id === 'MAPI-1' && stopped ? `; stopped after ${GIVE_UP_AFTER} failed exchanges in a row` : '';
      const shrinkNote = shrunk.has(c.id) ? `; shrunk to ${first.scenario.request.blocks.length} block(s) in ${shrunk.get(c.id)} tries` : '';
      return {
        ...base,
        status,
        message: `${c.id} (${c.description}) broken in "${first.scenario.name}": ${first.message}${count}${gaveUp}${shrinkNote}${note}`,
        request: first.request,
        actual: first.actual,
        counterexample: first.request,
      };
    }
    const rest = t.tested ? ` (${t.tested} of ${attempted} exchanges tested the rest; none broke it)` : '';
    const hinted = (need: Need) => (c as Clause).hints?.find((h) => h.need === need.facet && facets.has(`${c.id}:${h.facet}` as Facet))?.says;
    const missing = c.needs.filter((need) => !facets.has(`${c.id}:${need.facet}` as Facet)).map((need) => hinted(need) ?? need.untested);
    // A clause the run did not get to test says so, not what the service did in the exchanges before it stopped.
    if (c.id !== 'MAPI-1' && (completed === 0 || missing.length) && stopped)
      return { ...base, status: 'skip', message: `${c.id} untested: ${notReached}${rest}${note}` };
    if (completed === 0 && c.id !== 'MAPI-1')
      return { ...base, status: 'skip', message: `${c.id} untested: no exchange with the service completed (see contract/answers)` };
    if (missing.length) return { ...base, status: 'skip', message: `${c.id} untested: ${missing.join('; ')}${rest}${note}` };
    return { ...base, message: `${c.id} held in all ${t.tested} of ${attempted} exchanges that tested it${note}` };
  });
}
