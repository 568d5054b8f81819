/**
 * Text for a terminal in which nothing is invisible: control, format
 * (zero-width, bidi), private-use, separator and unassigned characters, and
 * spaces other than U+0020, written as escapes (`\ue000`, `\u{f0000}`), so an
 * id or a source made of them never looks empty or reorders the line. Line
 * breaks and tabs are kept: they lay the text out.
 */
const HIDDEN = /(?![\n\t ])[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

function escapeChar(ch: string): string {
  const cp = ch.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

export function visible(s: string): string {
  return s.replace(HIDDEN, escapeChar);
}
