/**
 * The omission markers of SPEC 8.5, as the judge and the properties expect
 * them, written from the spec (not from the reference): which omissions leave
 * a marker (MRK-1), its bytes (MRK-2) and where it stands (MRK-3). An
 * implementation that declares omission_markers meets cases written without
 * them: its context must hold exactly the markers its own omissions call for,
 * and once they are taken out the case is judged as written.
 */
import { compareCodePoints, HEADER_SEPARATOR, SEGMENT_JOINER } from '../reference/index.js';
import type { Result } from '../protocol/assembly.js';
import { reasonClass } from '../vocabulary/reason-classes.js';
import type { Mismatch } from './matchers.js';

/** MRK-2: the line after the block's header, by reason class. */
export const MARKER_LINES: Readonly<Record<string, string>> = { budget: '[OMITTED: over token budget]', max_segments: '[OMITTED: over segment limit]' };

export interface BlockLike {
  block_id?: unknown;
  source?: unknown;
  content?: unknown;
  priority?: unknown;
  pinned?: unknown;
}

/** What an answer's context must be with markers, and what it is once they are taken out. */
export interface MarkedContext {
  withMarkers: string;
  withoutMarkers: string;
  markers: number;
}

type Item = { b: BlockLike & { block_id: string; source: string; priority: number }; line?: string };

const SEPARATOR = SEGMENT_JOINER;
const body = (x: Item): string => x.line ?? (x.b.content as string);

/** REN-2: the line a tiered block's content follows, `[source · block_id]`. */
export function blockHeader(source: string, blockId: string): string {
  return '[' + source + HEADER_SEPARATOR + blockId + ']\n';
}

const render = (x: Item): string => blockHeader(x.b.source, x.b.block_id) + body(x);

/** Each context rendered when it is read: the properties compare only the one with markers. */
class Marked implements MarkedContext {
  private written: string | undefined;
  constructor(
    private readonly shown: readonly Item[],
    readonly markers: number,
  ) {}

  get withMarkers(): string {
    this.written ??= this.shown.map(render).join(SEPARATOR);
    return this.written;
  }

  get withoutMarkers(): string {
    return this.shown
      .filter((x) => x.line === undefined)
      .map(render)
      .join(SEPARATOR);
  }
}

/** REN-1: (source, -priority, block_id), by code points. */
function inRenderOrder(x: Item, y: Item): number {
  return (
    compareCodePoints(x.b.source, y.b.source) ||
    (x.b.priority !== y.b.priority ? (x.b.priority > y.b.priority ? -1 : 1) : 0) ||
    compareCodePoints(x.b.block_id, y.b.block_id)
  );
}

/** Sorted by REN-1, ties kept in order: an insertion sort, since an answer's context holds a handful of blocks far more often than thousands. */
function sortForRender(items: Item[]): void {
  if (items.length > 64) {
    items.sort(inRenderOrder);
    return;
  }
  for (let i = 1; i < items.length; i++) {
    const x = items[i]!;
    let j = i - 1;
    while (j >= 0 && inRenderOrder(items[j]!, x) > 0) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = x;
  }
}

/** PIN-4: pinned blocks render in input order, whatever order `included` gives them in. */
function inInputOrder(pinned: Item[], request: unknown): void {
  const position = new Map<unknown, number>();
  (request as { blocks: unknown[] }).blocks.forEach((b, i) => {
    position.set(b, i);
  });
  pinned.sort((x, y) => position.get(x.b)! - position.get(y.b)!);
}

/** The blocks of a request by id, the last of a repeated id winning. */
function blocksById(request: unknown): ((id: string) => BlockLike | undefined) | undefined {
  const blocks = (request as { blocks?: unknown } | null)?.blocks;
  if (!Array.isArray(blocks)) return undefined;
  const byId = new Map<string, BlockLike>();
  for (const b of blocks as BlockLike[]) if (typeof b?.block_id === 'string') byId.set(b.block_id, b);
  return (id) => byId.get(id);
}

/**
 * The context an answer implies under MRK-1..3: its pinned included blocks
 * first, in input order (PIN-4: the spec's render order, whatever order
 * `included` gives them in), then its other included
 * blocks and a marker for each omission of class budget or max_segments,
 * together in (source, -priority, block_id) order (REN-1). Undefined when the
 * answer names a block the request does not have (RES-2 reports that).
 * `blockOf`: the request's block of an id, when the caller can look it up already.
 */
export function markedContext(
  request: unknown,
  included: readonly string[],
  omissions: readonly { block_id: string; reason: string }[],
  blockOf: ((id: string) => BlockLike | undefined) | undefined = blocksById(request),
): MarkedContext | undefined {
  if (blockOf === undefined) return undefined;
  const pinned: Item[] = [];
  const rest: Item[] = [];
  for (const id of included) {
    const b = blockOf(id);
    if (!b || typeof b.source !== 'string' || typeof b.priority !== 'number' || typeof b.content !== 'string') return undefined;
    (b.pinned === true ? pinned : rest).push({ b: b as Item['b'] });
  }
  let markers = 0;
  for (const o of omissions) {
    const line = MARKER_LINES[reasonClass(o.reason) ?? ''];
    if (line === undefined) continue;
    const b = blockOf(o.block_id);
    if (!b || typeof b.source !== 'string' || typeof b.priority !== 'number') return undefined;
    rest.push({ b: b as Item['b'], line });
    markers++;
  }
  if (pinned.length > 1) inInputOrder(pinned, request);
  sortForRender(rest);
  return new Marked(pinned.concat(rest), markers);
}

/**
 * The judge's check of an answer's markers: a mismatch when its context is
 * not the one its own included blocks and omissions imply, else the context
 * with the markers taken out for the matchers. An answer that names a block
 * the request does not have is left to RES-2, its context as it came.
 */
export function takeOutMarkers(request: unknown, r: Result): { mismatches: Mismatch[]; context: string } {
  const m = markedContext(request, r.included, r.omissions);
  if (!m) return { mismatches: [], context: r.context };
  if (m.withMarkers === r.context) return { mismatches: [], context: m.withoutMarkers };
  const note = 'the included blocks with a marker for each budget or max_segments omission, in render order: MRK-1..3';
  return { mismatches: [{ member: 'context', expected: m.withMarkers, actual: r.context, note }], context: r.context };
}
