/**
 * A context read against its declared render (SPEC ANY-1, ANY-10, ANY-11):
 * where each included block is, in `included`'s order, and what of it is
 * there. The reading walks the context from the start, expecting each
 * block's header, content and footer after the separator, and only where
 * that expectation fails looks for the block inside its own stretch of the
 * context, between the blocks around it. So a content that repeats another's,
 * a content that is a prefix of another's, or a forged header inside a
 * content is never mistaken for another block's text.
 */
import { commonPrefixLength } from '../../vocabulary/first-difference.js';

/** Shorter than this, a piece of content found in the context may be there by chance. */
export const MIN_CUT = 8;

/** One included block as the render writes it. */
export interface Expected {
  header: string;
  content: string;
  footer: string;
}

/** What of a block the context holds. */
export type Placement =
  /** Header, content and footer, as declared. */
  | { kind: 'whole' }
  /** The content whole, but not under its declared header: `written` is the text in the header's place. */
  | { kind: 'misheaded'; written: string }
  /** Whole and as declared, but out of `included`'s order. */
  | { kind: 'misplaced' }
  /** The content is not there whole: its first `first` and last `last` characters are, `between` what stands for the rest. */
  | { kind: 'cut'; first: number; last: number; between: string }
  | { kind: 'absent' };

export interface Reading {
  placements: Placement[];
  /** The stretches of the context no block and no separator explains, in order. */
  unexplained: string[];
}

const commonSuffixLength = (a: string, b: string): number => {
  let i = 0;
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
};

/** The length of the longest prefix (or suffix) of `s` found in `text`: one found means every shorter one is. */
export function longestPrefixIn(s: string, text: string, end: 'prefix' | 'suffix' = 'prefix'): number {
  const piece = (n: number): string => (end === 'prefix' ? s.slice(0, n) : s.slice(s.length - n));
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (text.includes(piece(mid))) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Where the next block that can be found starts, at or after `from`: its whole piece after
 * the separator or alone, else its header, else its content; the end of the context when no
 * later block can be found.
 */
function nextStart(context: string, blocks: readonly Expected[], i: number, separator: string, from: number): number {
  for (let j = i + 1; j < blocks.length; j++) {
    const next = blocks[j]!;
    const piece = next.header + next.content + next.footer;
    const tries = [separator + piece, piece, next.header && separator + next.header, next.header, next.content && separator + next.content];
    for (const t of tries) {
      if (!t) continue;
      const at = context.indexOf(t, from);
      if (at >= 0) return at;
    }
  }
  return context.length;
}

/** What stretch `text` (the block's own) shows of `b`, its declared header and footer not found whole. */
function placeIn(text: string, b: Expected): Placement {
  const c = b.content;
  // An empty content cannot be cut: what stands there is in its header's place.
  if (c === '') return { kind: 'misheaded', written: text };
  const contentAt = text.indexOf(c);
  if (contentAt >= 0) return { kind: 'misheaded', written: text.slice(0, contentAt) };
  const underHeader = b.header === '' ? -1 : text.indexOf(b.header);
  if (underHeader >= 0) {
    let shown = text.slice(underHeader + b.header.length);
    if (b.footer && shown.endsWith(b.footer)) shown = shown.slice(0, -b.footer.length);
    return cutOf(shown, c);
  }
  // No header to stand on: only what is long enough not to be chance is the block's.
  const first = longestPrefixIn(c, text);
  if (first >= MIN_CUT || (first > 0 && first === c.length)) {
    const from = text.indexOf(c.slice(0, first));
    return cutOf(text.slice(from), c);
  }
  const last = longestPrefixIn(c, text, 'suffix');
  if (last >= MIN_CUT) {
    const end = text.indexOf(c.slice(c.length - last)) + last;
    return cutOf(text.slice(0, end), c);
  }
  return { kind: 'absent' };
}

/**
 * `shown` (what stands where the content belongs) against the whole content `c`: the first
 * and last characters kept and what stands between. A kept end counts when it is long
 * enough not to be chance, or when it is all that is shown.
 */
/**
 * The ends that count as kept: an end long enough not to be chance, or one that is all that
 * is shown (a content cut to 5 characters shows 5); shorter ends are text that happens to
 * share a character or two with the content.
 */
function counted([first, last]: readonly [number, number], shown: number): [number, number] {
  const all = first + last === shown;
  return [first >= MIN_CUT || (all && last === 0) ? first : 0, last >= MIN_CUT || (all && first === 0) ? last : 0];
}

function cutOf(shown: string, c: string): Placement {
  if (shown === '') return { kind: 'absent' };
  // Read from the head and from the tail; the reading that keeps more is what was kept (a kept tail shares a few characters with the head by chance).
  const headFirst = commonPrefixLength(shown, c);
  const fromHead = [headFirst, commonSuffixLength(shown.slice(headFirst), c.slice(headFirst))] as const;
  const tailFirst = commonSuffixLength(shown, c);
  const fromTail = [commonPrefixLength(shown.slice(0, shown.length - tailFirst), c.slice(0, c.length - tailFirst)), tailFirst] as const;
  const [h, t] = [counted(fromHead, shown.length), counted(fromTail, shown.length)];
  const kept = (e: readonly [number, number]): number => e[0] + e[1];
  const [first, last] = kept(t) > kept(h) || (kept(t) === kept(h) && t[0] === 0) ? t : h;
  return { kind: 'cut', first, last, between: shown.slice(first, shown.length - last) };
}

/** Takes the first `what` out of the stretches (leaving a mark), with the text before it in its stretch. */
function take(stretches: string[], what: string): { what: string; before: string } | undefined {
  for (let k = 0; k < stretches.length; k++) {
    const s = stretches[k]!;
    const where = s.indexOf(what);
    if (where < 0) continue;
    stretches[k] = s.slice(0, where) + '\u0000' + s.slice(where + what.length);
    return { what, before: s.slice(0, where) };
  }
  return undefined;
}

/** What follows the last separator in `text`: the text that stands where a header belongs. */
const lastPart = (text: string, separator: string): string => {
  const at = separator ? text.lastIndexOf(separator) : -1;
  return at >= 0 ? text.slice(at + separator.length) : text;
};

/** The context read block by block; `blocks` are the included ones in `included`'s order. */
export function readContext(context: string, blocks: readonly Expected[], separator: string): Reading {
  const placements: Placement[] = [];
  const unexplained: string[] = [];
  let at = 0;
  blocks.forEach((b, i) => {
    const piece = b.header + b.content + b.footer;
    if (i > 0 && separator && context.startsWith(separator, at)) at += separator.length;
    if (context.startsWith(piece, at)) {
      placements.push({ kind: 'whole' });
      at += piece.length;
      return;
    }
    const end = Math.max(at, nextStart(context, blocks, i, separator, at));
    const own = context.slice(at, end);
    const whole = own.indexOf(piece);
    if (whole >= 0) {
      placements.push({ kind: 'whole' });
      unexplained.push(own.slice(0, whole), own.slice(whole + piece.length));
    } else {
      const p = placeIn(own, b);
      // Under its own header with another footer: whole, and the footer's place is text the render does not write.
      placements.push(p.kind === 'misheaded' && p.written === b.header ? { kind: 'whole' } : p);
      // What the block shows of itself is its own; the rest of its stretch is not explained by it.
      if (p.kind === 'misheaded') unexplained.push(own.slice(own.indexOf(b.content) + b.content.length));
      else if (p.kind === 'absent') unexplained.push(own);
    }
    at = end;
  });
  unexplained.push(context.slice(at));
  // A block found nowhere in its stretch may stand elsewhere, whole: out of order, or under another header; not cut.
  placements.forEach((p, i) => {
    if (p.kind !== 'absent') return;
    const b = blocks[i]!;
    if (take(unexplained, b.header + b.content + b.footer)) {
      placements[i] = { kind: 'misplaced' };
      return;
    }
    if (b.content === '') {
      placements[i] = { kind: 'misheaded', written: '' };
      return;
    }
    const content = take(unexplained, b.content);
    if (!content) return;
    const written = lastPart(content.before, separator);
    placements[i] = written === b.header ? { kind: 'misplaced' } : { kind: 'misheaded', written };
  });
  return { placements, unexplained: unexplained.filter((s) => s !== '') };
}
