/**
 * Defects with a value the kit cannot know in advance: a source moved to
 * another tier, the text of a preamble, a member the spec does not define.
 * Each family reads candidate values off the failing answers (what the
 * implementation gave against what the model without defects gives), and
 * each value is then an exact model like any entry of the catalogue: it
 * explains only the answers it reproduces, with the same value throughout
 * the run.
 */
import { HEADER_SEPARATOR, SEGMENT_JOINER, TIERS } from '../reference/index.js';
import type { Outcome } from '../protocol/types.js';
import type { Feature, Section } from './defect-registry.js';
import { isObject } from './json-object.js';
import { depthOf, stringifyJson } from '../protocol/deep-json.js';
import { tierUnder } from './model.js';
import type { Answer, Defects, ModelConfig } from './model.js';

/** One failing answer, beside the model's answer without defects. */
export interface Evidence {
  request: unknown;
  config: ModelConfig;
  outcome: Outcome;
  base: Answer;
}

export interface Instance {
  summary: string;
  defects: Defects;
  /** Only these requests can show it (the others are answered as without it). */
  shows?: (request: unknown) => boolean;
}

export interface Family {
  id: string;
  section: Section;
  requirements: readonly string[];
  /** As CatalogueEntry.when: the features of which a request needs one to show any instance. */
  when: readonly Feature[];
  instances(evidence: readonly Evidence[]): Instance[];
}

/** The results among the evidence: what the implementation answered and what the model without defects answers. */
function results(evidence: readonly Evidence[]): { given: Record<string, unknown>; base: Answer; e: Evidence }[] {
  const out = [];
  for (const e of evidence)
    if (e.outcome.kind === 'result' && isObject(e.outcome.value) && e.base.error === undefined) out.push({ given: e.outcome.value, base: e.base, e });
  return out;
}

/** Deeper than this, a value is no instance a model is tried with: each try would write it again (a member nested 300,000 deep). */
const INSTANCE_DEPTH = 64;

/** Distinct values by their JSON, at most `max` (the first failures name them). */
function distinct<T>(values: Iterable<T | undefined>, max = 3): T[] {
  const seen = new Map<string, T>();
  for (const v of values) {
    if (v === undefined || depthOf(v, INSTANCE_DEPTH + 1) > INSTANCE_DEPTH) continue;
    // At any depth: an answer may hold a member nested deeper than JSON.stringify goes.
    const k = stringifyJson(v) ?? '';
    if (!seen.has(k)) seen.set(k, v);
    if (seen.size >= max) break;
  }
  return [...seen.values()];
}

function sourcesOf(request: unknown): string[] {
  const blocks = isObject(request) ? request.blocks : undefined;
  if (!Array.isArray(blocks)) return [];
  return blocks.flatMap((b) => (isObject(b) && typeof b.source === 'string' ? [b.source] : []));
}

/**
 * The sources of a request as a set, kept by request object: an instance's
 * `shows` asks it of every observation of the run, and a run can have many
 * instances (three tiers for each source of each failing request).
 */
const sourceSets = new WeakMap<object, ReadonlySet<string>>();

function hasSource(request: unknown, source: string): boolean {
  if (!isObject(request)) return false;
  let set = sourceSets.get(request);
  if (set === undefined) {
    set = new Set(sourcesOf(request));
    sourceSets.set(request, set);
  }
  return set.has(source);
}

const quote = (s: string): string => JSON.stringify(s);

export const FAMILIES: readonly Family[] = [
  {
    id: 'source-in-another-tier',
    section: 'constants',
    requirements: ['TIER-1', 'DECL-1'],
    when: ['tiered'],
    instances(evidence) {
      const out: Instance[] = [];
      const seen = new Set<string>();
      for (const e of evidence) {
        if (isObject(e.request) && e.request.profile === 'ranked') continue;
        for (const source of sourcesOf(e.request)) {
          const now = tierUnder(source, e.config.constants);
          for (const tier of TIERS) {
            const key = JSON.stringify([source, tier]);
            if (tier === now || seen.has(key)) continue;
            seen.add(key);
            const declared = e.config.constants?.source_to_tier && Object.hasOwn(e.config.constants.source_to_tier, source);
            out.push({
              summary:
                `the source ${quote(source)} is in the ${tier} tier, not declared; ` +
                `${declared ? 'the declared map puts' : 'TIER-1 puts'} it in ${now}, and another tier must be declared in the manifest (section 17)`,
              defects: { sourceToTier: { [source]: tier } },
              shows: (request) => hasSource(request, source),
            });
          }
        }
      }
      return out;
    },
  },
  {
    id: 'preamble',
    section: 'rendering',
    requirements: ['REN-3'],
    when: ['tiered'],
    instances: (evidence) =>
      distinct(
        results(evidence).map(({ given, base }) => {
          const c = base.context as string;
          const g = given.context;
          return typeof g === 'string' && c !== '' && g.length > c.length && g.endsWith(c) ? g.slice(0, g.length - c.length) : undefined;
        }),
      ).map((text) => ({ summary: `the context starts with text of its own, ${quote(text)}; REN-3 allows no preamble`, defects: { preamble: text } })),
  },
  {
    id: 'empty-context-placeholder',
    section: 'rendering',
    requirements: ['REN-3'],
    when: ['tiered'],
    instances: (evidence) =>
      distinct(
        results(evidence).map(({ given, base }) =>
          base.context === '' && typeof given.context === 'string' && given.context !== '' ? given.context : undefined,
        ),
      ).map((text) => ({
        summary: `an empty context is given as ${quote(text)}; REN-3 makes it ""`,
        defects: { emptyPlaceholder: text },
      })),
  },
  {
    id: 'context-suffix',
    section: 'rendering',
    requirements: ['REN-3'],
    when: ['tiered'],
    instances: (evidence) =>
      distinct(
        results(evidence).map(({ given, base }) => {
          const c = base.context as string;
          const g = given.context;
          return typeof g === 'string' && g.length > c.length && g.startsWith(c) ? g.slice(c.length) : undefined;
        }),
      ).map((text) => ({
        summary: `the context ends with ${quote(text)}; REN-3 adds nothing after the last block (no trailing newline)`,
        defects: { contextSuffix: text },
      })),
  },
  {
    id: 'header-separator',
    section: 'rendering',
    requirements: ['REN-2'],
    when: ['tiered'],
    instances: (evidence) =>
      distinct(
        results(evidence).map(({ given, base, e }) => {
          const first = (base.included as string[])[0];
          const g = given.context;
          if (first === undefined || typeof g !== 'string') return undefined;
          const block = (isObject(e.request) && Array.isArray(e.request.blocks) ? e.request.blocks : []).find((b) => isObject(b) && b.block_id === first) as
            | Record<string, unknown>
            | undefined;
          if (!block || typeof block.source !== 'string' || !(base.context as string).startsWith('[' + block.source + HEADER_SEPARATOR + first + ']\n'))
            return undefined;
          const open = '[' + block.source;
          const close = g.indexOf(first + ']\n', open.length);
          if (!g.startsWith(open) || close < 0) return undefined;
          const sep = g.slice(open.length, close);
          return sep !== HEADER_SEPARATOR ? sep : undefined;
        }),
      ).map((sep) => ({
        summary: `a block's header separates source and id with ${quote(sep)}; REN-2 writes " · " (U+00B7 MIDDLE DOT between single spaces)`,
        defects: { headerSeparator: sep },
      })),
  },
  {
    id: 'header-source-rewritten',
    section: 'rendering',
    requirements: ['REN-2', 'REN-4'],
    when: ['tiered'],
    instances: (evidence) =>
      distinct(
        results(evidence).flatMap(({ given, base, e }) => {
          const g = given.context;
          const blocks = isObject(e.request) && Array.isArray(e.request.blocks) ? (e.request.blocks as Record<string, unknown>[]) : [];
          if (typeof g !== 'string') return [];
          return (base.included as string[]).map((id) => {
            const b = blocks.find((x) => isObject(x) && x.block_id === id);
            if (!b || typeof b.source !== 'string' || g.includes('[' + b.source + HEADER_SEPARATOR + id + ']\n')) return undefined;
            const at = g.indexOf(HEADER_SEPARATOR + id + ']\n');
            const open = at < 0 ? -1 : g.lastIndexOf('[', at);
            const w = open < 0 ? undefined : g.slice(open + 1, at);
            return w !== undefined && w !== b.source && !w.includes('\n') ? { [b.source]: w } : undefined;
          });
        }),
      ).map((map) => {
        const [[from, to]] = Object.entries(map) as [[string, string]];
        return {
          summary: `the source ${quote(from)} is written ${quote(to)} in its blocks' headers; REN-2 writes the source as the request gives it`,
          defects: { headerSources: map },
          shows: (request) => hasSource(request, from),
        };
      }),
  },
  {
    id: 'block-joiner',
    section: 'rendering',
    requirements: ['REN-3'],
    when: ['tiered'],
    instances: (evidence) =>
      distinct(
        results(evidence).map(({ given, base, e }) => {
          const ids = base.included as string[];
          const g = given.context;
          const blocks = isObject(e.request) && Array.isArray(e.request.blocks) ? (e.request.blocks as Record<string, unknown>[]) : [];
          const piece = (id: string | undefined): string | undefined => {
            const b = blocks.find((x) => isObject(x) && x.block_id === id);
            return b ? '[' + String(b.source) + HEADER_SEPARATOR + String(id) + ']\n' + String(b.content) : undefined;
          };
          const one = piece(ids[0]);
          const two = piece(ids[1]);
          if (one === undefined || two === undefined || typeof g !== 'string' || !(base.context as string).startsWith(one + SEGMENT_JOINER + two))
            return undefined;
          const head = two.slice(0, two.indexOf(']\n') + 2);
          const at = g.indexOf(head, one.length);
          if (!g.startsWith(one) || at < 0) return undefined;
          const joiner = g.slice(one.length, at);
          return joiner !== SEGMENT_JOINER ? joiner : undefined;
        }),
      ).map((joiner) => ({ summary: `blocks are joined with ${quote(joiner)}; REN-3 joins them with "\\n\\n"`, defects: { joiner } })),
  },
  {
    id: 'extra-result-members',
    section: 'omissions',
    requirements: ['RES-1'],
    when: ['valid'],
    instances: (evidence) =>
      distinct(
        results(evidence).map(({ given, base }) => {
          const extra = Object.keys(given).filter((k) => !Object.hasOwn(base, k));
          return extra.length > 0 ? Object.fromEntries(extra.map((k) => [k, given[k]])) : undefined;
        }),
      ).map((members) => ({
        summary: `the result carries ${Object.keys(members).map(quote).join(', ')}, which the spec does not define; RES-1 allows the core members and those of the declared capabilities only`,
        defects: { extraMembers: members },
      })),
  },
  {
    id: 'missing-result-members',
    section: 'omissions',
    requirements: ['RES-1', 'WC-1'],
    when: ['valid'],
    instances: (evidence) =>
      distinct(
        results(evidence).map(({ given, base }) => {
          const missing = Object.keys(base).filter((k) => !Object.hasOwn(given, k));
          return missing.length > 0 ? missing : undefined;
        }),
      ).map((members) => ({
        summary: `the result lacks ${members.map(quote).join(', ')}; RES-1 and WC-1 require the core members and those of every declared capability`,
        defects: { missingMembers: members },
      })),
  },
  {
    id: 'generated-at-not-now',
    section: 'working_context',
    requirements: ['WC-5', 'REQ-2'],
    when: ['working_context'],
    instances: (evidence) =>
      distinct(
        results(evidence).map(({ given, base }) =>
          typeof base.generated_at === 'number' && typeof given.generated_at === 'number' && given.generated_at !== base.generated_at
            ? given.generated_at
            : undefined,
        ),
      ).map((at) => ({
        summary: `generated_at is ${at}, not the request's now (a clock read?); WC-5 makes it the request's now, and REQ-2 forbids reading a clock`,
        defects: { generatedAt: at },
      })),
  },
];
