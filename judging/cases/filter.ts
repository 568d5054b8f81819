/**
 * `--filter`: which cases a run (or `list`) takes. A filter is a comma-separated
 * list of terms; a term is one or more atoms joined by `+` (all must hold), and
 * an atom is a case-id glob or a selector, `!` before it negating it:
 *
 *   expiry/*            case ids: `*` within a path segment, `**` across, `?` one character
 *   tag:NAME            cases tagged NAME (`tag:` globs too: `tag:rank*`)
 *   req:ID              cases citing the requirement ID; `req:CON-` (ending in `-`)
 *                       or `req:TIER-*` any of a section's ids
 *   area:NAME           the first segment of the id (`area:property` is the properties)
 *
 * A case is taken when some term without a negation-only body holds (or when
 * every term is an exclusion) and no exclusion term (one made only of `!`
 * atoms) holds: `area:tiers,!tag:rounding` is every tiers case but the
 * rounding ones; `req:EXP-+tag:boundary` the expiry boundaries.
 */
import { specRequirements } from '../../vocabulary/spec.js';

/** What a filter looks at. Properties and contract clauses have no tags. */
export interface Selectable {
  id: string;
  requirements?: readonly string[];
  tags?: readonly string[];
}

export type SelectorKind = 'id' | 'tag' | 'req' | 'area';

export interface Atom {
  kind: SelectorKind;
  /** As written after the selector, e.g. `CON-` or `expiry/*`. */
  value: string;
  negated: boolean;
  test: (value: string) => boolean;
}

export interface Filter {
  source: string;
  /** Each term: atoms that must all hold. */
  terms: Atom[][];
}

/** A filter that cannot be read; the message says which term and why. */
export class FilterError extends Error {}

const SELECTORS: readonly SelectorKind[] = ['tag', 'req', 'area'];

function atom(text: string): Atom {
  let s = text.trim();
  let negated = false;
  while (s.startsWith('!')) {
    negated = !negated;
    s = s.slice(1).trim();
  }
  if (s === '') throw new FilterError(`"${text}": nothing after "!"`);
  const colon = s.indexOf(':');
  if (colon < 0) return { kind: 'id', value: s, negated, test: globTest(s) };
  const kind = s.slice(0, colon) as SelectorKind;
  const value = s.slice(colon + 1).trim();
  if (!SELECTORS.includes(kind)) throw new FilterError(`"${text}": unknown selector "${s.slice(0, colon)}:" (use tag:, req:, area: or a case-id glob)`);
  if (value === '') throw new FilterError(`"${text}": ${kind}: needs a name`);
  // A requirement section prefix (`CON-`) takes every id of the section.
  const test = kind === 'req' && value.endsWith('-') ? (v: string) => v.startsWith(value) : globTest(value);
  return { kind, value, negated, test };
}

/** Read a filter expression; empty (or only commas) selects everything. */
export function parseFilter(source: string): Filter {
  const terms = source
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0)
    .map((t) => t.split('+').map(atom));
  return { source, terms };
}

function holds(a: Atom, item: Selectable): boolean {
  let hit: boolean;
  switch (a.kind) {
    case 'id':
      hit = a.test(item.id);
      break;
    case 'area':
      hit = a.test(areaOfId(item.id));
      break;
    case 'tag':
      hit = (item.tags ?? []).some(a.test);
      break;
    case 'req':
      hit = (item.requirements ?? []).some(a.test);
      break;
  }
  return hit !== a.negated;
}

/** Whether the filter takes the item (a bare string is an item with only an id). */
export function selects(filter: Filter, item: Selectable | string): boolean {
  const it = typeof item === 'string' ? { id: item } : item;
  const exclusions = filter.terms.filter((t) => t.every((a) => a.negated));
  const inclusions = filter.terms.filter((t) => !t.every((a) => a.negated));
  // An exclusion term excludes the items for which its atoms, read without their `!`, all hold.
  if (exclusions.some((t) => t.every((a) => !holds(a, it)))) return false;
  return inclusions.length === 0 || inclusions.some((t) => t.every((a) => holds(a, it)));
}

/** The selector of an expression; undefined or blank selects everything. Throws FilterError. */
export function caseSelector(source: string | undefined): (item: Selectable | string) => boolean {
  if (source === undefined || source.trim() === '') return () => true;
  const filter = parseFilter(source);
  return (item) => selects(filter, item);
}

/** The area of a case id: its first path segment (`expiry/boundary` -> `expiry`). */
export function areaOfId(id: string): string {
  const i = id.indexOf('/');
  return i < 0 ? id : id.slice(0, i);
}

/**
 * Names in the filter that nothing could match: a tag no case carries, a
 * requirement SPEC.md does not define, an area with no case. A typo would
 * otherwise select nothing, or exclude nothing, and pass in silence.
 */
export function filterProblems(
  filter: Filter,
  known: { tags: Iterable<string>; requirements: Iterable<string>; areas: Iterable<string>; ids: Iterable<string> },
): string[] {
  const pools: Record<Exclude<SelectorKind, 'id'>, string[]> = { tag: [...known.tags], req: [...known.requirements], area: [...known.areas] };
  const ids = [...known.ids];
  const out: string[] = [];
  for (const a of filter.terms.flat()) {
    if (a.kind === 'id') {
      // `tirs/*` for `tiers/*`: a glob that matches no id selects (or excludes) nothing.
      if (ids.some(a.test)) continue;
      const meant = selectorsNamed(a.value, pools);
      out.push(
        meant.length > 0
          ? `"${a.value}": no case, property or contract clause has that id; did you mean ${meant.map((m) => `${a.negated ? '!' : ''}${m}`).join(' or ')}?`
          : `"${a.value}": no case, property or contract clause has an id it matches (areas: ${[...new Set(pools.area)].sort().join(', ')})`,
      );
      continue;
    }
    const pool = pools[a.kind];
    if (pool.some(a.test)) continue;
    const what = a.kind === 'tag' ? 'no case has the tag' : a.kind === 'req' ? 'SPEC.md defines no requirement' : 'no case is in the area';
    const some = [...new Set(pool)].sort().slice(0, 40);
    out.push(`${a.kind}:${a.value}: ${what} ${JSON.stringify(a.value)} (known: ${some.join(', ')}${pool.length > 40 ? ', ...' : ''})`);
  }
  return out;
}

/** The selectors a bare word may have meant: `expiry` for `area:expiry`, `boundary` for `tag:boundary`, `TIER-4` or `CON-` for `req:`. */
function selectorsNamed(word: string, pools: Record<Exclude<SelectorKind, 'id'>, string[]>): string[] {
  const out: string[] = [];
  if (pools.area.includes(word)) out.push(`area:${word}`);
  if (pools.tag.includes(word)) out.push(`tag:${word}`);
  if (pools.req.includes(word) || (word.endsWith('-') && pools.req.some((r) => r.startsWith(word)))) out.push(`req:${word}`);
  return out;
}

/**
 * Read `expr` and check its names against the cases at hand and SPEC.md;
 * throws FilterError naming the term. Properties and contract clauses are the
 * areas `property` and `contract`; `otherIds` are their ids, for the id globs.
 */
export function checkedFilter(expr: string, cases: readonly { id: string; tags: readonly string[] }[], otherIds: readonly string[] = []): Filter {
  const filter = parseFilter(expr);
  const problems = filterProblems(filter, {
    tags: cases.flatMap((c) => c.tags),
    requirements: specRequirements().map((r) => r.id),
    areas: [...cases.map((c) => areaOfId(c.id)), 'property', 'contract'],
    ids: [...cases.map((c) => c.id), ...otherIds],
  });
  if (problems.length > 0) throw new FilterError(problems.join('; '));
  return filter;
}

/**
 * Case-id globs alone, comma-separated: `*` matches within one path segment,
 * `**` across segments, `?` one character.
 */
export function globMatcher(globs: string): (id: string) => boolean {
  const tests = globs
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g.length > 0)
    .map(globTest);
  return (id) => tests.some((t) => t(id));
}

function globTest(glob: string): (s: string) => boolean {
  const re = globToRegExp(glob);
  return (s) => re.test(s);
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
