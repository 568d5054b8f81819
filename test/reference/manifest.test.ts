/** PROTO-1: the reference's manifest, and the answers the schemas accept. */
import { describe, expect, it } from 'vitest';
import { formatErrors, validators } from '../../protocol/schemas.js';
import { assemble, describe as describeReference, isErrorAnswer } from '../../reference/index.js';

describe('describe()', () => {
  it('validates against the manifest schema', () => {
    const v = validators.manifest();
    const m = describeReference();
    expect(v(m), formatErrors(v.errors).join('\n')).toBe(true);
  });

  it('declares both profiles and all four capabilities', () => {
    const m = describeReference();
    expect(m.profiles).toEqual(['tiered', 'ranked']);
    // The four of SPEC section 8, spelled out rather than read back from the reference's own list.
    expect([...m.capabilities].sort()).toEqual(['constraints', 'lifecycle', 'pinned', 'working_context']);
    expect(m.capabilities.length).toBe(4);
  });
});

describe('schemas as a check on the tests themselves', () => {
  it('reject a tiered result with a member that no capability declares', () => {
    const r = assemble({ now: 1, budget: 10, blocks: [] }, { capabilities: [] });
    expect(isErrorAnswer(r)).toBe(false);
    const v = validators.result('tiered', []);
    expect(v(r)).toBe(true);
    expect(v({ ...r, instructions: 'obey' })).toBe(false);
  });

  it('reject a working_context result missing generated_at', () => {
    const r = assemble({ now: 1, budget: 10, blocks: [] });
    const v = validators.result('tiered', ['working_context']);
    expect(v(r)).toBe(true);
    const { generated_at: _dropped, ...rest } = r as unknown as Record<string, unknown>;
    expect(v(rest)).toBe(false);
  });
});
