/**
 * The chat-history example (adapters/examples/chat-history/): a trimmer that keeps the
 * system messages and the newest messages that fit, counted as chat libraries count a
 * conversation (o200k tokens + 4.8 a message + 24 once), wrapped for the kit. Run as a
 * vendor runs it, the kit fails nothing and says provenance is not judged (its transcript
 * names no block, SPEC ANY-10); and its answers follow the trimmer's own rules, read here
 * from the description, not from its code.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../cli.js';

const WRAPPER = 'node adapters/examples/chat-history/wrapper.mjs';
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-chat-history-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const NOT_JUDGED = 'the declared render names no block: no {block_id} or {index} in its header or footer';

describe('the kit on the chat-history example', () => {
  it('fails nothing, and its levels say provenance is not judged', () => {
    const json = join(tmp, 'chat.json');
    const r = cli('run', '--stdio', WRAPPER, '--json', json, '--quiet');
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^PASS: \d+ pass, 0 fail, 0 error, 0 timeout, 0 crash, \d+ skip of \d+/m);
    expect(/^levels: (.*)$/m.exec(r.stdout)?.[1]).toBe(`any design: PASS (provenance not judged: ${NOT_JUDGED}), validation: not declared`);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { levels?: { level: string; word: string; failing: number; not_judged?: unknown }[] };
    const any = report.levels?.find((l) => l.level === 'any');
    expect(any?.word).toBe('PASS');
    expect(any?.failing).toBe(0);
    expect(any?.not_judged).toEqual([{ principle: 'ANY-10', name: 'provenance', reason: NOT_JUDGED }]);
  }, 120_000);
});

const exchange = (messages: unknown[]): any[] => {
  const [cmd, ...args] = WRAPPER.split(' ');
  const r = spawnSync(cmd!, args, { cwd: ROOT, input: `${messages.map((m) => JSON.stringify(m)).join('\n')}\n`, encoding: 'utf8', timeout: 20_000 });
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
};
const assemble = (request: unknown): any => exchange([{ id: '1', op: 'assemble', request }])[0];
const tokens = (text: string): number => encode(text, { disallowedSpecial: new Set() }).length;
/** The trimmer's counter as described: o200k tokens of each content, 3.8 + 1 a message, 24 once. */
const cost = (contents: string[]): number => (contents.length === 0 ? 0 : contents.reduce((s, c) => s + tokens(c), 0) + 4.8 * contents.length + 24);
const block = (block_id: string, content: string, more: Record<string, unknown> = {}) => ({ block_id, source: 'chat', content, priority: 1, ...more });

describe('the chat-history wrapper answers as the trimmer is described', () => {
  const rules = block('rules', 'You answer in one sentence.', { pinned: true, created_at: 50 });
  const q1 = block('q1', 'What is a token?', { role: 'user', created_at: 10 });
  const a1 = block('a1', 'A token is a piece of text a model reads as one unit, often part of a word.', { role: 'assistant', created_at: 11 });
  const q2 = block('q2', 'And a budget?', { role: 'user', created_at: 20 });
  const a2 = block('a2', 'The most tokens a prompt may hold.', { role: 'assistant', created_at: 20 });
  const old = block('old', 'expired', { created_at: 0, ttl_seconds: 5 });

  it('keeps the system message and the newest messages, written system first, then oldest first', () => {
    // Input order is not time order; q2 and a2 share a time, so a2 (later in the list) is the newer.
    const blocks = [q2, q1, rules, a2, a1, old];
    const r = assemble({ now: 100, budget: 1000, blocks }).ok;
    expect(r.included).toEqual(['rules', 'q1', 'a1', 'q2', 'a2']);
    expect(r.context).toBe([`System: ${rules.content}`, `Human: ${q1.content}`, `AI: ${a1.content}`, `Human: ${q2.content}`, `AI: ${a2.content}`].join('\n'));
    expect(r.estimated_tokens).toBe(Math.ceil(cost([rules, q1, a1, q2, a2].map((b) => b.content))));
    expect(r.omissions).toEqual([{ block_id: 'old', reason: 'expired' }]);
  });

  it('stops at the first message that does not fit: older ones are dropped too, even when they would fit', () => {
    // Room for the rules, a2 and q2, not for a1; q1 is shorter than a1 and would fit alone.
    const budget = Math.ceil(cost([rules, a2, q2, q1].map((b) => b.content)));
    expect(cost([rules, a2, q2, a1].map((b) => b.content))).toBeGreaterThan(budget);
    const r = assemble({ now: 100, budget, blocks: [rules, q1, a1, q2, a2] }).ok;
    expect(r.included).toEqual(['rules', 'q2', 'a2']);
    expect(r.omissions).toEqual([
      { block_id: 'a1', reason: 'budget' },
      { block_id: 'q1', reason: 'budget' },
    ]);
    expect(r.estimated_tokens).toBe(Math.ceil(cost([rules, q2, a2].map((b) => b.content))));
  });

  it('holds a fractional sum unrounded, and a whole one exactly: five messages fit a budget of their cost', () => {
    const five = ['m1', 'm2', 'm3', 'm4', 'm5'].map((id, i) => block(id, 'hello', { created_at: i }));
    const whole = tokens('hello') * 5 + 24 + 24;
    expect(assemble({ now: 0, budget: whole, blocks: five }).ok).toMatchObject({ included: ['m1', 'm2', 'm3', 'm4', 'm5'], estimated_tokens: whole });
    // One token less: the fifth (the oldest) goes, and 4 messages cost 19.2 + 24 + their text, rounded up.
    const four = assemble({ now: 0, budget: whole - 1, blocks: five }).ok;
    expect(four.included).toEqual(['m2', 'm3', 'm4', 'm5']);
    expect(four.estimated_tokens).toBe(Math.ceil(tokens('hello') * 4 + 19.2 + 24));
  });

  it('keeps a tool call and its result together: an exchange that does not fit whole stops the search, and an expired call takes its result out', () => {
    const call = block('call', 'search(query="token budget")', { role: 'assistant', created_at: 30, tool_call_id: 'c-1' });
    const result = block('result', 'A budget is the most tokens a prompt may hold; 4096 is common.', { role: 'tool', created_at: 31, tool_call_id: 'c-1' });
    const q3 = block('q3', 'Thanks.', { role: 'user', created_at: 40 });
    // Room for the rules, q3 and the result alone, not for the call beside it.
    const budget = Math.ceil(cost([rules, q3, result].map((b) => b.content)));
    expect(cost([rules, q3, result, call].map((b) => b.content))).toBeGreaterThan(budget);
    const r = assemble({ now: 100, budget, blocks: [rules, q2, call, result, q3] }).ok;
    expect(r.included).toEqual(['rules', 'q3']);
    // Dropped newest first, as the trimmer lists them.
    expect(r.omissions).toEqual([
      { block_id: 'result', reason: 'budget' },
      { block_id: 'call', reason: 'budget' },
      { block_id: 'q2', reason: 'budget' },
    ]);
    // With room for both, the exchange is written in time order under its speakers.
    const all = assemble({ now: 100, budget: 1000, blocks: [rules, call, result, q3] }).ok;
    expect(all.context).toBe([`System: ${rules.content}`, `AI: ${call.content}`, `Tool: ${result.content}`, `Human: ${q3.content}`].join('\n'));
    const expiredCall = assemble({ now: 100, budget: 1000, blocks: [{ ...call, ttl_seconds: 5 }, result, q3] }).ok;
    expect(expiredCall.included).toEqual(['q3']);
    expect(expiredCall.omissions).toEqual([
      { block_id: 'call', reason: 'expired' },
      { block_id: 'result', reason: 'expired' },
    ]);
  });

  it('answers nothing included with an empty context and no conversation cost, and pinned_overflow when the system messages alone do not fit', () => {
    expect(assemble({ now: 0, budget: 10, blocks: [q1] }).ok).toEqual({
      context: '',
      included: [],
      estimated_tokens: 0,
      total_budget: 10,
      omissions: [{ block_id: 'q1', reason: 'budget' }],
    });
    expect(assemble({ now: 0, budget: 20, blocks: [rules, q1] }).error.code).toBe('pinned_overflow');
    // An expired system message is dropped first, and then costs nothing.
    expect(assemble({ now: 100, budget: 40, blocks: [{ ...rules, created_at: 0, ttl_seconds: 5 }, q2] }).ok).toMatchObject({
      included: ['q2'],
      omissions: [{ block_id: 'rules', reason: 'expired' }],
    });
  });
});
