/**
 * The constants probe cross-checks a drift against the catalogue of known
 * defects (diagnosis/constants/cross-check.ts): a defect that is no changed
 * constant can move the readings the probe takes for tier fractions (issue
 * 23's vendor was sent to the tier table), and the probe says when such a
 * defect fits its readings better; a changed constant is confirmed as one.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openModule } from '../../adapters/inprocess.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { formatProbe, probeConstants } from '../../diagnosis/constants/index.js';
import { CATALOGUE } from '../../diagnosis/index.js';
import type { Manifest } from '../../protocol/types.js';
import { CORE, modelImplementation } from '../diagnose/helpers.js';

const BROKEN = fileURLToPath(new URL('../fixtures/broken/', import.meta.url));

const probeModel = (id: string, manifest: Manifest = CORE) =>
  probeConstants(modelImplementation(CATALOGUE.find((e) => e.id === id)!.defects, manifest), manifest, { timeoutMs: 5000 });

describe('the probe cross-checks a drift against the catalogue', () => {
  it.each([
    // The set-aside blocks offered the pool tier by tier, and priorities taken lowest first, both read as tier budgets of 996 of 1000
    // each: no split of the budget, so the probe says so instead of a fraction, and the catalogue names what moved the readings.
    ['pool-tier-by-tier', 'TIER-7, TIER-3'],
    ['priority-ascending', 'TIER-3, RANK-1'],
  ])('%s: the readings fit it better than a changed tier fraction', async (id, requirements) => {
    const r = await probeModel(id);
    const working = r.constants.find((c) => c.constant === 'tier_fraction.working');
    expect(working).toMatchObject({ status: 'undetermined', detected: 'undetermined' });
    const read =
      /^no tier split fits these readings: the tier budgets read \((\d+), (\d+), (\d+), (\d+) for working, episodic, longterm, knowledge\) add up to (\d+) of 1000;/.exec(
        working?.note ?? '',
      );
    expect(read, working?.note).not.toBeNull();
    const [w, e, l, k, sum] = read!.slice(1).map(Number);
    expect([w, sum]).toEqual([996, w! + e! + l! + k!]);
    expect(sum).toBeGreaterThan(1000);
    expect(r.likely_causes?.[0]).toMatchObject({ id, contradicts: 0 });
    expect(r.likely_causes![0]!.explains).toBe(r.likely_causes![0]!.failing);
    expect(r.cross_check).toBe(`the readings fit ${id} [${requirements}] better than a changed tier fraction or a source moved to another tier`);
    expect(formatProbe(r)).toContain(`\n${r.cross_check}\n`);
  });

  it('a changed tier split is confirmed: the split itself is the cause, and nothing fits better', async () => {
    const r = await probeModel('tier-split-40-20-20-20');
    expect(r.likely_causes?.map((c) => c.id)).toEqual(['tier-split-40-20-20-20']);
    expect(r).not.toHaveProperty('cross_check');
  });

  it('the rounding remainder in the pool (a broken core written apart from the model) is among the causes named, with what its readings cannot tell it from', async () => {
    const impl = await openModule(join(BROKEN, 'remainder-in-pool.ts'));
    const r = await probeConstants(impl, await impl.describe(), { timeoutMs: 5000 });
    expect(r.constants.find((c) => c.constant === 'remainder_in_pool')).toMatchObject({ status: 'drift', detected: 'yes' });
    const top = r.likely_causes![0]!;
    expect([top.id, ...(top.alike ?? [])]).toContain('remainder-in-pool');
    expect(formatProbe(r)).toMatch(
      new RegExp(
        String.raw`\nlikely cause \(known defects whose model answers the probe's \d+ requests exactly as the implementation did; docs/diagnosis\.md\):\n` +
          String.raw` {2}\S+ \[.*\]: .* — explains 3 of 3 answers that differ, contradicts none\n {6}these requests cannot tell it from: `,
      ),
    );
  });

  it('no drift, no cross-check', async () => {
    const r = await probeConstants(referenceImplementation(), CORE, { timeoutMs: 5000 });
    expect(r.drift).toBe(false);
    expect(r).not.toHaveProperty('likely_causes');
    expect(formatProbe(r)).not.toContain('likely cause');
  });
});
