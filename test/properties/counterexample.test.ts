/** Saved counterexamples: valid cases, expectations from the reference, no hidden characters. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { capabilitiesUsed, expectationFromReference, saveCounterexample, saveIfFailing, visibleYaml } from '../../judging/properties/counterexample.js';
import { fromFunctions } from '../../adapters/inprocess.js';
import { assemble as referenceAssemble } from '../../reference/index.js';
import type { Manifest } from '../../protocol/types.js';
import { permuted, twinContent } from '../../judging/properties/catalog.js';
import { CASE_SCHEMA_PATH, caseValidator } from '../../judging/cases/schema.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-cx-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('visibleYaml', () => {
  const value = {
    'k\u202e': 'x\u202ey\u200b\u0301z\u{1f600}q\ud800',
    multi: 'a\n\nb\tc',
    astral: '\u{1f600}\u{e0001}\u{1d167}',
    plain: 'hello \u00b7 [x]',
    n: NaN,
    z: -0,
    arr: ['\u2028', 'ok'],
  };
  const text = visibleYaml(value);

  it('round-trips every value exactly', () => {
    const back = YAML.parse(text) as typeof value;
    expect(back).toEqual(value);
    expect(Object.is(back.z, -0)).toBe(true);
  });

  it('prints no bidi, zero-width, combining, line-separator or lone-surrogate character raw', () => {
    expect(text).not.toMatch(/\u202e|\u200b|\u0301|\u2028/);
    expect(text).not.toMatch(/[\ud800-\udfff]/u); // with /u, a pair is one code point: only lone halves match
    expect(text).toContain('\\u202e');
    expect(text).toContain('\\U000e0001');
    expect(text).toContain('\u{1f600}'); // visible astral characters stay as they are
    expect(text).toContain('plain: hello \u00b7 [x]');
  });
});

describe('saveCounterexample', () => {
  it('writes a valid case whose expectation is the reference answer', () => {
    const request = {
      now: 1000,
      budget: 5,
      blocks: [
        { block_id: 'a', source: 'memory', content: 'x\u202e'.repeat(6), priority: 1, pinned: false },
        { block_id: '\u{1f600}', source: 'notes', content: 'y', priority: 1, created_at: 990, ttl_seconds: 10 },
        { block_id: 'c', source: 'notes', content: 'zzzz', priority: 0, status: 'stale', created_at: 0, ttl_seconds: 5 },
      ],
    };
    const saved = saveCounterexample(
      { property: 'differential', requirements: ['TIER-4'], seed: -3, path: '1:2', message: 'Differs from the reference in included\nmore', request },
      tmp,
    );
    expect(saved.file).toBe(join(tmp, 'differential-m3.yaml'));
    const text = readFileSync(saved.file, 'utf8');
    const first = /^# yaml-language-server: \$schema=(.+)$/.exec(text.split('\n')[0]!);
    expect(resolve(tmp, first![1]!)).toBe(CASE_SCHEMA_PATH);
    const doc = YAML.parse(text) as Record<string, unknown>;
    expect(caseValidator()(doc)).toBe(true);
    expect(doc).toMatchObject({
      profile: 'tiered',
      // pinned: false pins nothing (SPEC section 8): only the stale block's status uses a capability.
      capabilities: ['lifecycle'],
      tags: ['counterexample', 'property-differential'],
      requirements: ['TIER-4'],
      request,
    });
    expect(doc.description).toMatch(/^Regression found by the differential property \(seed -3, path 1:2\): .* differs from the reference in included\.$/);
    // Worked by hand: budget 5 gives tiers 2/1/1/0 (remainder 1); 'a' costs 3 (12 code points),
    // '😀' costs 1 and is live at now == 990 + 10, 'c' expired (1000 > 5).
    // Working tier (notes): 😀 fits (1 of 2). Longterm (memory, 1): a does not fit; pool = 1 + 1 + 1 + 0 = 3: a fits.
    expect(doc.expect).toEqual({
      included: ['a', '\u{1f600}'],
      omissions: { c: 'expired' },
      omission_order: ['c'],
      estimated_tokens: 4,
      context: '[memory \u00b7 a]\n' + 'x\u202e'.repeat(6) + '\n\n[notes \u00b7 \u{1f600}]\ny',
    });
  });

  it('fills an error expectation for an invalid request', () => {
    expect(expectationFromReference({ now: 0, budget: -1, blocks: [] }, [])).toEqual({ error: 'invalid_request' });
  });

  it('lists only the capabilities the request uses, as SPEC section 8 words it; none for ranked or an invalid request', () => {
    const block = { block_id: 'a', source: 's', content: '', priority: 0 };
    // A confidence alone changes nothing without constraints (CON-6 reads it through prefer_high_confidence).
    expect(capabilitiesUsed({ now: 0, budget: 1, blocks: [{ ...block, confidence: 1 }] })).toEqual([]);
    expect(capabilitiesUsed({ now: 0, budget: 1, blocks: [{ ...block, confidence: 1 }], constraints: { prefer_high_confidence: true } })).toEqual([
      'constraints',
    ]);
    // Validation is core: an invalid request runs on every implementation.
    expect(capabilitiesUsed({ now: 0, budget: 1, blocks: [{ ...block, confidence: null, pinned: true }] })).toEqual([]);
    expect(capabilitiesUsed({ profile: 'ranked', now: 0, budget: 1, blocks: [] })).toEqual([]);
    expect(capabilitiesUsed([])).toEqual([]);
  });
});

describe('saveIfFailing: a saved case fails on the implementation it was found on, or it is not saved', () => {
  const request = {
    now: 1000,
    budget: 40,
    blocks: [
      { block_id: 'a', source: 'memory', content: 'a fact worth keeping', priority: 2 },
      { block_id: 'b', source: 'notes', content: 'a note', priority: 1 },
    ],
  };
  const manifest: Manifest = { name: 't', version: '0', profiles: ['tiered'], capabilities: ['working_context'] };
  const info = { property: 'differential', requirements: ['WC-2'], seed: 5, path: '0', message: 'Differs from the reference in segments', request };
  const reference = (req: unknown) => referenceAssemble(req, { capabilities: ['working_context'] });

  it('a difference only in working_context members: saved with that capability and its members, and it fails', async () => {
    // Right in every core member; the tier of each segment is wrong.
    const impl = fromFunctions(
      (req) => {
        const out = reference(req) as { segments?: { tier: string }[] };
        for (const s of out.segments ?? []) s.tier = 'working';
        return out;
      },
      undefined,
      manifest,
    );
    const dir = join(tmp, 'wc');
    const line = await saveIfFailing(info, dir, { impl, manifest, timeoutMs: 5000 });
    expect(line).toBe(`saved as ${join(dir, 'differential-5.yaml')}`);
    const doc = YAML.parse(readFileSync(join(dir, 'differential-5.yaml'), 'utf8')) as Record<string, unknown>;
    expect(caseValidator()(doc)).toBe(true);
    expect(doc.capabilities).toEqual(['working_context']);
    expect(doc.expect).toMatchObject({
      segments: [
        { block_id: 'a', source: 'memory', tier: 'longterm', reason: 'tier' },
        { block_id: 'b', source: 'notes', tier: 'working', reason: 'tier' },
      ],
      truncated: false,
      generated_at: 1000,
      total_budget: 40,
    });
  });

  it('a difference in a core member: saved without working_context, so implementations without it run the case too', async () => {
    const impl = fromFunctions((req) => ({ ...(reference(req) as object), estimated_tokens: 0 }), undefined, manifest);
    const dir = join(tmp, 'core');
    expect(await saveIfFailing(info, dir, { impl, manifest, timeoutMs: 5000 })).toMatch(/^saved as /);
    const doc = YAML.parse(readFileSync(join(dir, 'differential-5.yaml'), 'utf8')) as Record<string, unknown>;
    expect(doc.capabilities).toEqual([]);
    expect(doc.expect).not.toHaveProperty('segments');
  });

  it('an implementation whose one answer is right (the failure was across answers): not saved, and says why', async () => {
    const impl = fromFunctions(reference, undefined, manifest);
    const dir = join(tmp, 'right');
    expect(await saveIfFailing(info, dir, { impl, manifest, timeoutMs: 5000 })).toMatch(
      /^not saved as a case: the implementation passes a case of this request/,
    );
    expect(() => readFileSync(join(dir, 'differential-5.yaml'))).toThrow();
  });
});

describe('property helpers', () => {
  it('twinContent keeps the code-point length', () => {
    for (const [c, f] of [
      ['abc\u{1f600}', 'e\u0301'],
      ['', 'x'],
      ['\u{1f600}\u{1f600}', 'URGENT '],
    ] as const) {
      const t = twinContent(c, f);
      expect([...t].length).toBe([...c].length);
    }
    expect(twinContent('abcd', 'URGENT ')).toBe('URGE');
  });

  it('permuted moves only unpinned blocks', () => {
    const b = (id: string, pinned?: boolean) => ({ block_id: id, source: 's', content: '', priority: 0, ...(pinned ? { pinned } : {}) });
    const req = { now: 0, budget: 1, blocks: [b('p1', true), b('a'), b('p2', true), b('b'), b('c')] };
    const out = permuted(req, [5, 1, 3, 0, 0, 0, 0, 0]);
    expect(out.blocks.map((x) => x.block_id)).toEqual(['p1', 'b', 'p2', 'c', 'a']);
    expect(req.blocks.map((x) => x.block_id)).toEqual(['p1', 'a', 'p2', 'b', 'c']);
  });
});
