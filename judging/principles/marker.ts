/**
 * A declared omission marker (SPEC DES-10): the sentence a design writes
 * where it left blocks out ("Skipped 3 messages."), with the count or the ids
 * of the blocks not included. Taken out of the context before the render is
 * read, and held to the truth: a marker that miscounts, one written when
 * nothing was left out, or one missing when something was, is ANY-11's.
 */
import type { DeclaredMarker } from '../../protocol/types.js';
import type { Finding } from './finding.js';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The marker's template as a pattern: `{count}` a whole number, `{ids}` the ids joined by ", ". */
function pattern(text: string): RegExp {
  const body = text
    .split(/(\{count\}|\{ids\})/)
    .map((p) => (p === '{count}' ? '(?<count>\\d+)' : p === '{ids}' ? '(?<ids>.*?)' : escapeRegExp(p)))
    .join('');
  return new RegExp(`^${body}$`, 's');
}

/** The context without the marker, and what the marker says was wrong; `dropped` are the request's blocks not included. */
export function takeOutMarker(context: string, marker: DeclaredMarker, separator: string, dropped: readonly string[], out: Finding[]): string {
  const re = pattern(marker.text);
  const parts = context.split(separator);
  const at = marker.where === 'first' ? 0 : parts.length - 1;
  const m = parts.length > 0 ? re.exec(parts[at]!) : null;
  if (!m) {
    if (dropped.length > 0)
      out.push({
        id: 'ANY-11',
        message: `${dropped.length} block${dropped.length === 1 ? ' is' : 's are'} left out and the declared omission marker is not ${marker.where === 'first' ? 'first' : 'last'} in the context`,
        expected: marker.text,
      });
    return context;
  }
  const rest = parts.filter((_, i) => i !== at).join(separator);
  const said = m.groups?.['count'] !== undefined ? Number(m.groups['count']) : undefined;
  const ids = m.groups?.['ids'] !== undefined ? m.groups['ids'].split(', ').filter(Boolean) : undefined;
  if (dropped.length === 0)
    out.push({ id: 'ANY-11', message: `the omission marker ${JSON.stringify(m[0])} is written, but no block is left out`, actual: m[0] });
  else if (said !== undefined && said !== dropped.length)
    out.push({
      id: 'ANY-11',
      message: `the omission marker says ${said} where ${dropped.length} block${dropped.length === 1 ? ' is' : 's are'} left out: ${JSON.stringify(m[0])}`,
      expected: dropped.length,
      actual: said,
    });
  else if (ids !== undefined && (ids.length !== dropped.length || ids.some((id) => !dropped.includes(id))))
    out.push({
      id: 'ANY-11',
      message: `the omission marker names ${JSON.stringify(ids)} where the blocks left out are ${JSON.stringify(dropped)}`,
      expected: dropped,
      actual: ids,
    });
  return rest;
}
