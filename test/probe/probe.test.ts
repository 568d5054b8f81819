/**
 * The constants probe: no drift for the reference, and for each broken
 * implementation exactly the constant it drifts (none for the defects that
 * are not about a constant).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFunctions, openModule } from '../../adapters/inprocess.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { main } from '../../cli/main.js';
import { candidates, cost, lengthForCost, SPEC_ESTIMATOR } from '../../diagnosis/constants/estimate.js';
import { formatProbe, largestAdmitted, probeConstants, splittingLength } from '../../diagnosis/constants/index.js';
import type { ProbeReport } from '../../diagnosis/constants/index.js';
import { assemble as referenceAssemble, estimateTokens } from '../../reference/index.js';

const DIR = new URL('../fixtures/broken/', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-probe-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function probeModule(name: string): Promise<ProbeReport> {
  const impl = await openModule(join(DIR, `${name}.ts`));
  return probeConstants(impl, await impl.describe(), { timeoutMs: 5000 });
}

const drifted = (r: ProbeReport): Record<string, string> =>
  Object.fromEntries(r.constants.filter((c) => c.status !== 'match').map((c) => [c.constant, c.detected]));

describe('the reference', () => {
  it('shows every constant as specified, in few requests', async () => {
    const impl = referenceImplementation();
    const r = await probeConstants(impl, await impl.describe(), { timeoutMs: 5000 });
    expect(drifted(r)).toEqual({});
    expect(r.drift).toBe(false);
    const byName = Object.fromEntries(r.constants.map((c) => [c.constant, c.detected]));
    expect(byName).toMatchObject({
      chars_per_token: '4',
      estimate_rounding: 'floor, at least 1',
      length_unit: 'code points',
      'tier_fraction.working': '0.4 (400 of 1000)',
      'tier_fraction.episodic': '0.2 (200 of 1000)',
      'tier_fraction.longterm': '0.25 (250 of 1000)',
      'tier_fraction.knowledge': '0.15 (150 of 1000)',
      'tier_of[memory]': 'longterm',
      'tier_of[session_summary]': 'episodic',
      'tier_of[waf_info]': 'knowledge',
      'tier_of[notes (unknown)]': 'working',
      'tier_of[Memory (wrong case)]': 'working',
      overflow_pool: 'present',
      remainder_in_pool: 'no',
      tie_break: 'block_id by code point',
      expiry_boundary: 'strict (expired when now > created_at + ttl)',
    });
    // Spec values are tried first: a conforming implementation costs a few dozen requests.
    expect(r.requests).toBeLessThan(60);
    expect(r.constants.reduce((s, c) => s + c.requests, 0)).toBe(r.requests);
    expect(formatProbe(r)).toContain('no drift');
  });
});

describe('broken implementations: the probe names the drifted constant', () => {
  const cases: [string, Record<string, string>][] = [
    ['chars-per-token-3', { chars_per_token: '3' }],
    ['ceil-estimate', { estimate_rounding: 'ceil, at least 1' }],
    ['utf16-lengths', { length_unit: 'UTF-16 code units' }],
    [
      'tier-split',
      { 'tier_fraction.working': '0.5 (500 of 1000)', 'tier_fraction.episodic': '0.15 (150 of 1000)', 'tier_fraction.longterm': '0.2 (200 of 1000)' },
    ],
    ['case-insensitive-sources', { 'tier_of[Memory (wrong case)]': 'longterm', 'tier_of[WAF_INFO (wrong case)]': 'knowledge' }],
    ['no-overflow-pool', { overflow_pool: 'absent', remainder_in_pool: 'undetermined' }],
    ['remainder-in-pool', { remainder_in_pool: 'yes' }],
    ['ties-input-order', { tie_break: 'input order' }],
    ['utf16-id-order', { tie_break: 'block_id by UTF-16 code unit' }],
    ['inclusive-expiry', { expiry_boundary: 'inclusive (expired when now >= created_at + ttl)' }],
  ];
  it.each(cases)('%s', async (name, want) => {
    const r = await probeModule(name);
    expect(drifted(r)).toEqual(want);
    expect(r.drift).toBe(true);
    expect(formatProbe(r)).toMatch(/DRIFT: \d+ constants? differs?/);
  });

  // Defects that are not a constant: the probe must not blame one.
  it.each(['correct', 'prefix-cut', 'truncating-fit', 'urgent-priority', 'render-priority-only'])('%s shows no drift', async (name) => {
    expect(drifted(await probeModule(name))).toEqual({});
  });
});

describe('a question that cannot be answered', () => {
  it('leaves its own row undetermined, once, and the others as they are', async () => {
    // The reference, except that the ttl_zero request (now 10^12) is refused.
    const impl = fromFunctions(
      (req) => ((req as { now?: unknown }).now === 1e12 ? { error: { code: 'invalid_request', message: 'no' } } : referenceAssemble(req)),
      undefined,
      {
        name: 'refuses-far-future',
        version: '0',
        profiles: ['tiered'],
        capabilities: [],
      },
    );
    const r = await probeConstants(impl, await impl.describe(), { timeoutMs: 5000 });
    expect(r.constants.filter((c) => c.constant === 'expiry_boundary')).toMatchObject([{ status: 'match' }]);
    expect(drifted(r)).toEqual({ ttl_zero: 'undetermined' });
    expect(r.constants.find((c) => c.constant === 'ttl_zero')!.note).toMatch(/invalid_request/);
  });
});

describe('probe pieces', () => {
  it('largestAdmitted finds the threshold, confirming a right guess in two questions', async () => {
    let asked = 0;
    const at =
      (t: number) =>
      async (x: number): Promise<boolean> => {
        asked++;
        return x <= t;
      };
    expect(await largestAdmitted(at(400), 4, 996, 400)).toBe(400);
    expect(asked).toBe(2);
    for (const t of [4, 5, 399, 401, 777, 996]) expect(await largestAdmitted(at(t), 4, 996, 400)).toBe(t);
    expect(await largestAdmitted(at(3), 4, 996, 400)).toBeUndefined();
  });

  it('the spec estimator is the reference estimate, and lengthForCost inverts it', () => {
    for (let n = 0; n < 200; n++) expect(cost(SPEC_ESTIMATOR, n)).toBe(estimateTokens('e'.repeat(n)));
    for (const e of candidates()) {
      for (const t of [1, 2, 5, 17, 997]) {
        const n = lengthForCost(e, t);
        expect(n === undefined ? undefined : cost(e, n), JSON.stringify(e)).toBe(t);
      }
    }
  });

  it('splittingLength stops once the standing candidates agree on every length', () => {
    expect(splittingLength([SPEC_ESTIMATOR])).toBeUndefined();
    expect(splittingLength(candidates())).toBeTypeOf('number');
  });
});

describe('ctxconform constants', () => {
  it('exits 0 for the reference and writes the table as JSON', async () => {
    const file = join(tmp, 'ref.json');
    expect(await main(['constants', '--impl', 'reference', '--json', file])).toBe(0);
    const json = JSON.parse(readFileSync(file, 'utf8')) as ProbeReport;
    expect(json.drift).toBe(false);
    expect(json.constants.map((c) => c.constant)).toContain('tie_break');
  });
  it('exits 1 on drift', async () => {
    expect(await main(['constants', '--module', join(DIR, 'inclusive-expiry.ts')])).toBe(1);
  });
  it('exits 2 on a usage error', async () => {
    expect(await main(['constants', '--timeout', 'soon'])).toBe(2);
    expect(await main(['constants', '--bogus'])).toBe(2);
    expect(await main(['constants', '--module', join(DIR, 'nope.ts')])).toBe(2);
  });
});

describe('an assembler without tiers', () => {
  it('is told no tier split fits its readings: no fraction, no tier for a source, no pool, instead of numbers it does not have', async () => {
    const { greedy, greedyManifest } = await import('../fixtures/other-designs/greedy.js');
    const manifest = greedyManifest();
    const r = await probeConstants(fromFunctions(greedy(), undefined, manifest), manifest, { timeoutMs: 5000 });
    const tierRows = r.constants.filter((c) => c.constant.startsWith('tier_'));
    expect(tierRows.length).toBeGreaterThan(4);
    for (const c of tierRows) {
      expect(c, c.constant).toMatchObject({ status: 'undetermined', detected: 'undetermined' });
      expect(c.note, c.constant).toMatch(/^no tier split fits these readings: .+; an assembler without tiers reads so$/);
    }
    expect(r.constants.find((c) => c.constant === 'overflow_pool')).toMatchObject({
      status: 'undetermined',
      note: 'needs a tier split, and no tier split fits the readings of step 3',
    });
    expect(formatProbe(r)).toContain('no tier split fits these readings');
  });
});
