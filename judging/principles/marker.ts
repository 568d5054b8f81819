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

/**
 * Where the marker's part stands: first, last, or right after `head` (the rendered pinned blocks
 * the context starts with, `""` when none) and the separator; the context without it.
 */
function markerPart(context: string, where: DeclaredMarker['where'], separator: string, head: string): { part: string; rest: string } | undefined {
  if (where !== 'after_pinned' || head === '') {
    const parts = context.split(separator);
    const at = where === 'last' ? parts.length - 1 : 0;
    return { part: parts[at]!, rest: parts.filter((_, i) => i !== at).join(separator) };
  }
  if (!context.startsWith(head + separator)) return undefined;
  const start = head.length + separator.length;
  const end = separator ? context.indexOf(separator, start) : -1;
  return end < 0 ? { part: context.slice(start), rest: head } : { part: context.slice(start, end), rest: head + context.slice(end) };
}

const WHERE: Readonly<Record<DeclaredMarker['where'], string>> = { first: 'first', last: 'last', after_pinned: 'right after the pinned blocks' };

/**
 * The context without the marker, and what the marker says was wrong; `dropped` are the request's
 * blocks not included, `head` the rendered pinned blocks the context starts with (for `after_pinned`).
 */
export function takeOutMarker(context: string, marker: DeclaredMarker, separator: string, dropped: readonly string[], out: Finding[], head = ''): string {
  const re = pattern(marker.text);
  const found = markerPart(context, marker.where, separator, head);
  const m = found ? re.exec(found.part) : null;
  if (!m || !found) {
    if (dropped.length > 0)
      out.push({
        id: 'ANY-11',
        message: `${dropped.length} block${dropped.length === 1 ? ' is' : 's are'} left out and the declared omission marker is not ${WHERE[marker.where]} in the context`,
        expected: marker.text,
      });
    return context;
  }
  const rest = found.rest;
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
