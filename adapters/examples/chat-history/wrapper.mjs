#!/usr/bin/env node
/**
 * The ctxconform stdio wrapper around trimmer.mjs (SPEC PROTO-3): a request's blocks
 * become chat messages (a pinned block is a system message; any other is the `role` the
 * block carries, `user`, `assistant` or `tool`, default `user`; `created_at` orders them;
 * blocks with one `tool_call_id` are a tool exchange, a call and its result), the
 * trimmed conversation becomes an answer, and `describe` answers a manifest that declares
 * the trimmer's counter and transcript, so the kit judges it at the design-agnostic level
 * (`"profiles": ["any"]`). The transcript names no block, so provenance (SPEC ANY-10) is
 * not judged for it.
 *
 *     npx ctxconform run --stdio "node adapters/examples/chat-history/wrapper.mjs"
 */
import { createInterface } from 'node:readline';
import { countTokens, trimMessages } from './trimmer.mjs';

const MANIFEST = {
  name: 'chat-history-trimmer',
  version: '1.0.0',
  language: 'javascript',
  profiles: ['any'],
  capabilities: ['pinned'],
  validates: false,
  design: {
    members: { role: ['user', 'assistant', 'tool'] },
    // o200k tokens of each content + 3.8 a message + 1 for the role's name; 24 a conversation.
    estimator: { tokenizer: 'o200k_base', overhead: 4.8, context_overhead: 24 },
    render: {
      header: { by: 'pinned', cases: { true: 'System: ' }, default: { by: 'role', cases: { assistant: 'AI: ', tool: 'Tool: ' }, default: 'Human: ' } },
      separator: '\n',
      empty: '',
    },
    omissions: 'reported',
    // The newest messages while they fit, then no more; written oldest first under the system prompt (DES-7, DES-8).
    fill: { order: 'newest_first', misfit: 'stop' },
    context_order: { by: 'chronological', pinned_first: true },
    // A tool call and its result share a tool_call_id and are kept or dropped together (DES-9).
    groups: 'tool_call_id',
  },
};

/** Expired as SPEC EXP-1 says: a positive ttl_seconds, and now past created_at + ttl_seconds. */
const expired = (b, now) => (b.ttl_seconds ?? 0) > 0 && now > (b.created_at ?? 0) + b.ttl_seconds;

const ROLES = ['user', 'assistant', 'tool'];
const exchange = (b) => (typeof b.tool_call_id === 'string' && b.tool_call_id !== '' ? b.tool_call_id : undefined);

const message = (b) => ({
  role: b.pinned === true ? 'system' : ROLES.includes(b.role) ? b.role : 'user',
  content: b.content,
  createdAt: b.created_at ?? 0,
  ...(exchange(b) ? { toolCallId: exchange(b) } : {}),
});

class Refusal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function assemble(request) {
  const omissions = [];
  const idOf = new Map();
  const messages = [];
  // An exchange with an expired message is gone as a whole: a result never stands without its call. A system message stays.
  const gone = new Set(request.blocks.filter((b) => expired(b, request.now) && exchange(b)).map(exchange));
  for (const b of request.blocks) {
    if (expired(b, request.now) || (b.pinned !== true && gone.has(exchange(b)))) {
      omissions.push({ block_id: b.block_id, reason: 'expired' });
      continue;
    }
    const m = message(b);
    idOf.set(m, b.block_id);
    messages.push(m);
  }
  // The system messages, and the rest of their exchanges, are kept whatever the limit: when they alone do not fit, say so.
  const held = new Set(messages.filter((m) => m.role === 'system' && m.toolCallId).map((m) => m.toolCallId));
  const system = countTokens(messages.filter((m) => m.role === 'system' || held.has(m.toolCallId)));
  if (system > request.budget)
    throw new Refusal('pinned_overflow', `the system messages and their tool exchanges cost ${system}, over the budget of ${request.budget}`);
  const trimmed = trimMessages(messages, request.budget);
  return {
    context: trimmed.transcript,
    included: trimmed.kept.map((m) => idOf.get(m)),
    estimated_tokens: trimmed.totalTokens,
    total_budget: request.budget,
    omissions: [...omissions, ...trimmed.dropped.map((m) => ({ block_id: idOf.get(m), reason: 'budget' }))],
  };
}

function answer(msg) {
  const id = msg?.id ?? null;
  if (msg?.op === 'describe') return { id, ok: MANIFEST };
  if (msg?.op === 'assemble') {
    try {
      return { id, ok: assemble(msg.request) };
    } catch (e) {
      if (e instanceof Refusal) return { id, error: { code: e.code, message: e.message } };
      // The trimmer does not validate: say so, never crash.
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
