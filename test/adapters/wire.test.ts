/**
 * A case means the same request on every transport (SPEC section 11, "The
 * wire"): stdio and http hand the implementation byte-identical JSON, JSON
 * that parses back to exactly the request the in-process adapter passes (-0
 * included), or the case is skipped on that transport with its reason.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpImplementation } from '../../adapters/http.js';
import { StdioImplementation } from '../../adapters/stdio.js';
import { encodeRequest, UNSENDABLE } from '../../adapters/wire.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { judge } from '../../judging/judge.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { GoldenCase } from '../../vocabulary/types.js';
import type { Manifest, Outcome } from '../../protocol/types.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-wire-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const MANIFEST: Manifest = {
  name: 'recorder',
  version: '1',
  profiles: ['tiered', 'ranked'],
  capabilities: ['working_context', 'constraints', 'lifecycle', 'pinned'],
};
const REFUSAL = { code: 'invalid_request', message: 'recorded' };

/** Every number in a value that JSON cannot carry. */
function hasNonFinite(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isFinite(v);
  if (typeof v === 'object' && v !== null) return Object.values(v).some(hasNonFinite);
  return false;
}

describe('encodeRequest', () => {
  it('is JSON.stringify for a request without -0 or a non-finite number', () => {
    const r = { now: 1.5, budget: 3, blocks: [{ block_id: 'é\u{1F600}"\\', source: 's', content: 'a\nb\u0000', priority: -2 }], extra: undefined };
    expect(encodeRequest(r)).toEqual({ ok: true, json: JSON.stringify(r) });
  });

  it('writes -0 as -0.0 at any depth, which parses back to -0', () => {
    const r = {
      now: -0,
      budget: 0,
      blocks: [{ block_id: 'a', source: 's', content: '', priority: -0, confidence: 0, ttl_seconds: -0 }],
      x: [-0, 0, undefined],
    };
    const e = encodeRequest(r);
    expect(e).toEqual({
      ok: true,
      json: '{"now":-0.0,"budget":0,"blocks":[{"block_id":"a","source":"s","content":"","priority":-0.0,"confidence":0,"ttl_seconds":-0.0}],"x":[-0.0,0,null]}',
    });
    const back = JSON.parse((e as { json: string }).json) as typeof r;
    expect(Object.is(back.now, -0)).toBe(true);
    expect(Object.is(back.blocks[0]!.priority, -0)).toBe(true);
    expect(Object.is(back.blocks[0]!.confidence, 0)).toBe(true);
    expect(Object.is(back.budget, 0)).toBe(true);
  });

  it('refuses NaN and ±Infinity with the pointer of the first, never sending null', () => {
    expect(encodeRequest({ now: 0, budget: 1, blocks: [{ 'a/b~c': NaN }] })).toEqual({
      ok: false,
      reason: `${UNSENDABLE}: NaN at /blocks/0/a~1b~0c (VAL-8: JSON has no NaN or Infinity)`,
    });
    expect(encodeRequest({ now: -Infinity, budget: Infinity })).toEqual({
      ok: false,
      reason: `${UNSENDABLE}: -Infinity at /now (VAL-8: JSON has no NaN or Infinity)`,
    });
    expect(encodeRequest(NaN)).toEqual({ ok: false, reason: `${UNSENDABLE}: NaN at / (VAL-8: JSON has no NaN or Infinity)` });
    // With a -0 elsewhere the slow path still finds the NaN.
    expect(encodeRequest({ a: -0, b: [1, NaN] })).toMatchObject({ ok: false, reason: expect.stringContaining('NaN at /b/1') });
  });

  it('refuses what JSON.stringify cannot write: a BigInt, a cycle, undefined', () => {
    expect(encodeRequest({ budget: 10n })).toMatchObject({ ok: false, reason: `${UNSENDABLE}: a BigInt at /budget` });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(encodeRequest(cyclic)).toMatchObject({ ok: false, reason: expect.stringMatching(/^cannot be sent over JSON: .*circular/i) });
    expect(encodeRequest(undefined)).toMatchObject({ ok: false });
  });

  it('keeps JSON.stringify rules on the slow path: toJSON, dropped members, holes', () => {
    const r = { d: new Date(0), f: () => 1, s: Symbol('x'), u: undefined, arr: [() => 1, undefined, -0], z: -0 };
    expect(encodeRequest(r)).toEqual({ ok: true, json: '{"d":"1970-01-01T00:00:00.000Z","arr":[null,null,-0.0],"z":-0.0}' });
  });

  it('escapes a lone surrogate, so JSON carries it (NUM-1)', () => {
    expect(encodeRequest({ content: '\ud800a', z: -0 })).toEqual({ ok: true, json: '{"content":"\\ud800a","z":-0.0}' });
  });
});

/** What a transport handed the implementation for each case: the request bytes, or the skip. */
type Seen = Map<string, { bytes?: string; skip?: string }>;

async function throughStdio(cases: GoldenCase[]): Promise<Seen> {
  const log = join(tmp, 'stdio.log');
  const script = join(tmp, 'recorder.mjs');
  // Records each assemble line as it arrived, and refuses it (the answer does not matter here).
  writeFileSync(
    script,
    `import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (l) => {
  const m = JSON.parse(l);
  if (m.op === 'assemble') appendFileSync(${JSON.stringify(log)}, l + '\\n');
  process.stdout.write(JSON.stringify({ id: m.id, error: ${JSON.stringify(REFUSAL)} }) + '\\n');
});`,
  );
  writeFileSync(log, '');
  const impl = new StdioImplementation({ command: `"${process.execPath}" "${script}"`, manifest: MANIFEST });
  const seen: Seen = new Map();
  const sent: GoldenCase[] = [];
  try {
    for (const c of cases) {
      const o = await impl.assemble(c.request, { timeoutMs: 10_000 });
      record(seen, c, o);
      if (o.kind !== 'unsendable') sent.push(c);
    }
  } finally {
    await impl.close();
  }
  // One line per sent case, in order: the request is the envelope's "request" member, as written.
  const lines = readFileSync(log, 'utf8').split('\n').slice(0, -1);
  expect(lines).toHaveLength(sent.length);
  sent.forEach((c, i) => {
    // Each line is the envelope protocol/schemas/stdio.schema.json defines.
    expect(validators.stdioRequest()(JSON.parse(lines[i]!)), `${c.id}: ${formatErrors(validators.stdioRequest().errors).join('; ')}`).toBe(true);
    const m = /^\{"id":"\d+","op":"assemble","request":(.*)\}$/s.exec(lines[i]!);
    expect(m, `envelope of ${c.id}`).not.toBeNull();
    seen.get(c.id)!.bytes = m![1]!;
  });
  return seen;
}

async function throughHttp(cases: GoldenCase[]): Promise<Seen> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: REFUSAL }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const impl = new HttpImplementation({ base: `http://127.0.0.1:${port}`, manifest: MANIFEST, concurrency: 1 });
  const seen: Seen = new Map();
  try {
    for (const c of cases) {
      const before = bodies.length;
      const o = await impl.assemble(c.request, { timeoutMs: 10_000 });
      record(seen, c, o);
      if (bodies.length > before) seen.get(c.id)!.bytes = bodies.at(-1)!;
    }
  } finally {
    await impl.close();
    server.close();
  }
  return seen;
}

function record(seen: Seen, c: GoldenCase, o: Outcome): void {
  if (o.kind === 'unsendable') {
    const v = judge(c, o, MANIFEST);
    expect(v.status).toBe('skip');
    seen.set(c.id, { skip: v.message! });
  } else {
    expect(o.kind, `${c.id}: ${JSON.stringify(o)}`).toBe('error');
    seen.set(c.id, {});
  }
}

describe('every golden case over stdio and http', () => {
  const cases = loadCorpus().cases;

  it('hands the implementation byte-identical JSON that parses back to the in-process request, or skips with the reason', async () => {
    const [stdio, http] = [await throughStdio(cases), await throughHttp(cases)];
    let sent = 0;
    const skipped: string[] = [];
    for (const c of cases) {
      const s = stdio.get(c.id)!;
      const h = http.get(c.id)!;
      if (hasNonFinite(c.request)) {
        // Not sendable as JSON: skipped on both, never sent as something else.
        expect(s, c.id).toEqual({ skip: expect.stringMatching(/^cannot be sent over JSON: .*VAL-8.*; not tested on this transport$/) });
        expect(h, c.id).toEqual(s);
        skipped.push(c.id);
        continue;
      }
      expect(s.bytes, c.id).toBeDefined();
      expect(h.bytes, c.id).toBe(s.bytes);
      // The in-process adapter passes a structured clone of c.request; isDeepStrictEqual tells -0 from 0.
      expect(isDeepStrictEqual(JSON.parse(s.bytes!), structuredClone(c.request)), `${c.id} parses back to its request`).toBe(true);
      sent++;
    }
    expect(sent + skipped.length).toBe(cases.length);
    // The corpus's NaN and Infinity cases are the only ones skipped, and there are some.
    expect(skipped).toContain('validation/created-at-nan');
    expect(skipped.every((id) => id.startsWith('validation/'))).toBe(true);
    // -0 reaches the implementation as -0.0.
    expect(stdio.get('numbers/negative-zero-equals-zero')!.bytes).toContain('"priority":-0.0');
  }, 120_000);
});
