/**
 * The probe's readings against the catalogue of known defects
 * (diagnosis/): a drifted row names the constant whose change
 * would explain it, but a defect elsewhere can move the same readings (the
 * remainder put into the pool, the pool filled tier by tier, priorities
 * ascending each read as changed tier fractions). Every exchange of the probe
 * is an observation, failing where the answer differs from the
 * reference's; the diagnosis names the defects that reproduce them, and when
 * none of those is a changed constant the probe says the readings fit them
 * better.
 */
import { CATALOGUE } from '../catalogue.js';
import { diagnose, diagnosisEntry } from '../diagnose.js';
import { FAMILIES } from '../families.js';
import { recordedObservation } from '../recorded.js';
import { agreesWithReference } from '../../judging/properties/agrees.js';
import { genContext } from '../../judging/properties/arbitraries.js';
import type { DiagnosisEntry, Manifest } from '../../protocol/types.js';
import type { Exchange } from './session.js';

export interface CrossCheck {
  /** Best first; empty when no known defect reproduces the answers that differ. */
  causes: DiagnosisEntry[];
  /** Answers of the probe that differ from the reference's. */
  differing: number;
  /** Said when the drifted constants are better explained by a defect that is no constant. */
  note?: string;
}

/** What a drifted row would mean as a changed constant, by its name. */
const CONSTANT_ROWS: ReadonlyArray<[RegExp, string]> = [
  [/^chars_per_token$/, 'changed chars per token'],
  [/^tier_fraction\./, 'changed tier fraction'],
  [/^tier_of\[/, 'source moved to another tier'],
];

const entryOf = (id: string): { section: string; requirements: readonly string[] } | undefined =>
  CATALOGUE.find((e) => e.id === id) ?? FAMILIES.find((f) => f.id === id);

/** The cross-check of a probe's exchanges; undefined when every answer was the reference's. */
export function crossCheck(exchanges: readonly Exchange[], manifest: Manifest, drifted: readonly string[]): CrossCheck | undefined {
  const gen = genContext(manifest);
  const observations = exchanges.map((x, i) =>
    recordedObservation(`probe/${i + 1}`, x.request, manifest, x.outcome, agreesWithReference(x.request, gen)(x.outcome)),
  );
  const d = diagnose(observations);
  if (!d) return undefined;
  const causes: DiagnosisEntry[] = d.causes.map((c) => diagnosisEntry(c, false));
  const out: CrossCheck = { causes, differing: d.failing };
  const top = causes[0];
  const meanings = [...new Set(drifted.flatMap((row) => CONSTANT_ROWS.filter(([re]) => re.test(row)).map(([, m]) => m)))];
  if (top && meanings.length > 0) {
    const fitting = [...(top.defects ?? [top.id]), ...(top.alike ?? [])];
    if (!fitting.some((id) => entryOf(id)?.section === 'constants')) {
      const named = fitting.map((id) => `${id} [${(entryOf(id)?.requirements ?? []).join(', ')}]`);
      out.note = `the readings fit ${named.join(' or ')} better than a ${meanings.join(' or a ')}`;
    }
  }
  return out;
}
