/**
 * The render grammar of a declared design (SPEC DES-2): a header or footer is
 * text with the block's own fields in braces (`{block_id}`, `{priority:.2f}`,
 * `{lines}`, a declared member), or a choice of one by a member's value.
 * Compiled once per design; a template that cannot mean anything is refused
 * with the member path, before any request is sent.
 */
import type { DeclaredDesign, DeclaredTemplate, NotJudged } from './types.js';

/** The block a template reads: section 2's members and whatever declared members (DES-5) it carries. */
export interface RenderBlock {
  readonly block_id: string;
  readonly source: string;
  readonly content: string;
  readonly [member: string]: unknown;
}

export type Render = (block: RenderBlock, index: number) => string;

/** Fields every template may read besides the declared members. */
export const BLOCK_FIELDS = ['source', 'block_id', 'index', 'priority', 'confidence', 'created_at', 'status', 'lines'] as const;

/** Members a choice may be made by besides the declared ones. */
const CHOICE_MEMBERS = ['pinned', 'source', 'status'] as const;

/** Fields that name the block they are written for: a render holding one attributes each content (ANY-10). */
const NAMING_FIELDS = new Set(['block_id', 'index']);

/** Deeper choices than this are refused: a real render chooses by pinned, then by a role. */
const MAX_DEPTH = 4;

interface Field {
  name: string;
  format?: string;
}

type Piece = string | Field;

/** The line count of a content: one more than its line feeds ("" is 1 line, "a\n" is 2). */
export const lineCount = (content: string): number => {
  let n = 1;
  for (let i = content.indexOf('\n'); i >= 0; i = content.indexOf('\n', i + 1)) n++;
  return n;
};

function fieldValue(name: string, block: RenderBlock, index: number): unknown {
  if (name === 'index') return index;
  if (name === 'lines') return lineCount(block.content);
  return block[name];
}

function formatted(value: unknown, format: string | undefined): string {
  if (value === undefined || value === null) return '';
  if (format === undefined) return String(value);
  if (format === 'upper') return String(value).toUpperCase();
  if (format === 'lower') return String(value).toLowerCase();
  // A fixed-decimals format: the only other one parse() lets through.
  const digits = Number(format.slice(1, -1));
  return typeof value === 'number' ? value.toFixed(digits) : String(value);
}

const FORMAT = /^(?:upper|lower|\.(?:[0-9]|10)f)$/;

/** The pieces of a template string, or what is wrong with it; `fields` are the names it may read. */
function parse(template: string, fields: ReadonlySet<string>): Piece[] | string {
  const out: Piece[] = [];
  let text = '';
  const brace = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)(?::([^{}]*))?\}/g;
  let last = 0;
  for (let m = brace.exec(template); m; m = brace.exec(template)) {
    text += template.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === '{{' || m[0] === '}}') {
      text += m[0][0];
      continue;
    }
    const name = m[1]!;
    const format = m[2];
    if (!fields.has(name))
      return `{${name}} names no field of a block: the fields are ${[...fields].map((f) => `{${f}}`).join(', ')} (a member of your own is declared in design.members, DES-5); write {{ for a brace`;
    if (format !== undefined && !FORMAT.test(format))
      return `{${m[0].slice(1, -1)}} has the format ${JSON.stringify(format)}: the formats are .Nf (N decimals, 0 to 10), upper and lower`;
    if (text) out.push(text);
    text = '';
    out.push(format === undefined ? { name } : { name, format });
  }
  text += template.slice(last);
  if (text) out.push(text);
  return out;
}

function fromPieces(pieces: Piece[]): Render {
  if (pieces.length === 0) return () => '';
  if (pieces.length === 1 && typeof pieces[0] === 'string') {
    const fixed = pieces[0];
    return () => fixed;
  }
  return (block, index) => {
    let s = '';
    for (const p of pieces) s += typeof p === 'string' ? p : formatted(fieldValue(p.name, block, index), p.format);
    return s;
  };
}

/** The text a choice is keyed by: `pinned` reads "true" or "false" (absent is "false"); an absent member chooses the default. */
function choiceKey(by: string, block: RenderBlock): string | undefined {
  if (by === 'pinned') return String(block.pinned === true);
  const v = block[by];
  return v === undefined || v === null ? undefined : String(v);
}

export interface CompiledTemplate {
  render: Render;
  /** Whether every template the choices can reach writes a field that names the block (ANY-10). */
  namesBlock: boolean;
  /** Whether the template this block takes names it: provenance is judged block by block (ANY-10). */
  names: (block: RenderBlock) => boolean;
  /** The member paths of the templates the choices can reach that name no block (`design.render.header.cases.true`). */
  silent: string[];
}

/**
 * A header or footer compiled under the declared members, or the problems with it, each
 * naming its member path (`design.render.header.cases.true`).
 */
export function compileTemplate(t: DeclaredTemplate, members: readonly string[], path: string): CompiledTemplate | string[] {
  const fields = new Set<string>([...BLOCK_FIELDS, ...members]);
  const choosers = new Set<string>([...CHOICE_MEMBERS, ...members]);
  const problems: string[] = [];
  const walk = (node: DeclaredTemplate, at: string, depth: number): CompiledTemplate | undefined => {
    if (typeof node === 'string') {
      const pieces = parse(node, fields);
      if (typeof pieces === 'string') {
        problems.push(`${at}: ${pieces}`);
        return undefined;
      }
      const named = pieces.some((p) => typeof p !== 'string' && NAMING_FIELDS.has(p.name));
      return { render: fromPieces(pieces), namesBlock: named, names: () => named, silent: named ? [] : [at] };
    }
    if (depth >= MAX_DEPTH) {
      problems.push(`${at}: choices nest ${MAX_DEPTH} deep at most`);
      return undefined;
    }
    if (!choosers.has(node.by)) {
      problems.push(
        `${at}.by: a choice is made by ${[...choosers].join(', ')}, not ${JSON.stringify(node.by)} (a member of your own is declared in design.members, DES-5)`,
      );
    }
    const cases = new Map<string, CompiledTemplate>();
    for (const [key, sub] of Object.entries(node.cases)) {
      const c = walk(sub, `${at}.cases.${key}`, depth + 1);
      if (c) cases.set(key, c);
    }
    const otherwise = walk(node.default ?? '', `${at}.default`, depth + 1);
    if (!otherwise) return undefined;
    const by = node.by;
    const chosen = (block: RenderBlock): CompiledTemplate => cases.get(choiceKey(by, block) ?? '\u0000') ?? otherwise;
    return {
      render: (block, index) => chosen(block).render(block, index),
      namesBlock: otherwise.namesBlock && [...cases.values()].every((c) => c.namesBlock),
      names: (block) => chosen(block).names(block),
      silent: [...[...cases.values()].flatMap((c) => c.silent), ...otherwise.silent],
    };
  };
  const compiled = walk(t, path, 0);
  return problems.length > 0 || !compiled ? problems : compiled;
}

/** Why provenance is not judged for a render none of whose headers and footers names a block. */
export const NAMES_NO_BLOCK = 'the declared render names no block: no {block_id} or {index} in its header or footer';

/**
 * How far a declared render lets provenance be judged (ANY-10), block by block: `all` when the
 * header or the footer names every block whatever choice it takes, `none` when no template it
 * can take names one, else `some`, with the member paths of the templates that name none.
 */
export function provenanceScope(design: DeclaredDesign | undefined): { scope: 'all' | 'some' | 'none'; silent: string[] } {
  const r = design?.render;
  // No header declared: REN-2's, which names the block.
  if (r?.header === undefined) return { scope: 'all', silent: [] };
  const members = Object.keys(design?.members ?? {});
  const header = compileTemplate(r.header, members, 'design.render.header');
  const footer = compileTemplate(r.footer ?? '', members, 'design.render.footer');
  // A design that does not compile is refused before a run: it has nothing to say here.
  if (Array.isArray(header) || Array.isArray(footer) || header.namesBlock || footer.namesBlock) return { scope: 'all', silent: [] };
  const namesSome = (c: CompiledTemplate, t: DeclaredTemplate): boolean => c.silent.length < templatesOf(t);
  const parts = [
    { c: header, t: r.header },
    { c: footer, t: r.footer ?? '' },
  ].filter((p) => namesSome(p.c, p.t));
  if (parts.length === 0) return { scope: 'none', silent: [] };
  // A block is named by its header or its footer: the templates that leave it unnamed are the silent ones of the parts that name some.
  return { scope: 'some', silent: parts.flatMap((p) => p.c.silent) };
}

/** How many templates a header or footer can take: one, or those of its choice's cases and default. */
function templatesOf(t: DeclaredTemplate): number {
  if (typeof t === 'string') return 1;
  return Object.values(t.cases).reduce((n, c) => n + templatesOf(c), 0) + templatesOf(t.default ?? '');
}

/**
 * The principles a declared design leaves unjudged: provenance (ANY-10) when its render names
 * no block, whatever choice it takes. A render that names some blocks is judged for those: its
 * results are held to ANY-10, and `partly` says for which blocks it is not.
 */
export function principlesNotJudged(design: DeclaredDesign | undefined): NotJudged[] {
  const { scope, silent } = provenanceScope(design);
  if (scope === 'all') return [];
  if (scope === 'none') return [{ principle: 'ANY-10', name: 'provenance', reason: NAMES_NO_BLOCK }];
  return [
    {
      principle: 'ANY-10',
      name: 'provenance',
      reason: `judged for the blocks whose header or footer names them; not for the blocks that take ${silent.join(', ')}, which write no {block_id} or {index}`,
      partly: true,
    },
  ];
}
