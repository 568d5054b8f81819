/**
 * What the principles read and what they say (SPEC section 18): a request's
 * blocks as every check reads them, a broken principle, and how a message
 * quotes what it names. What every check module of the principles shares,
 * below all of them.
 */
import type { RenderBlock } from '../../protocol/render-template.js';

/** A broken principle: its requirement id and what the answer did. */
export interface Finding {
  id: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** The kinds of breach the answer is read as (a false reason's, a fill's other reading), for the likely cause to count; each a key of its words. */
  kinds?: string[];
}

export interface PrincipleBlock extends RenderBlock {
  block_id: string;
  source: string;
  content: string;
  created_at?: number;
  ttl_seconds?: number;
  pinned?: boolean;
  /** Read for the lifecycle filters, which apply to pinned blocks too (PIN-5). */
  status?: string;
}

export interface PrincipleRequest {
  now: number;
  budget: number;
  blocks: PrincipleBlock[];
  /** Read for `exclude`, which applies to pinned blocks too (PIN-5). */
  constraints?: { exclude?: readonly string[]; include_superseded?: boolean; include_disputed?: boolean };
}

/** A value in a finding's message, as JSON writes it. */
export const quote = (s: string): string => JSON.stringify(s);

/** The first five ids, quoted, and how many more. */
export const quotedList = (ids: readonly string[]): string => ids.slice(0, 5).map(quote).join(', ') + (ids.length > 5 ? `, … and ${ids.length - 5} more` : '');
