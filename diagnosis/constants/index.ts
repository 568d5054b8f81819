/**
 * The constants probe (SPEC section 15): infers an implementation's constants
 * from black-box answers to tiny crafted `tiered` requests, and compares each
 * with the specification. Each question is asked with as few requests as
 * decide it; the expected value is tried first, so a conforming implementation
 * costs the fewest. Expected are the specification's constants, or those the
 * manifest declares in their place (SPEC section 17), so a team that pins its
 * constants in a manifest sees each one that moved.
 */
import { SOURCE_TO_TIER, TIER_PERCENT, tierBudget as specTierBudget, TIERS } from '../../reference/index.js';
import type { Tier } from '../../protocol/assembly.js';
import type { DiagnosisEntry, Implementation, Manifest } from '../../protocol/types.js';
import type { DeclaredConstants } from '../../protocol/assembly.js';
import { textTable } from '../../report/text-table.js';
import { constantsText } from '../../report/text.js';
import type { Estimator } from './estimate.js';
import { candidates, cost, describeRounding, expectedEstimator, lengthForCost } from './estimate.js';
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
  /** The expected value is the manifest's declaration, not the specification's (present only then). */
  declared?: true;
}

export interface ProbeReport {
  implementation: Manifest;
  requests: number;
  drift: boolean;
  /** The manifest's declared constants, when it has some: each is a row's expected value. */
  declared?: DeclaredConstants;
  constants: ProbeRow[];
  /** With a drift: the known defects that reproduce the probe's answers, best first (cross-check.ts). */
  likely_causes?: DiagnosisEntry[];
  /** Said when a defect that is no changed constant explains the drifted readings better. */
  cross_check?: string;
}

/** The budget at which tier budgets are measured: every spec percentage is exact there. */
const TIER_PROBE_BUDGET = 1000;
/** Large enough that one small block always fits, whatever the split. */
const ROOMY_BUDGET = 1_000_000;
/** Candidates agreeing on every length from 0 to three times the largest chars per token estimate alike (0..24 for 8). */
const estimateLengths = (maxCharsPerToken: number): number[] => Array.from({ length: 3 * maxCharsPerToken + 1 }, (_, i) => i);
const ESTIMATE_LENGTHS = estimateLengths(8);
/** Names of no listed source, the first one the declaration leaves unlisted probed as unknown. */
const UNKNOWN_SOURCES = ['notes', 'unlisted_notes', 'ctxconform_unlisted'];
const WRONG_CASE_SOURCES = ['Memory', 'WAF_INFO'];

interface ProbedSource {
  source: string;
  expected: Tier;
  label: string;
  declared: boolean;
}

/** What the probe expects: the specification's constants, with what the manifest declares in their place. */
interface Expected {
  estimator: Estimator;
  percent: Record<Tier, number>;
  /** TIER-1's map with the declared entries added or replacing its own. */
  listed: Map<string, Tier>;
  /** Listed sources, one outside the map, and listed names in the wrong case (TIER-1 is case-sensitive). */
  sources: ProbedSource[];
  declared?: DeclaredConstants;
}

function expectedOf(manifest: Manifest): Expected {
  const d = manifest.constants;
  const declaredSources = new Set(Object.keys(d?.source_to_tier ?? {}));
  const listed = new Map<string, Tier>(Object.entries(SOURCE_TO_TIER));
  for (const [source, tier] of Object.entries(d?.source_to_tier ?? {})) listed.set(source, tier);
  const sources: ProbedSource[] = [...listed].map(([source, tier]) => ({
    source,
    expected: tier,
    label: declaredSources.has(source) ? `${source} (declared)` : source,
    declared: declaredSources.has(source),
  }));
  const unknown = UNKNOWN_SOURCES.find((s) => !listed.has(s))!;
  sources.push({ source: unknown, expected: 'working', label: `${unknown} (unknown)`, declared: false });
  for (const s of WRONG_CASE_SOURCES) if (!listed.has(s)) sources.push({ source: s, expected: 'working', label: `${s} (wrong case)`, declared: false });
  return {
    estimator: expectedEstimator(d?.chars_per_token),
    percent: d?.tier_fractions ?? { ...TIER_PERCENT },
    listed,
    sources,
    ...(d ? { declared: d } : {}),
  };
}

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
export function splittingLength(standing: readonly Estimator[], lengths: readonly number[] = ESTIMATE_LENGTHS): number | undefined {
  let best: number | undefined;
  let bestScore = 0;
  for (const n of lengths) {
    const groups = new Map<number, number>();
    for (const e of standing) groups.set(cost(e, n), (groups.get(cost(e, n)) ?? 0) + 1);
    const score = standing.length - Math.max(0, ...groups.values());
    if (score > bestScore) {
      best = n;
      bestScore = score;
    }
  }
  return best;
}

const fraction = (t: number, b: number): string => `${(t / b).toFixed(3).replace(/0+$/, '').replace(/\.$/, '')} (${t} of ${b})`;

/**
 * The tier of the block G that takes the pool when the probed source's block
 * is set aside: knowledge (working for a knowledge source), unless a declared
 * split lets G fit it; then the other tier of the smallest budget. Undefined
 * when no tier has a source to send G from.
 */
function poolTaker(x: Expected, of: Tier, g: number, budget: (t: Tier) => number, unknown: string): { tier: Tier; source: string } | undefined {
  const sourceIn = (tier: Tier): string | undefined => {
    const canonical = tier === 'knowledge' ? 'knowledge' : tier === 'working' ? 'coverage' : undefined;
    if (canonical !== undefined && x.listed.get(canonical) === tier) return canonical;
    return [...x.listed].find(([, t]) => t === tier)?.[0] ?? (tier === 'working' ? unknown : undefined);
  };
  const first: Tier = of === 'knowledge' ? 'working' : 'knowledge';
  const others = TIERS.filter((t) => t !== of && t !== first).sort((a, b) => budget(a) - budget(b));
  for (const tier of [first, ...others]) {
    const source = sourceIn(tier);
    if (source !== undefined && budget(tier) < g) return { tier, source };
  }
  return undefined;
}

export async function probeConstants(impl: Implementation, manifest: Manifest, opts: { timeoutMs: number }): Promise<ProbeReport> {
  const s = new ProbeSession(impl, opts.timeoutMs);
  const x = expectedOf(manifest);
  const d = x.declared;
  const rows: ProbeRow[] = [];
  let spent = 0;
  const row = (constant: string, expected: string, detected: string | undefined, note?: string, declared = false): void => {
    const status: RowStatus = detected === undefined ? 'undetermined' : detected === expected ? 'match' : 'drift';
    // A constant the manifest pins and the implementation does not have: say so where the row is read.
    const why = declared && status !== 'match' ? `declared ${expected} in the manifest${note ? `; ${note}` : ''}` : note;
    rows.push({
      constant,
      expected,
      detected: detected ?? 'undetermined',
      status,
      requests: s.requests - spent,
      ...(why ? { note: why } : {}),
      ...(declared ? { declared: true as const } : {}),
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
  const maxCharsPerToken = Math.max(8, x.estimator.charsPerToken);
  try {
    let standing = candidates(maxCharsPerToken, x.estimator);
    const observed: string[] = [];
    for (;;) {
      const n = splittingLength(standing, maxCharsPerToken === 8 ? ESTIMATE_LENGTHS : estimateLengths(maxCharsPerToken));
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
  row('chars_per_token', String(x.estimator.charsPerToken), est ? String(est.charsPerToken) : undefined, estimateNote, d?.chars_per_token !== undefined);
  row('estimate_rounding', describeRounding(x.estimator), est ? describeRounding(est) : undefined, estimateNote);
  const e = est ?? x.estimator;
  const assumed = est ? undefined : `assuming the ${d?.chars_per_token !== undefined ? 'declared' : 'spec'} estimate, which could not be detected`;

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
  //    leaving it at most 3 tokens, so X is admitted exactly when its own tier
  //    admits it. The pool is B less the remainder a declared split leaves.
  const B = TIER_PROBE_BUDGET;
  const expectedBudget = (tier: Tier): number => specTierBudget(B, tier, x.percent);
  const expectedPool = TIERS.reduce((sum, t) => sum + expectedBudget(t), 0);
  const unknown = x.sources.find((p) => p.label.endsWith('(unknown)'))!.source;
  const budgetOf = new Map<string, number | undefined>();
  const sourceNotes = new Map<string, string>();
  /** Sources whose tier admitted no block of 4 tokens or more beside G. */
  const refused = new Set<string>();
  for (const p of x.sources) {
    try {
      const taker = poolTaker(x, p.expected, expectedPool - 3, expectedBudget, unknown);
      if (taker === undefined)
        throw new ProbeError(`no tier but ${p.expected} has a budget below ${expectedPool - 3} of ${B} and a source to send a block from`);
      const g: ProbeBlock = { block_id: 'g', source: taker.source, content: text(e, expectedPool - 3, 'g'), priority: 2 };
      const admits = async (cost: number, big: ProbeBlock = g): Promise<boolean> =>
        (await s.ask(B, [big, { block_id: 'x', source: p.source, content: text(e, cost, 'x'), priority: 1 }])).admitted.includes('x');
      let t = await largestAdmitted((c) => admits(c), 4, B - 4, expectedBudget(p.expected));
      // A declared share of 0: a 1-token block refused while G takes the whole pool shows a tier budget of exactly 0.
      if (t === undefined && expectedBudget(p.expected) < 4 && !(await admits(1, { ...g, content: text(e, expectedPool, 'g') }))) t = 0;
      budgetOf.set(p.source, t);
      if (t === undefined) {
        refused.add(p.source);
        sourceNotes.set(p.source, "no block of 4 tokens or more was admitted by this source's tier");
      }
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
    const seen = [...x.listed]
      .filter(([, t]) => t === tier)
      .map(([src]) => budgetOf.get(src))
      .filter((x): x is number => x !== undefined);
    const counts = new Map<number, number>();
    for (const x of seen) counts.set(x, (counts.get(x) ?? 0) + 1);
    const best = [...counts].sort((a, b) => b[1] - a[1])[0];
    tierBudget.set(tier, best?.[0]);
  }
  // Tiers share the budget, so budgets read that add up past it are no split at all: an
  // assembler without tiers reads so, and inventing fractions for it would name a
  // mechanism that is not in its code (SPEC section 15).
  const readSum = TIERS.reduce((n, t) => n + (tierBudget.get(t) ?? 0), 0);
  // Every source refusing a block of 4 tokens is no split either: tier budgets under 4 of 1000 each share out less than 2% of it.
  const everyRefused = x.sources.length > 0 && x.sources.every((p) => refused.has(p.source));
  const noSplit =
    readSum > B
      ? `no tier split fits these readings: the tier budgets read (${TIERS.map((t) => tierBudget.get(t) ?? '?').join(', ')} ` +
        `for ${TIERS.join(', ')}) add up to ${readSum} of ${B}; an assembler without tiers reads so`
      : everyRefused
        ? `no tier split fits these readings: no source admitted a block of 4 tokens or more beside a larger ` +
          `block of another tier, which a split of ${B} would set aside; an assembler without tiers reads so`
        : undefined;
  if (noSplit !== undefined) for (const tier of TIERS) tierBudget.set(tier, undefined);
  for (const tier of TIERS) {
    const t = tierBudget.get(tier);
    row(
      `tier_fraction.${tier}`,
      fraction(expectedBudget(tier), B),
      t === undefined ? undefined : fraction(t, B),
      noSplit ??
        (t === undefined
          ? x.sources.some((p) => p.expected === tier)
            ? 'no listed source of this tier admitted a block of 4 tokens or more'
            : 'no source is listed in this tier, so its budget cannot be seen'
          : assumed),
      d?.tier_fractions !== undefined,
    );
  }
  for (const p of x.sources) {
    const t = budgetOf.get(p.source);
    let detected: string | undefined;
    let note = noSplit ?? sourceNotes.get(p.source);
    if (t !== undefined && noSplit === undefined) {
      const tiers = TIERS.filter((x) => tierBudget.get(x) === t);
      if (tiers.length === 1) detected = tiers[0];
      else if (tiers.length === 0) detected = `a tier of budget ${t} of ${B}`;
      else {
        // Tiers of equal budget cannot be told apart: the source is consistent with any of them.
        detected = tiers.includes(p.expected) ? p.expected : tiers.join(' or ');
        note = `tiers ${tiers.join(' and ')} have the same budget ${t} of ${B}`;
      }
    }
    row(`tier_of[${p.label}]`, p.expected, detected, note, p.declared);
  }
  // Spread the per-source requests over their rows, for the table.
  const perSource = rows.filter((r) => r.constant.startsWith('tier_'));
  perSource.forEach((r, i) => {
    r.requests = Math.floor(sourceRequests / perSource.length) + (i < sourceRequests % perSource.length ? 1 : 0);
  });

  // 4. The overflow pool and the remainder: the largest single block at a budget
  //    whose tier budgets leave a remainder. Without a pool it is the tier's
  //    budget; with one, B - remainder; with the remainder in it, B.
  // A tier no source is listed in shows its budget only through the pool: the expected one stands in for it here.
  const unseen = TIERS.filter((t) => ![...x.listed.values()].includes(t));
  const known = TIERS.map((t) => tierBudget.get(t) ?? (unseen.includes(t) ? expectedBudget(t) : undefined));
  const working = known[TIERS.indexOf('working')];
  const standIn = unseen.length > 0 && noSplit === undefined ? `; assuming the expected budget of ${unseen.join(', ')}, which no listed source can show` : '';
  let pool: string | undefined;
  let remainder: string | undefined;
  let poolNote: string | undefined;
  if (noSplit !== undefined) {
    poolNote = 'needs a tier split, and no tier split fits the readings of step 3';
  } else if (working === undefined || known.some((x) => x === undefined)) {
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
  if (poolNote !== undefined) poolNote += standIn;
  row('overflow_pool', 'present', pool, poolNote);
  row('remainder_in_pool', 'no', remainder, poolNote);

  // 5. The tie-break: two equal-priority blocks of one source where only one fits.
  try {
    const coverageTier = x.listed.get('coverage') ?? 'working';
    const w = tierBudget.get(coverageTier) ?? expectedBudget(coverageTier);
    const rem1000 = B - known.reduce<number>((x, y) => x + (y ?? 0), 0);
    const poolSize = remainder === 'yes' ? B : B - rem1000;
    const c = pool === 'absent' ? w : Math.max(w + 1, Math.floor(poolSize / 2) + 1);
    const pick = async (ids: [string, string]): Promise<string | undefined> => {
      const seen = await s.ask(
        B,
        ids.map((id, i) => ({ block_id: id, source: 'coverage', content: text(e, c, i === 0 ? 'm' : 'n'), priority: 1 })),
      );
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
    row(
      'tie_break',
      'block_id by code point',
      hit?.[0],
      hit ? assumed : `admitted of [b, a], [U+FF5E, U+1F600], [U+1F600, U+FF5E]: ${picks.map((p) => p ?? 'not exactly one').join(', ')}`,
    );
  } catch (x) {
    row('tie_break', 'block_id by code point', undefined, failed(x));
  }

  // 6. The expiry boundary: created_at 1000 + ttl 10, asked at now 1009, 1010, 1011.
  const live = async (now: number, ttl = 10, created = 1000): Promise<boolean> =>
    (
      await s.ask(B, [{ block_id: 'p', source: 'coverage', content: text(e, 1, 'p'), priority: 0, created_at: created, ttl_seconds: ttl }], now)
    ).admitted.includes('p');
  try {
    const [before, at, after] = [await live(1009), await live(1010), await live(1011)];
    const detected =
      before && at && !after
        ? 'strict (expired when now > created_at + ttl)'
        : before && !at && !after
          ? 'inclusive (expired when now >= created_at + ttl)'
          : undefined;
    row(
      'expiry_boundary',
      'strict (expired when now > created_at + ttl)',
      detected,
      detected ? undefined : `live at now 1009, 1010, 1011 (created_at 1000, ttl 10): ${before}, ${at}, ${after}`,
    );
  } catch (x) {
    row('expiry_boundary', 'strict (expired when now > created_at + ttl)', undefined, failed(x));
  }
  // Its own question: a failure here must neither repeat the expiry_boundary row nor drop this one.
  try {
    row('ttl_zero', 'never expires', (await live(1e12, 0, 0)) ? 'never expires' : 'expires');
  } catch (x) {
    row('ttl_zero', 'never expires', undefined, failed(x));
  }

  const drifted = rows.filter((r) => r.status !== 'match').map((r) => r.constant);
  // Only a drift is worth the catalogue: it says which defect moved the readings.
  const check = drifted.length > 0 ? (await import('./cross-check.js')).crossCheck(s.exchanges, manifest, drifted) : undefined;
  return {
    implementation: manifest,
    requests: s.requests,
    drift: drifted.length > 0,
    ...(d ? { declared: d } : {}),
    constants: rows,
    ...(check ? { likely_causes: check.causes } : {}),
    ...(check?.note ? { cross_check: check.note } : {}),
  };
}

/** The catalogue's reading of a drift, for the table's end. */
function crossCheckLines(r: ProbeReport): string[] {
  const causes = r.likely_causes;
  if (causes === undefined) return [];
  const out = [''];
  if (causes.length === 0) out.push("likely cause: none of the known defects reproduces the answers that differ from the specification's");
  else {
    out.push(`likely cause (known defects whose model answers the probe's ${r.requests} requests exactly as the implementation did; docs/diagnosis.md):`);
    for (const c of causes) {
      out.push(
        `  ${c.id.replace('+', ' + ')} [${c.requirements.join(', ')}]: ${c.summary} — explains ${c.explains} of ` +
          `${c.failing} answers that differ, contradicts ${c.contradicts === 0 ? 'none' : c.contradicts}`,
      );
      if (c.alike) out.push(`      these requests cannot tell it from: ${c.alike.join(', ')}`);
    }
  }
  if (r.cross_check) out.push(r.cross_check);
  return out;
}

/** The table as text: one line per constant. */
export function formatProbe(r: ProbeReport): string {
  const head = ['constant', 'expected', 'detected', 'status'];
  const body = r.constants.map((x) => [x.constant, x.expected, x.detected, x.status === 'match' ? 'ok' : x.status.toUpperCase()]);
  const notes = r.constants.filter((x) => x.note && x.status !== 'match').map((x) => `  ${x.constant}: ${x.note}`);
  const drifted = r.constants.filter((x) => x.status !== 'match').length;
  const against = r.declared ? 'the declared constants and the specification' : 'the specification';
  return [
    `constants of ${r.implementation.name} ${r.implementation.version} (${r.requests} requests)`,
    ...(r.declared ? [`declared in its manifest: ${constantsText(r.declared)}`] : []),
    '',
    textTable([head, ...body]),
    ...(notes.length > 0 ? ['', 'notes:', ...notes] : []),
    ...crossCheckLines(r),
    '',
    drifted === 0
      ? `no drift: every constant matches ${against}`
      : `DRIFT: ${drifted} constant${drifted === 1 ? ' differs' : 's differ'} from ${against} or could not be determined`,
  ].join('\n');
}
