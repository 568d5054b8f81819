/**
 * A shrunk counterexample as a ready golden case: valid against
 * case.schema.json, `expect` filled from the reference, so it can join the
 * corpus as a regression exactly as written.
 */
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';
import { WriteFileError, writeFileNoFollow } from '../../protocol/write-file.js';
import { validateRequest } from '../../reference/index.js';
import { reasonClass } from '../../vocabulary/reason-classes.js';
import { CASE_SCHEMA_PATH, caseValidator } from '../cases/schema.js';
import { MAX_CASE_DEPTH } from '../cases/depth.js';
import { MAX_CASE_FILE_BYTES } from '../cases/limits.js';
import { formatErrors } from '../../protocol/schemas.js';
import type { Expectation, GoldenCase } from '../../vocabulary/types.js';
import type { Implementation, Manifest } from '../../protocol/types.js';
import { judge, skipReason } from '../judge.js';
import { depthOf } from '../../protocol/deep-json.js';
import { SPEC_VERSION } from '../../vocabulary/spec.js';
import { yaml } from '../../vocabulary/yaml.js';
import { capabilityUses } from '../../vocabulary/capability-uses.js';
import { referenceAnswer } from './catalog.js';

type Obj = Record<string, unknown>;

const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The capabilities a request uses, as SPEC section 8 words it: a pinned
 * block, a `constraints` member, a status other than `active` (`pinned:
 * false`, `status: active` and a block's `confidence` use none), tiered only
 * (RANK-7). An invalid request uses none: validation is core (section 3), so
 * its case runs, and fails, on every implementation that gets it wrong.
 */
export function capabilitiesUsed(request: unknown): string[] {
  if (!isObj(request) || request.profile === 'ranked') return [];
  if (validateRequest(request).length > 0) return [];
  return [...capabilityUses(request).keys()];
}

/**
 * The reference's answer as a case expectation: the error, or what the
 * differential property compares; with working_context, its members too.
 */
export function expectationFromReference(request: unknown, capabilities: readonly string[]): Expectation {
  const a = referenceAnswer(request, capabilities);
  if (a.kind === 'error') return { error: a.code as Expectation['error'] };
  const omissions: Record<string, string> = {};
  for (const o of a.value.omissions) omissions[o.block_id] = reasonClass(o.reason) ?? o.reason;
  const core: Expectation = {
    included: a.value.included,
    omissions,
    omission_order: a.value.omissions.map((o) => o.block_id),
    estimated_tokens: a.value.estimated_tokens,
    context: a.value.context,
  };
  const v = a.value;
  if (!capabilities.includes('working_context') || v.segments === undefined) return core;
  return {
    ...core,
    total_budget: v.total_budget,
    segments: v.segments.map((g) => ({ block_id: g.block_id, source: g.source, tier: g.tier, tokens: g.tokens, score: g.score, reason: g.reason })),
    warnings: (v.warnings ?? []).map((w) => ({ code: w.code, ...(w.block_id !== undefined ? { block_id: w.block_id } : {}) })),
    truncated: v.truncated!,
    generated_at: v.generated_at!,
  };
}

export interface SavedCase {
  file: string;
  text: string;
}

export interface CounterexampleInfo {
  property: string;
  requirements: string[];
  seed: number;
  path: string;
  message: string;
  request: unknown;
  /** Found elsewhere than by a property (a replayed or swept request): says where, and names the file and tag. */
  origin?: { found: string; name: string; tag: string };
}

/** The case, as its file will hold it; `workingContext` adds that capability and its members to what it checks. */
function counterexampleDoc(info: CounterexampleInfo, workingContext = false): Omit<GoldenCase, 'id' | 'file'> {
  const capabilities = capabilitiesUsed(info.request);
  if (workingContext) capabilities.push('working_context');
  const profile: GoldenCase['profile'] = isObj(info.request) && info.request.profile === 'ranked' ? 'ranked' : 'tiered';
  const firstLine = info.message.split('\n')[0]!.replace(/\s+/g, ' ').trim();
  const doc = {
    description:
      `Regression found by ${info.origin?.found ?? `the ${info.property} property (seed ${info.seed}, path ${info.path})`}: ` +
      `the answer must be the reference's, where the implementation under test ${firstLine.charAt(0).toLowerCase() + firstLine.slice(1)}.`,
    requirements: info.requirements,
    profile,
    since: SPEC_VERSION,
    capabilities,
    tags: ['counterexample', info.origin?.tag ?? `property-${info.property}`],
    request: info.request,
    expect: expectationFromReference(info.request, capabilities),
  };
  const valid = caseValidator();
  if (!valid(doc)) throw new Error(`counterexample case is not valid against case.schema.json: ${formatErrors(valid.errors).join('; ')}`);
  return doc;
}

/** The YAML text of the case (first line: the schema association for editors). */
function counterexampleYaml(doc: Omit<GoldenCase, 'id' | 'file'>, dir: string): string {
  const schema = relative(dir, CASE_SCHEMA_PATH).split('\\').join('/');
  return `# yaml-language-server: $schema=${schema}\n` + visibleYaml(doc);
}

/** Format and control characters, combining marks and lone surrogates: invisible or misleading when printed raw. */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{M}\p{Zl}\p{Zp}\ud800-\udfff]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');

/**
 * YAML in which no character hides: strings holding one are double-quoted and
 * the character is written as an escape (a bidi override in a committed case
 * would otherwise reorder what a reviewer sees).
 */
export function visibleYaml(value: unknown): string {
  const YAML = yaml();
  const doc = new YAML.Document(value);
  YAML.visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && INVISIBLE.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  // Every such character left in the text is inside a double-quoted scalar, where \uXXXX is an escape.
  return doc.toString({ lineWidth: 0 }).replace(INVISIBLE_ALL, (c) => {
    if (c === '\n') return c;
    const cp = c.codePointAt(0)!;
    return cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  });
}

/** Longest case file name before `.yaml`: most file systems allow 255 bytes a name, and a name comes from a traffic file's. */
export const MAX_CASE_NAME = 120;

/** The name cut to MAX_CASE_NAME, its end a hash of the whole, so two long names that share a start stay apart. */
export function fittedCaseName(name: string): string {
  if (name.length <= MAX_CASE_NAME) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_CASE_NAME - hash.length - 1).replace(/-+$/, '')}-${hash}`;
}

/** Writes the case without following a symbolic link at its path; throws WriteFileError naming the file and the reason. */
export function saveCounterexample(info: CounterexampleInfo, dir: string, doc = counterexampleDoc(info)): SavedCase {
  const seed = info.seed < 0 ? `m${-info.seed}` : String(info.seed);
  const file = join(dir, `${fittedCaseName(info.origin?.name ?? `${info.property}-${seed}`)}.yaml`);
  const text = counterexampleYaml(doc, dir);
  const size = Buffer.byteLength(text);
  // A case the loader would refuse is no regression test.
  if (size > MAX_CASE_FILE_BYTES)
    throw new WriteFileError(
      file,
      `the case would be ${size.toLocaleString('en-US')} bytes, and a case file holds at most ${MAX_CASE_FILE_BYTES.toLocaleString('en-US')}`,
    );
  writeFileNoFollow(file, text);
  return { file, text };
}

/** The line for the result's message: where it was saved, or the file and why it could not be. */
function savedLine(info: CounterexampleInfo, dir: string, doc: Omit<GoldenCase, 'id' | 'file'>): string {
  try {
    return `saved as ${saveCounterexample(info, dir, doc).file}`;
  } catch (e) {
    if (e instanceof WriteFileError) return `not saved as a case: ${e.message}`;
    throw e;
  }
}

/** The implementation a counterexample was found on, asked again for the saved case. */
export interface CaseCheck {
  impl: Implementation;
  manifest: Manifest;
  timeoutMs: number;
}

/**
 * Saves the counterexample as a case only when the case fails on the
 * implementation it was found on: a case holds one answer's core members (and
 * with working_context, those too), so a failure seen only across answers
 * (REQ-2) or in what no case matcher holds would otherwise be saved as a case
 * that passes, a regression test that tests nothing. Returns the line for the
 * result's message.
 */
export async function saveIfFailing(info: CounterexampleInfo, dir: string, check: CaseCheck): Promise<string> {
  // A case file is YAML, whose reader recurses: a request nested past what it reads is no case (judging/cases/load.ts).
  if (depthOf(info.request, MAX_CASE_DEPTH + 1) > MAX_CASE_DEPTH)
    return `not saved as a case: the request nests deeper than the ${MAX_CASE_DEPTH} levels a case file holds`;
  const docs = [counterexampleDoc(info)];
  const profile = docs[0]!.profile;
  if (profile === 'tiered' && check.manifest.capabilities.includes('working_context')) docs.push(counterexampleDoc(info, true));
  let skipped: string | undefined;
  let asked = false;
  for (const doc of docs) {
    // What run --cases would skip on this implementation is no regression test for it.
    const why = skipReason(doc, check.manifest);
    if (why !== undefined) {
      skipped ??= why;
      continue;
    }
    asked = true;
    const outcome = await check.impl.assemble(doc.request, { timeoutMs: check.timeoutMs });
    const verdict = judge({ id: 'counterexample', file: '', ...doc }, outcome, check.manifest);
    if (verdict.status !== 'pass' && verdict.status !== 'skip') return savedLine(info, dir, doc);
  }
  if (!asked && skipped !== undefined) return `not saved as a case: run would skip it on this implementation (${skipped})`;
  return (
    'not saved as a case: the implementation passes a case of this request (its answer, asked once, has ' +
    'what the reference has in every member a case checks), so the failure shows only across answers or in what no case holds'
  );
}
