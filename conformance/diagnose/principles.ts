/**
 * "Not this design": what the failing answers break of the design-agnostic
 * principles (SPEC section 18), read with no model of the implementation. When
 * no catalogue defect reproduces the answers, the broken principle is the
 * likely cause that is true whatever the design; and failures that break no
 * principle at all are differences of design (ranking, tiers, render,
 * estimator), not defects a vendor of another design should chase.
 */
import { validateRequest } from '../../reference/index.js';
import type { Manifest } from '../../protocol/types.js';
import { brokenPrinciples, principleVerdict } from '../principles/verdict.js';
import { manifestDesign, prepareDesign } from '../principles/design.js';
import type { Design } from '../principles/design.js';
import type { Observation } from './diagnose.js';

/** A principle the failing answers break, and which of them. */
export interface BrokenPrinciple {
  requirement: string;
  summary: string;
  explains: number;
  failing: number;
  explained: string[];
}

export interface PrincipleReading {
  broken: BrokenPrinciple[];
  /** Failing results whose answer breaks no principle but the render's (ANY-10, ANY-11): a difference of design, or a defect the principles cannot see. */
  designOnly: string[];
  /** Failing results read: a result or an error answer to a valid request of profile tiered. */
  read: number;
}

const SUMMARIES: Readonly<Record<string, string>> = {
  'ANY-1': 'blocks are cut to fit, or parts of dropped blocks appear',
  'ANY-2': 'the budget is overrun',
  'ANY-3': 'blocks are dropped without being named',
  'ANY-4': 'omission reasons name no reason class',
  'ANY-5': 'expired blocks are included',
  'ANY-6': 'pinned blocks are dropped',
  'ANY-10': 'contents appear outside their own header',
  'ANY-11': 'text of the implementation’s own is written into the context',
  'ANY-13': 'valid requests are refused',
  'ANY-14': 'blocks that fit are dropped for the budget',
  'ANY-15': 'the context is not in the declared order',
};

/** What a declared render would change: under another design's render these are its design, not a defect. */
const RENDER = ['ANY-10', 'ANY-11'];

/** The design the exact profiles fix, as the principles read it: NUM-2 with a declared divisor, REN-2, REN-3. */
function designOfManifest(manifest: Observation['manifest'] & Partial<Pick<Manifest, 'design'>>): Design {
  if (manifest.design) return manifestDesign(manifest);
  const perToken = manifest.constants?.chars_per_token;
  const profiles = manifest.profiles === undefined ? {} : { profiles: [...manifest.profiles] };
  return manifestDesign({ design: perToken === undefined ? undefined : { estimator: { unit: 'code_points', per_token: perToken } }, ...profiles });
}

/**
 * The design the observations' manifest declares, its tokenizer loaded; undefined for omission
 * markers, which are written in tiered's render (no declared design reads them).
 */
export async function principlesDesign(observations: readonly Observation[]): Promise<Design | undefined> {
  const first = observations[0];
  if (!first) return undefined;
  const manifest = first.manifest as Observation['manifest'] & Partial<Pick<Manifest, 'design'>>;
  if (manifest.capabilities.includes('omission_markers')) return undefined;
  return manifest.design ? prepareDesign(manifest) : designOfManifest(manifest);
}

/** The principles the failing observations break under `design` (principlesDesign). */
export function readPrinciples(observations: readonly Observation[], design: Design, among?: ReadonlySet<string>): PrincipleReading | undefined {
  const failing = observations.filter((o) => !o.passed && (among === undefined || among.has(o.id)));
  const first = failing[0];
  if (!first) return undefined;
  const manifest = first.manifest as Observation['manifest'] & Partial<Pick<Manifest, 'design'>>;
  const byId = new Map<string, string[]>();
  const designOnly: string[] = [];
  let read = 0;
  for (const o of failing) {
    if (validateRequest(o.request).length > 0 || (o.request as { profile?: unknown }).profile === 'ranked') continue;
    // The level's own verdict (a refused valid request is ANY-13 there); an answer it calls error, timeout or crash is not read.
    const v = principleVerdict(o.request, o.outcome, design, manifest.capabilities);
    if (v.status !== 'pass' && v.status !== 'fail') continue;
    read++;
    const ids = brokenPrinciples(v.findings);
    if (ids.every((id) => RENDER.includes(id))) designOnly.push(o.id);
    for (const id of ids) byId.set(id, [...(byId.get(id) ?? []), o.id]);
  }
  const broken = [...byId]
    .map(([requirement, explained]) => ({
      requirement,
      summary: SUMMARIES[requirement] ?? requirement,
      explains: explained.length,
      failing: failing.length,
      explained,
    }))
    .sort((a, b) => b.explains - a.explains || (a.requirement < b.requirement ? -1 : 1));
  return { broken, designOnly, read };
}

/** The terminal's lines for a reading: each broken principle with how many failures it explains, and the design hint. */
export function principleLines(r: PrincipleReading, failing: number, atAnyLevel: boolean, unexplainedOnly: boolean): string[] {
  const lines = r.broken.map((b) => `  ${b.summary} (${b.requirement}): explains ${b.explains} of ${failing} failure${failing === 1 ? '' : 's'}`);
  if (lines.length > 0)
    lines.unshift(`${unexplainedOnly ? 'of the failures no known defect explains, ' : ''}broken principles, whatever the design (SPEC section 18):`);
  // Mostly answers every design could give: say so, and where a design of one's own is judged.
  if (!atAnyLevel && r.designOnly.length * 2 > failing) {
    lines.push(
      `  ${r.designOnly.length} of ${failing} failures break no design-agnostic principle but, at most, REN-2's render: differences of design (ranking, tiers, render, estimator) or of tiered's exact rules; an assembler of its own design declares "profiles": ["any"] and its design (docs/any-design.md)`,
    );
  }
  return lines;
}
