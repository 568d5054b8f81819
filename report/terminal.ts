/**
 * The one escaping of text for a terminal or a CI log. Much of what the kit
 * prints did not come from the kit: manifest members, ids, sources, messages,
 * reasons, member names, an implementation's stderr, the contents of report
 * files. Shown raw, such text could move the cursor, retitle the window (OSC),
 * ring the bell, overwrite a line (CR, backspace), reorder it (bidi overrides),
 * fake a line of its own (a newline inside an id), or give a CI runner a
 * command (`::add-mask::`, `::error`, `##[`). Every command's stdout and stderr
 * goes through terminalText; a value that must stay on its line goes through
 * terminalValue first.
 *
 * Escapes are JSON's (`\u001b`, `\u202e`, `\n`): a JSON document printed
 * through it is still valid JSON with the same values.
 */

/**
 * Control characters (C0 but newline and tab, DEL, C1), format characters
 * (bidi overrides and isolates, zero-width characters, tag characters), line
 * and paragraph separators, and lone surrogates.
 */
const UNSAFE_IN_TEXT = /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;
/** The same, newline and tab included: inside a value they would start a line or shift a column. */
const UNSAFE_IN_VALUE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

const SHORT: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f' };

const hex4 = (unit: number): string => `\\u${unit.toString(16).padStart(4, '0')}`;

/** A character as JSON escapes it: a short escape, or each UTF-16 unit as `\uXXXX`. */
function escapeChar(ch: string): string {
  const short = SHORT[ch];
  if (short !== undefined) return short;
  let out = '';
  for (let i = 0; i < ch.length; i++) out += hex4(ch.charCodeAt(i));
  return out;
}

/**
 * A line a CI runner reads as a command: GitHub's `::name::` at the start of
 * the line (after blanks, which the runner trims), and `##[name]` or Azure's
 * `##vso[` anywhere in it.
 */
const LINE_COMMAND = /^([ \t]*)::/gm;
const INLINE_COMMAND = /##(?=\[|vso\[)/g;

/** Text whose line breaks and tabs lay it out: every other control or invisible character escaped, and no line a CI runner would take for a command. */
export function terminalText(s: string): string {
  return s.replace(/\r\n/g, '\n').replace(UNSAFE_IN_TEXT, escapeChar).replace(LINE_COMMAND, '$1\\u003a:').replace(INLINE_COMMAND, '#\\u0023');
}

/** One value on one line: newlines and tabs escaped too, so the value cannot start a line of its own. */
export function terminalValue(s: string): string {
  return s.replace(UNSAFE_IN_VALUE, escapeChar).replace(INLINE_COMMAND, '#\\u0023');
}
