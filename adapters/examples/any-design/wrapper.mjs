#!/usr/bin/env node
/**
 * The ctxconform stdio wrapper around packer.mjs (SPEC PROTO-3): a request's blocks
 * become documents, the packed result becomes an answer, and `describe` answers a
 * manifest that declares the packer's design, so the kit judges it at the
 * design-agnostic level (`"profiles": ["any"]`) under its own estimate and format.
 *
 *     npx ctxconform run --stdio "node adapters/examples/any-design/wrapper.mjs"
 */
import { createInterface } from 'node:readline';
import { packContext } from './packer.mjs';

const MANIFEST = {
  name: 'acme-packer-js',
  version: '1.0.0',
  language: 'javascript',
  profiles: ['any'],
  capabilities: [],
  validates: false,
  design: {
    estimator: { unit: 'utf16', per_token: 4, rounding: 'ceil', min: 0, overhead: 0 },
    render: { header: '--- {source} / {block_id} ---\n', footer: '\n--- end ---', separator: '\n', empty: '' },
    omissions: 'reported',
  },
};
// The packer's words, as SPEC section 10 classes.
const REASONS = { expired: 'expired', over_budget: 'budget' };

const doc = (b) => ({
  key: b.block_id,
  body: b.content,
  rank: b.priority,
  origin: b.source,
  expiresAt: (b.ttl_seconds ?? 0) > 0 ? (b.created_at ?? 0) + b.ttl_seconds : undefined,
});

function assemble(request) {
  const packed = packContext(request.blocks.map(doc), { maxTokens: request.budget, now: request.now });
  return {
    context: packed.prompt,
    included: packed.used,
    estimated_tokens: packed.tokens,
    total_budget: request.budget,
    omissions: packed.skipped.map((s) => ({ block_id: s.key, reason: REASONS[s.because] })),
  };
}

function answer(msg) {
  const id = msg?.id ?? null;
  if (msg?.op === 'describe') return { id, ok: MANIFEST };
  if (msg?.op === 'assemble') {
    try {
      return { id, ok: assemble(msg.request) };
    } catch (e) {
      // The packer does not validate: say so, never crash.
      return { id, error: { code: 'invalid_request', message: `cannot read the request: ${e}` } };
    }
  }
  return { id, error: { code: 'unknown_op', message: `unknown op ${JSON.stringify(msg?.op)}` } };
}

createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
  if (!line.trim()) return;
  let msg = null;
  try {
    msg = JSON.parse(line);
  } catch {
    msg = null;
  }
  process.stdout.write(`${JSON.stringify(answer(msg))}\n`);
});
