/**
 * The Python example through the stdio adapter: the protocol working end to
 * end in another language. It declares `tiered` and no capability, so every
 * tiered core case must pass and every other case must be skipped, not failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeRequest } from '../../adapters/wire.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { openImplementation } from '../../running/open.js';
import { runSuite } from '../../running/run.js';
import type { Outcome } from '../../protocol/types.js';

const impl = fileURLToPath(new URL('../../adapters/examples/python/impl.py', import.meta.url));
const hasPython = spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!hasPython)('adapters/examples/python over stdio', () => {
  it('passes every tiered core case of the bundled corpus and skips the rest with a reason', async () => {
    const { cases, problems } = loadCorpus();
    expect(problems).toEqual([]);
    const opened = await openImplementation({ transport: 'stdio', config: { command: `python3 "${impl}"`, processes: 1 }, timeoutMs: 5000 });
    expect(opened.manifest).toEqual({ name: 'ctxconform-python-example', version: '1.0.0', language: 'python', profiles: ['tiered'], capabilities: [] });
    try {
      const r = await runSuite({ cases, impl: opened.impl, manifest: opened.manifest, timeoutMs: 5000, concurrency: 8, properties: 0, seed: 1 });
      const core = new Set(cases.filter((c) => c.profile === 'tiered' && c.capabilities.length === 0).map((c) => c.id));
      expect(core.size).toBeGreaterThan(0);
      // Every case of the corpus is in the report, so the loop below judges each one.
      expect(r.cases.map((c) => c.id).sort()).toEqual(cases.map((c) => c.id).sort());
      // NaN and Infinity cannot travel in JSON (PROTO-6): those core cases are skipped with that reason.
      const unsendable = new Set(cases.filter((c) => !encodeRequest(c.request).ok).map((c) => c.id));
      expect(unsendable.size).toBeGreaterThan(0);
      for (const c of r.cases) {
        if (core.has(c.id) && unsendable.has(c.id))
          expect({ id: c.id, status: c.status, message: c.message }).toEqual({
            id: c.id,
            status: 'skip',
            message: expect.stringMatching(/^cannot be sent over JSON: /),
          });
        else if (core.has(c.id)) expect({ id: c.id, status: c.status, message: c.message }).toEqual({ id: c.id, status: 'pass', message: undefined });
        // The design-agnostic cases hold for every tiered implementation too (SPEC section 18); those needing pinned it does not declare.
        else if (c.id.startsWith('any/')) expect({ id: c.id, status: c.status }).toEqual({ id: c.id, status: /pinned/.test(c.id) ? 'skip' : 'pass' });
        else {
          expect(c.status, c.id).toBe('skip');
          expect(c.message).toMatch(/not declared by the implementation/);
        }
      }
    } finally {
      await opened.impl.close();
    }
  });

  it('--constants FILE: tuned constants applied and declared pass the tiered core; the same answers without the declaration fail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxconform-py-'));
    const constants = {
      chars_per_token: 3,
      tier_fractions: { working: 50, episodic: 20, longterm: 20, knowledge: 10 },
      source_to_tier: { notes: 'knowledge' },
    };
    writeFileSync(join(dir, 'tuned.json'), JSON.stringify(constants));
    writeFileSync(join(dir, 'undeclared.json'), JSON.stringify({ name: 'py', version: '1', profiles: ['tiered'], capabilities: [] }));
    const { cases } = loadCorpus();
    const core = cases.filter((c) => c.profile === 'tiered' && c.capabilities.length === 0);
    const stdio = `python3 "${impl}" --constants "${join(dir, 'tuned.json')}"`;
    try {
      for (const manifest of [undefined, join(dir, 'undeclared.json')]) {
        const opened = await openImplementation({
          transport: 'stdio',
          config: { command: stdio, processes: 1 },
          timeoutMs: 5000,
          ...(manifest ? { manifest } : {}),
        });
        try {
          const r = await runSuite({ cases: core, impl: opened.impl, manifest: opened.manifest, timeoutMs: 5000, concurrency: 8, properties: 0, seed: 1 });
          if (manifest === undefined) {
            expect(opened.manifest.constants).toEqual(constants);
            expect(r.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => c.id)).toEqual([]);
            expect(r.summary.pass).toBeGreaterThan(100);
          } else {
            // Judged against the spec's constants, the tuned answers are wrong wherever the constants decide.
            expect(r.summary.fail).toBeGreaterThan(10);
          }
        } finally {
          await opened.impl.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers an op it does not know with unknown_op on one line and goes on (PROTO-3)', () => {
    const r = spawnSync('python3', [impl], { input: '{"id":"9","op":"frobnicate"}\n{"id":"10","op":"describe"}\n', encoding: 'utf8' });
    const [first, second] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; error?: { code: string }; ok?: unknown });
    expect(first).toMatchObject({ id: '9', error: { code: 'unknown_op' } });
    for (const line of [first, second]) expect(validators.stdioAnswer()(line), formatErrors(validators.stdioAnswer().errors).join('; ')).toBe(true);
    expect(second).toMatchObject({ id: '10', ok: { name: 'ctxconform-python-example' } });
    expect(r.status).toBe(0);
  });

  it('counts and orders by code point, and keeps a lone surrogate', async () => {
    const opened = await openImplementation({ transport: 'stdio', config: { command: `python3 "${impl}"`, processes: 1 }, timeoutMs: 5000 });
    try {
      const ask = (request: unknown): Promise<Outcome> => opened.impl.assemble(request, { timeoutMs: 5000 });
      // Two sources that order differently in UTF-16 and in code points (NUM-4): U+FF5E < U+1F600.
      const order = await ask({
        now: 0,
        budget: 100,
        blocks: [
          { block_id: 'emoji', source: '\u{1F600}', content: 'a', priority: 1 },
          { block_id: 'tilde', source: '\uFF5E', content: 'b', priority: 1 },
        ],
      });
      expect(order).toMatchObject({ kind: 'result', value: { included: ['tilde', 'emoji'] } });
      // 8 emoji are 8 code points (16 UTF-16 units): cost 2, not 4 (NUM-1, NUM-2).
      const cost = await ask({ now: 0, budget: 100, blocks: [{ block_id: 'e', source: 'memory', content: '👍'.repeat(8), priority: 1 }] });
      expect(cost).toMatchObject({ kind: 'result', value: { estimated_tokens: 2 } });
      // A lone surrogate survives the trip both ways as the same UTF-16 unit.
      const lone = await ask({ now: 0, budget: 100, blocks: [{ block_id: 'l', source: 'memory', content: 'a\ud800b', priority: 1 }] });
      expect(lone).toMatchObject({ kind: 'result', value: { context: '[memory \u00b7 l]\na\ud800b' } });
      const invalid = await ask({ now: 0, budget: 1.5, blocks: [] });
      expect(invalid).toMatchObject({ kind: 'error', code: 'invalid_request' });
    } finally {
      await opened.impl.close();
    }
  });
});
