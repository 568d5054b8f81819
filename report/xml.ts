/**
 * Escaping for hand-written XML 1.0. Any string may arrive: control
 * characters, lone surrogates, `]]>`, terminal escapes. The output of
 * `xmlText` and `xmlAttr` is always a legal sequence of XML 1.0 characters.
 */
import { stripAnsi } from './text.js';

/** Characters XML 1.0 cannot hold at all, even as references: a visible `\uXXXX` stands in. */
function legal(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
      } else out += '\ufffd';
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) {
      out += '\ufffd';
      continue;
    }
    const ok = c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xfffd);
    out += ok ? s[i]! : `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return out;
}

const TEXT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' };
// Attribute values are normalized by parsers (newlines and tabs become spaces): keep them as references.
const ATTR: Record<string, string> = { ...TEXT, '\n': '&#10;', '\t': '&#9;' };

export function xmlText(s: string): string {
  return legal(stripAnsi(s)).replace(/[&<>"'\r]/g, (ch) => TEXT[ch]!);
}

export function xmlAttr(s: string): string {
  return legal(stripAnsi(s)).replace(/[&<>"'\r\n\t]/g, (ch) => ATTR[ch]!);
}
