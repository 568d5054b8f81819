/**
 * A chat-history trimmer, as a chat application might ship it before anyone thought of
 * ctxconform: its own message shape, its own token counter, its own transcript. Nothing
 * here knows the kit; wrapper.mjs translates.
 *
 * Trimming: every system message is kept, and with it every message of a tool exchange a
 * system message belongs to; then the other messages are taken newest first (by
 * `createdAt`; of two with the same time, the later in the list is the newer) while the
 * running total fits the limit. A tool exchange (the assistant's call and the tool's
 * result, which share a `toolCallId`) is taken whole where its newest message stands, or
 * not at all: a provider refuses a result without its call. The first message or exchange
 * that does not fit ends the search: it and every older message are dropped, so the kept
 * history is never a conversation with a hole in it.
 *
 * Counter, as chat libraries count a conversation: the o200k_base tokens of each
 * message's content, plus 3.8 tokens a message, plus 1 for the role's own name, plus 24
 * once for a conversation (an empty one costs nothing). The sum is compared with the
 * limit as it is, fractions and all; the reported total is rounded up.
 *
 * Transcript: one line per kept message, system messages first, then the others oldest
 * first, each after its speaker (`System: `, `Human: `, `AI: `, `Tool: `), joined by "\n".
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

export const TOKENS_PER_MESSAGE = 3.8;
export const TOKENS_PER_NAME = 1;
export const TOKENS_PER_CONVERSATION = 24;
const SPEAKERS = { system: 'System: ', user: 'Human: ', assistant: 'AI: ', tool: 'Tool: ' };

/** Tokens of a text, with text such as `<|endoftext|>` counted as ordinary text. */
const textTokens = (text) => encode(text, { disallowedSpecial: new Set() }).length;

/**
 * The cost of a conversation: its contents' tokens, `count` messages and, when there is
 * any, the conversation's own 24. The per-message constant is multiplied, not added
 * message by message, so a sum that is a whole number is one exactly (5 messages: 24 + 5 x 4.8 = 48).
 */
const conversation = (contentTokens, count) =>
  count === 0 ? 0 : contentTokens + count * TOKENS_PER_MESSAGE + count * TOKENS_PER_NAME + TOKENS_PER_CONVERSATION;

/** The cost of a conversation of these messages, unrounded: 0 for none. */
export const countTokens = (messages) =>
  conversation(
    messages.reduce((sum, m) => sum + textTokens(m.content), 0),
    messages.length,
  );

/** The transcript of messages, in the order given. */
export const formatTranscript = (messages) => messages.map((m) => `${SPEAKERS[m.role]}${m.content}`).join('\n');

/** The messages of the exchange `m` belongs to among `messages`, or `m` alone. */
const exchangeOf = (m, messages) => (m.toolCallId ? messages.filter((x) => x.toolCallId === m.toolCallId) : [m]);

/**
 * @param {{role: 'system' | 'user' | 'assistant' | 'tool', content: string, createdAt: number, toolCallId?: string}[]} messages
 * @param {number} maxTokens
 * @returns {{kept: object[], dropped: object[], totalTokens: number, transcript: string}}
 *   `kept`: system messages in list order, then the others oldest first; `dropped`: the
 *   others that did not fit, newest first; `totalTokens`: the kept conversation's cost,
 *   rounded up.
 */
export function trimMessages(messages, maxTokens) {
  const system = messages.filter((m) => m.role === 'system');
  const held = new Set(system.map((m) => m.toolCallId).filter(Boolean));
  // Oldest first: by createdAt, then by place in the list (the later one is the newer).
  const history = messages
    .map((m, place) => ({ m, place }))
    .filter(({ m }) => m.role !== 'system')
    .sort((a, b) => a.m.createdAt - b.m.createdAt || a.place - b.place)
    .map(({ m }) => m);
  // The rest of an exchange a system message belongs to is kept with it.
  const taken = new Set(history.filter((m) => held.has(m.toolCallId)));
  const first = [...system, ...taken];
  let contentTokens = first.reduce((sum, m) => sum + textTokens(m.content), 0);
  let count = first.length;
  for (let i = history.length - 1; i >= 0; i--) {
    if (taken.has(history[i])) continue;
    const unit = exchangeOf(history[i], history).filter((m) => !taken.has(m));
    const tokens = unit.reduce((sum, m) => sum + textTokens(m.content), 0);
    if (conversation(contentTokens + tokens, count + unit.length) > maxTokens) break;
    contentTokens += tokens;
    count += unit.length;
    for (const m of unit) taken.add(m);
  }
  const recent = history.filter((m) => taken.has(m));
  const dropped = history.filter((m) => !taken.has(m)).reverse();
  const kept = [...system, ...recent];
  return { kept, dropped, totalTokens: Math.ceil(conversation(contentTokens, kept.length)), transcript: formatTranscript(kept) };
}
