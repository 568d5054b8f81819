/**
 * The constants probe (SPEC section 15): infers an implementation's constants
 * from black-box answers to tiny crafted `tiered` requests, and compares each
 * with the specification. Each question is asked with as few requests as
 * decide it; the spec's value is tried first, so a conforming implementation
 * costs the fewest.
 */
import { SOURCE_TO_TIER, tierBudget as specTierBudget, TIERS } from '../../reference/index.js';
import type { Tier } from '../../reference/index.js';
import type { Implementation, Manifest } from '../../protocol/types.js';
import type { Estimator } from './estimate.js';
import { candidates, cost, describeRounding, lengthForCost, SPEC_ESTIMATOR } from './estimate.js';
import type { ProbeBlock } from './session.js';
import { ProbeError, ProbeSession } from './session.js';

export type RowStatus = 'match' | 'drift' | 'undetermined';

export interface ProbeRow {
  constant: string;
  expected: string;
  detected: string;
  status: RowStatus;
  /** Requests spent on this question. */
  requests: number;
  note?: string;
}

export interface ProbeReport {
  implementation: Manifest;
  requests: number;
  drift: boolean;
  constants: ProbeRow[];
}

/** The budget at which tier budgets are measured: every spec percentage is exact there. */
const TIER_PROBE_BUDGET = 1000;
/** Large enough that one small block always fits, whatever the split. */
const ROOMY_BUDGET = 1_000_000;
const ESTIMATE_LENGTHS = Array.from({ length: 25 }, (_, i) => i);
const UNKNOWN_SOURCE = 'notes';
/** Listed sources, one outside the map, and listed names in the wrong case (TIER-1 is case-sensitive). */
const PROBED_SOURCES: readonly { source: string; expected: Tier; label: string }[] = [
  ...Object.entries(SOURCE_TO_TIER).map(([source, tier]) => ({ source, expected: tier, label: source })),
  { source: UNKNOWN_SOURCE, expected: 'working', label: `${UNKNOWN_SOURCE} (unknown)` },
  { source: 'Memory', expected: 'working', label: 'Memory (wrong case)' },
  { source: 'WAF_INFO', expected: 'working', label: 'WAF_INFO (wrong case)' },
];

const ASTRAL = '\u{1f600}';

/** Distinct letters per block, so a block cut to fit never passes for another's whole content. */
const text = (e: Estimator, tokens: number, letter: string): string => {
  const n = lengthForCost(e, tokens);
  if (n === undefined) throw new ProbeError(`no content length costs ${tokens} tokens under the detected estimate`);
  return letter.repeat(n);
};

/**
 * The largest x in [lo, hi] for which `admits(x)` holds, assuming it holds for
 * every x up to some threshold and for none above. The spec's value is tried
 * first: two requests confirm it. Undefined when even `lo` is refused.
 */
export async function largestAdmitted(admits: (x: number) => Promise<boolean>, lo: number, hi: number, guess?: number): Promise<number | undefined> {
  let yes = lo - 1; // largest known admitted
  let no = hi + 1; // smallest known refused
  if (guess !== undefined && guess >= lo && guess <= hi) {
    if (await admits(guess)) {
      yes = guess;
      if (guess === hi || !(await admits(guess + 1))) return guess;
      yes = guess + 1;
    } else no = guess;
  }
  if (yes < lo) {
    if (!(await admits(lo))) return undefined;
    yes = lo;
  }
  while (no - yes > 1) {
    const mid = yes + Math.floor((no - yes) / 2);
    if (await admits(mid)) yes = mid;
    else no = mid;
  }
  return yes;
}

/** The length whose costs split the candidates most evenly; undefined once they all agree. */
export function splittingLength(standing: readonly Estimator[]): number | undefined {
  let best: number | undefined;
  let bestScore = 0;
  for (const n of ESTIMATE_LENGTHS) {
    const groups = new Map<number, number>();
    for (const e of standing) groups.set(cost(e, n), (groups.get(cost(e, n)) ?? 0) + 1);
    const score = standing.length - Math.max(0, ...groups.values());
    if (score > bestScore) (best = n), (bestScore = score);
  }
  return best;
}

const fraction = (t: number, b: number): string => `${(t / b).toFixed(3).replace(/0+$/, '').replace(/\.$/, '')} (${t} of ${b})`;

export async function probeConstants(impl: Implementation, manifest: Manifest, opts: { timeoutMs: number }): Promise<ProbeReport> {
  const s = new ProbeSession(impl, opts.timeoutMs);
  const rows: ProbeRow[] = [];
  let spent = 0;
  const row = (constant: string, expected: string, detected: string | undefined, note?: string): void => {
    rows.push({
      constant,
      expected,
      detected: detected ?? 'undetermined',
      status: detected === undefined ? 'undetermined' : detected === expected ? 'match' : 'drift',
      requests: s.requests - spent,
      ...(note ? { note } : {}),
    });
    spent = s.requests;
  };
  const failed = (e: unknown): string => {
    if (e instanceof ProbeError) return e.message;
    throw e;
  };

  // 1. The estimate: the cost of one block, read from estimated_tokens, at the
  //    length that best splits the candidates still standing, until they agree
  //    on every length from 0 to 24.
  let est: Estimator | undefined;
  let estimateNote: string | undefined;
  try {
    let standing = candidates();
    const observed: string[] = [];
    for (;;) {
      const n = splittingLength(standing);
      if (n === undefined) break;
      const seen = await s.ask(ROOMY_BUDGET, [{ block_id: 'p', source: 'coverage', content: 'e'.repeat(n), priority: 0 }]);
      if (!seen.admitted.includes('p')) throw new ProbeError(`one block of ${n} characters was not admitted at budget ${ROOMY_BUDGET}`);
      observed.push(`${n} -> ${seen.estimated_tokens}`);
      standing = standing.filter((c) => cost(c, n) === seen.estimated_tokens);
    }
    est = standing[0];
    if (!est) estimateNote = `costs by content length (${observed.join(', ')}) match no candidate estimate`;
  } catch (e) {
    estimateNote = failed(e);
  }
  row('chars_per_token', String(SPEC_ESTIMATOR.charsPerToken), est ? String(est.charsPerToken) : undefined, estimateNote);
  row('estimate_rounding', describeRounding(SPEC_ESTIMATOR), est ? describeRounding(est) : undefined, estimateNote);
  const e = est ?? SPEC_ESTIMATOR;
  const assumed = est ? undefined : 'assuming the spec estimate, which could not be detected';

  // 2. The length unit: astral characters are 1 code point, 2 UTF-16 units, 4 UTF-8 bytes.
  try {
    const k = 4 * e.charsPerToken;
    const seen = await s.ask(ROOMY_BUDGET, [{ block_id: 'p', source: 'coverage', content: ASTRAL.repeat(k), priority: 0 }]);
    if (!seen.admitted.includes('p')) throw new ProbeError(`one block of ${k} astral characters was not admitted at budget ${ROOMY_BUDGET}`);
    const units: [string, number][] = [
      ['code points', k],
      ['UTF-16 code units', 2 * k],
      ['UTF-8 bytes', 4 * k],
    ];
    const hit = units.find(([, n]) => cost(e, n) === seen.estimated_tokens);
    row('length_unit', 'code points', hit?.[0], hit ? assumed : `${k} astral characters cost ${seen.estimated_tokens}`);
  } catch (x) {
    row('length_unit', 'code points', undefined, failed(x));
  }

  // 3. Tier budgets at B = 1000, one source at a time. A higher-priority block G
  //    of another tier, too big for any tier, takes the pool when X is set aside,
  //    so X is admitted exactly when its own tier admits it.
  const B = TIER_PROBE_BUDGET;
  const budgetOf = new Map<string, number | undefined>();
  const sourceNotes = new Map<string, string>();
  for (const p of PROBED_SOURCES) {
    const other = p.expected === 'knowledge' ? 'coverage' : 'knowledge';
    try {
      const g: ProbeBlock = { block_id: 'g', source: other, content: text(e, B - 3, 'g'), priority: 2 };
      const t = await largestAdmitted(
        async (x) => (await s.ask(B, [g, { block_id: 'x', source: p.source, content: text(e, x, 'x'), priority: 1 }])).admitted.includes('x'),
        4,
        B - 4,
        specTierBudget(B, p.expected),
      );
      budgetOf.set(p.source, t);
      if (t === undefined) sourceNotes.set(p.source, 'no block of 4 tokens or more was admitted by this source\'s tier');
    } catch (x) {
      budgetOf.set(p.source, undefined);
      sourceNotes.set(p.source, failed(x));
    }
  }
  const sourceRequests = s.requests - spent;
  spent = s.requests;
  // A tier's budget: the one most of its listed sources show.
  const tierBudget = new Map<Tier, number | undefined>();
  for (const tier of TIERS) {
    const seen = Object.entries(SOURCE_TO_TIER)
      .filter(([, t]) => t === tier)
      .map(([src]) => budgetOf.get(src))
      .filter((x): x is number => x !== undefined);
    const counts = new Map<number, number>();
    for (const x of seen) counts.set(x, (counts.get(x) ?? 0) + 1);
    const best = [...counts].sort((a, b) => b[1] - a[1])[0];
    tierBudget.set(tier, best?.[0]);
  }
  for (const tier of TIERS) {
    const t = tierBudget.get(tier);
    row(`tier_fraction.${tier}`, fraction(specTierBudget(B, tier), B), t === undefined ? undefined : fraction(t, B), t === undefined ? 'no listed source of this tier admitted a block of 4 tokens or more' : assumed);
  }
  for (const p of PROBED_SOURCES) {
    const t = budgetOf.get(p.source);
    let detected: string | undefined;
    let note = sourceNotes.get(p.source);
    if (t !== undefined) {
      const tiers = TIERS.filter((x) => tierBudget.get(x) === t);
      if (tiers.length === 1) detected = tiers[0];
      else if (tiers.length === 0) detected = `a tier of budget ${t} of ${B}`;
      else {
        // Tiers of equal budget cannot be told apart: the source is consistent with any of them.
        detected = tiers.includes(p.expected) ? p.expected : tiers.join(' or ');
        note = `tiers ${tiers.join(' and ')} have the same budget ${t} of ${B}`;
      }
    }
    row(`tier_of[${p.label}]`, p.expected, detected, note);
  }
  // Spread the per-source requests over their rows, for the table.
  const perSource = rows.filter((r) => r.constant.startsWith('tier_'));
  perSource.forEach((r, i) => (r.requests = Math.floor(sourceRequests / perSource.length) + (i < sourceRequests % perSource.length ? 1 : 0)));

  // 4. The overflow pool and the remainder: the largest single block at a budget
  //    whose tier budgets leave a remainder. Without a pool it is the tier's
  //    budget; with one, B - remainder; with the remainder in it, B.
  const working = tierBudget.get('working');
  const known = TIERS.map((t) => tierBudget.get(t));
  let pool: string | undefined;
  let remainder: string | undefined;
  let poolNote: string | undefined;
  if (working === undefined || known.some((x) => x === undefined)) {
    poolNote = 'needs every tier budget, which could not be detected';
  } else {
    const budgets = (b: number): number[] => known.map((t) => Math.floor((b * t!) / B));
    const small = [99, 97, 101, 103, 98, 95, 91].find((b) => b - budgets(b).reduce((x, y) => x + y, 0) > 0);
    if (small === undefined) poolNote = 'the detected split leaves no remainder at any probe budget';
    else {
      try {
        const rem = small - budgets(small).reduce((x, y) => x + y, 0);
        // The tier `coverage` shows (working, unless its mapping drifted).
        const tw = Math.floor((small * (budgetOf.get('coverage') ?? working)) / B);
        const m = await largestAdmitted(
          async (c) => (await s.ask(small, [{ block_id: 'p', source: 'coverage', content: text(e, c, 'p'), priority: 0 }])).admitted.includes('p'),
          1,
          small,
          small - rem,
        );
        if (m === small - rem || m === small) {
          pool = 'present';
          remainder = m === small ? 'yes' : 'no';
          poolNote = `at budget ${small} (remainder ${rem}) the largest single block admitted is ${m}`;
        } else if (m === tw) {
          pool = 'absent';
          poolNote = `the largest single block at budget ${small} is its tier's budget ${tw}; the remainder has no pool to join`;
        } else {
          poolNote = `the largest single block admitted at budget ${small} is ${m ?? 'none'}: neither ${tw} (no pool), ${small - rem} (pool) nor ${small} (pool with remainder)`;
        }
      } catch (x) {
        poolNote = failed(x);
      }
    }
  }
  row('overflow_pool', 'present', pool, poolNote);
  row('remainder_in_pool', 'no', remainder, poolNote);

  // 5. The tie-break: two equal-priority blocks of one source where only one fits.
  try {
    const w = working ?? specTierBudget(B, 'working');
    const rem1000 = B - known.reduce<number>((x, y) => x + (y ?? 0), 0);
    const poolSize = remainder === 'yes' ? B : B - rem1000;
    const c = pool === 'absent' ? w : Math.max(w + 1, Math.floor(poolSize / 2) + 1);
    const pick = async (ids: [string, string]): Promise<string | undefined> => {
      const seen = await s.ask(B, ids.map((id, i) => ({ block_id: id, source: 'coverage', content: text(e, c, i === 0 ? 'm' : 'n'), priority: 1 })));
      return seen.admitted.length === 1 ? seen.admitted[0] : undefined;
    };
    const FF = '\uff5e';
    const picks = [await pick(['b', 'a']), await pick([FF, ASTRAL]), await pick([ASTRAL, FF])];
    const rules: [string, (string | undefined)[]][] = [
      ['block_id by code point', ['a', FF, FF]],
      ['block_id by UTF-16 code unit', ['a', ASTRAL, ASTRAL]],
      ['input order', ['b', FF, ASTRAL]],
      ['reverse input order', ['a', ASTRAL, FF]],
      ['block_id by code point, descending', ['b', ASTRAL, ASTRAL]],
      ['block_id by UTF-16 code unit, descending', ['b', FF, FF]],
    ];
    const hit = rules.find(([, want]) => want.every((x, i) => x === picks[i]));
    row('tie_break', 'block_id by code point', hit?.[0], hit ? assumed : `admitted of [b, a], [U+FF5E, U+1F600], [U+1F600, U+FF5E]: ${picks.map((p) => p ?? 'not exactly one').join(', ')}`);
  } catch (x) {
    row('tie_break', 'block_id by code point', undefined, failed(x));
  }

  // 6. The expiry boundary: created_at 1000 + ttl 10, asked at now 1009, 1010, 1011.
  const live = async (now: number, ttl = 10, created = 1000): Promise<boolean> =>
    (await s.ask(B, [{ block_id: 'p', source: 'coverage', content: text(e, 1, 'p'), priority: 0, created_at: created, ttl_seconds: ttl }], now)).admitted.includes('p');
  try {
    const [before, at, after] = [await live(1009), await live(1010), await live(1011)];
    const detected = before && at && !after ? 'strict (expired when now > created_at + ttl)' : before && !at && !after ? 'inclusive (expired when now >= created_at + ttl)' : undefined;
    row('expiry_boundary', 'strict (expired when now > created_at + ttl)', detected, detected ? undefined : `live at now 1009, 1010, 1011 (created_at 1000, ttl 10): ${before}, ${at}, ${after}`);
  } catch (x) {
    row('expiry_boundary', 'strict (expired when now > created_at + ttl)', undefined, failed(x));
  }
  // Its own question: a failure here must neither repeat the expiry_boundary row nor drop this one.
  try {
    row('ttl_zero', 'never expires', (await live(1e12, 0, 0)) ? 'never expires' : 'expires');
  } catch (x) {
    row('ttl_zero', 'never expires', undefined, failed(x));
  }

  return { implementation: manifest, requests: s.requests, drift: rows.some((r) => r.status !== 'match'), constants: rows };
}

/** The table as text: one line per constant. */
export function formatProbe(r: ProbeReport): string {
  const head = ['constant', 'expected', 'detected', 'status'];
  const body = r.constants.map((x) => [x.constant, x.expected, x.detected, x.status === 'match' ? 'ok' : x.status.toUpperCase()]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => [...b[i]!].length)));
  const line = (cells: string[]): string => cells.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join('  ').trimEnd();
  const notes = r.constants.filter((x) => x.note && x.status !== 'match').map((x) => `  ${x.constant}: ${x.note}`);
  const drifted = r.constants.filter((x) => x.status !== 'match').length;
  return [
    `constants of ${r.implementation.name} ${r.implementation.version} (${r.requests} requests)`,
    '',
    line(head),
    ...body.map(line),
    ...(notes.length > 0 ? ['', 'notes:', ...notes] : []),
    '',
    drifted === 0 ? 'no drift: every constant matches the specification' : `DRIFT: ${drifted} constant${drifted === 1 ? ' differs' : 's differ'} from the specification or could not be determined`,
  ].join('\n');
}
