/**
 * The corpus must tell a wrong implementation from a right one. The compact
 * second implementation in test/fixtures/broken/mutant.ts (tiered core, one
 * switch per defect) must pass every core case when no defect is on, and each
 * defect, and each wrong rendering habit layered on top, must fail at least
 * one case. A defect no case catches is a hole in the corpus.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../conformance/cases/load.js';
import { judge, skipReason } from '../../conformance/judge.js';
import type { Manifest } from '../../conformance/types.js';
import { mutant } from '../fixtures/broken/mutant.js';
import type { Defects } from '../fixtures/broken/mutant.js';

const MANIFEST: Manifest = { name: 'mutant', version: '0', profiles: ['tiered'], capabilities: [] };
const cases = loadCorpus().cases.filter((c) => skipReason(c, MANIFEST) === undefined);

type Assemble = (request: unknown) => unknown;

async function failures(assemble: Assemble): Promise<string[]> {
  const impl = fromFunctions(assemble, undefined, MANIFEST);
  const failed: string[] = [];
  for (const c of cases) {
    const v = judge(c, await impl.assemble(c.request, { timeoutMs: 5_000 }), MANIFEST);
    if (v.status !== 'pass') failed.push(`${c.id}: ${v.status}`);
  }
  return failed;
}

const DEFECTS: Record<string, Defects> = {
  'prefix cut in a tier': { prefixCut: true },
  'truncating fit': { truncatingFit: true },
  'UTF-16 lengths': { utf16Lengths: true },
  'tier split 50/15/20/15': { tierPercent: { working: 50, episodic: 15, longterm: 20, knowledge: 15 } },
  'tier split 40/20/20/20': { tierPercent: { working: 40, episodic: 20, longterm: 20, knowledge: 20 } },
  'ties by input order': { tiesByInputOrder: true },
  'inclusive expiry': { inclusiveExpiry: true },
  'URGENT in content boosts priority': { urgentBoost: true },
  'no overflow pool': { noOverflowPool: true },
  'rounding remainder pooled': { remainderInPool: true },
  '3 characters per token': { charsPerToken: 3 },
  '5 characters per token': { charsPerToken: 5 },
  'ceil estimate': { ceilEstimate: true },
  'render by priority only': { renderByPriorityOnly: true },
  'case-insensitive sources': { caseInsensitiveSources: true },
  'UTF-16 id order': { utf16IdOrder: true },
};

/** Wrong habits of output, layered on an otherwise correct core. */
const correct = mutant({});
const map = (f: (r: Record<string, any>, req: any) => unknown): Assemble => (req) => {
  const r = correct(req) as Record<string, any>;
  return 'error' in r ? r : f({ ...r }, req);
};
const HABITS: Record<string, Assemble> = {
  'trailing newline': map((r) => ({ ...r, context: r.context + '\n' })),
  'placeholder for an empty context': map((r) => ({ ...r, context: r.context || '(no relevant memories)' })),
  'a preamble': map((r) => ({ ...r, context: r.included.length ? 'Context:\n' + r.context : r.context })),
  'HTML-escaped content': map((r) => ({ ...r, context: r.context.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') })),
  'control characters stripped': map((r) => ({ ...r, context: r.context.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '') })),
  'NFC normalization': map((r) => ({ ...r, context: r.context.normalize('NFC') })),
  'bidi and zero-width characters stripped': map((r) => ({ ...r, context: r.context.replace(/[\u200b-\u200f\u202a-\u202e\u2060\ufeff]/g, '') })),
  'trimmed content': map((r) => ({ ...r, context: r.context.split('\n\n').map((s: string) => s.trim()).join('\n\n') })),
  'a bullet instead of the middle dot': map((r) => ({ ...r, context: r.context.replace(/ \u00b7 /g, ' \u2022 ') })),
  'single newline between blocks': map((r) => ({ ...r, context: r.context.replace(/\n\n\[/g, '\n[') })),
  'an instructions member': map((r) => ({ ...r, instructions: 'none' })),
  'expired omissions dropped': map((r) => ({ ...r, omissions: r.omissions.filter((o: { reason: string }) => o.reason !== 'expired') })),
  'omissions sorted by id': map((r) => ({ ...r, omissions: [...r.omissions].sort((a, b) => (a.block_id < b.block_id ? -1 : 1)) })),
  'total_budget as spent': map((r) => ({ ...r, total_budget: r.estimated_tokens })),
  'estimate counts headers': map((r) => ({ ...r, estimated_tokens: Math.max(1, Math.floor(r.context.length / 4)) })),
  'invalid requests answered': (req) => {
    const r = correct(req) as Record<string, any>;
    return 'error' in r ? { context: '', included: [], estimated_tokens: 0, total_budget: 0, omissions: [] } : r;
  },
  'pinned_overflow for every invalid request': (req) => {
    const r = correct(req) as Record<string, any>;
    return 'error' in r ? { error: { code: 'pinned_overflow', message: 'no' } } : r;
  },
  'NaN passed through as null (a JSON transport) and accepted': (req) => {
    const r = correct(JSON.parse(JSON.stringify(req, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? 0 : v)))) as Record<string, any>;
    return r;
  },
};

describe('the corpus separates right from wrong (tiered core cases)', () => {
  it(`the defect-free second implementation passes all ${cases.length} core cases`, async () => {
    expect(await failures(correct)).toEqual([]);
  });

  for (const [name, defects] of Object.entries(DEFECTS)) {
    it(`catches the defect: ${name}`, async () => {
      expect((await failures(mutant(defects))).length).toBeGreaterThan(0);
    });
  }

  for (const [name, assemble] of Object.entries(HABITS)) {
    it(`catches the habit: ${name}`, async () => {
      expect((await failures(assemble)).length).toBeGreaterThan(0);
    });
  }
});
