/**
 * The golden case loader. Cases are YAML so that vendors can read and write
 * them; every problem is reported as `file:line:col: message` so that a bad
 * case is fixed in seconds, and nothing in a case file can run code or expand
 * (no aliases, no custom tags, no duplicate keys).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { ErrorObject } from 'ajv';
import type { Document } from 'yaml';
import { packagePath } from '../../protocol/package-root.js';
import { precompiledCase } from './precompiled.js';
import { yaml } from '../../vocabulary/yaml.js';
import { capabilityUses } from '../../vocabulary/capability-uses.js';
import { caseValidator } from './schema.js';
import { MAX_CASE_FILE_DEPTH, yamlNestingBound } from './depth.js';
import { MAX_CASE_FILE_BYTES, MAX_MAPPING_KEYS } from './limits.js';
import { specRequirements, specVersionProblem } from '../../vocabulary/spec.js';
import type { GoldenCase } from '../../vocabulary/types.js';

export interface LoadProblem {
  file: string;
  line: number;
  col: number;
  message: string;
}

export interface Corpus {
  cases: GoldenCase[];
  problems: LoadProblem[];
}

export const BUNDLED_CASES_DIR: string = packagePath('cases');

/** Expectation members that only a `working_context` result carries. */
const WORKING_CONTEXT_MATCHERS = ['warnings', 'truncated', 'segments', 'generated_at'] as const;
const RESULT_MATCHERS = [
  'included',
  'omissions',
  'omission_order',
  'omissions_exact',
  'warnings',
  'segments',
  'estimated_tokens',
  'total_budget',
  'truncated',
  'generated_at',
  'context',
  'context_contains',
  'context_excludes',
  'result_members',
] as const;
/**
 * Path segments of a case id: lower-case ASCII, so two ids never differ only in
 * case (they would collide on a case-insensitive checkout), and since each id is
 * a distinct path no two cases can share one.
 */
const ID_SEGMENT = /^[a-z0-9][a-z0-9_-]*$/;

export function formatProblem(p: LoadProblem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.message}`;
}

let knownIds: Set<string> | undefined;
function specIds(): Set<string> {
  knownIds ??= new Set(specRequirements().map((r) => r.id));
  return knownIds;
}

export { MAX_CASE_FILE_BYTES, MAX_MAPPING_KEYS } from './limits.js';

/**
 * Every file under dir, relative to it, sorted; names starting with `.` are skipped, and a symlink loop is walked once.
 * A link that leads nowhere is listed as a file, for the loader to report as a problem of its own.
 */
function walk(dir: string, prefix = '', seen = new Set<string>(), out: Walked = { files: [], outside: [] }, root = realpathSync(dir)): Walked {
  const real = realpathSync(dir);
  if (seen.has(real)) return out;
  seen.add(real);
  // The entries' types come with the listing: only a link (or a type the listing does not give) costs a stat, which follows it.
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const name = entry.name;
    if (name.startsWith('.')) continue;
    // Built by joining names, not path.relative per file: that resolves both paths each time (about a third of loading the bundled corpus).
    const rel = prefix + name;
    if (entry.isFile()) {
      out.files.push(rel);
      continue;
    }
    const full = join(dir, name);
    if (entry.isDirectory()) walk(full, rel + sep, seen, out, root);
    else if (statSync(full, { throwIfNoEntry: false })?.isDirectory()) {
      if (isInside(realpathSync(full), root)) walk(full, rel + sep, seen, out, root);
      else out.outside.push(rel);
    } else out.files.push(rel);
  }
  return out;
}

interface Walked {
  files: string[];
  /** Links to folders outside the one walked: not walked. */
  outside: string[];
}

const isInside = (real: string, root: string): boolean => real === root || real.startsWith(root + sep);

/**
 * Load and check every case under dir. Synchronous; never throws for a bad case, only for an unreadable directory.
 * The bundled corpus takes each unchanged file from the build's precompiled index (judging/cases/precompiled.ts).
 */
export function loadCorpus(dir: string = BUNDLED_CASES_DIR, { precompiled = true }: { precompiled?: boolean } = {}): Corpus {
  const bundled = precompiled && resolve(dir) === BUNDLED_CASES_DIR;
  const cases: GoldenCase[] = [];
  const problems: LoadProblem[] = [];
  const root = realpathSync(dir);
  const walked = walk(dir);
  for (const rel of walked.outside)
    problems.push({
      file: join(dir, rel),
      line: 1,
      col: 1,
      message: `a symbolic link out of the cases folder (to ${readlinkSync(join(dir, rel))}): not walked, cases are read from inside the folder only`,
    });
  for (const rel of walked.files) {
    const file = join(dir, rel);
    if (rel.endsWith('.md')) continue; // documentation (cases/README.md)
    if (!rel.endsWith('.yaml')) {
      problems.push({ file, line: 1, col: 1, message: `not a case: case files end in .yaml${rel.endsWith('.yml') ? ' (not .yml)' : ''}` });
      continue;
    }
    const id = rel.slice(0, -'.yaml'.length).split(sep).join('/');
    const bad = id.split('/').find((s) => !ID_SEGMENT.test(s));
    if (bad !== undefined) {
      problems.push({ file, line: 1, col: 1, message: `case id "${id}": each path segment must match ${ID_SEGMENT.source} (got "${bad}")` });
      continue;
    }
    const read = caseFileText(file, root);
    if (typeof read !== 'string') {
      problems.push({ file, line: read.line ?? 1, col: read.col ?? 1, message: read.problem });
      continue;
    }
    const text = read;
    const built = bundled ? precompiledCase(rel, text) : undefined;
    if (built) {
      cases.push({ ...built, file });
      continue;
    }
    const loaded = parsedCaseFile(file, id, text);
    problems.push(...loaded.problems);
    if (loaded.case) cases.push(loaded.case);
  }
  const cmp = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);
  cases.sort((a, b) => cmp(a.id, b.id));
  problems.sort((a, b) => cmp(a.file, b.file) || a.line - b.line || a.col - b.col);
  return { cases, problems };
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/**
 * A case file's text, or why it is not read: a case file is a regular file
 * of at most MAX_CASE_FILE_BYTES inside the cases folder. A symbolic link is
 * followed when it leads to such a file inside the folder; one leading out
 * of it is refused, since a case's text reaches the reports, and one leading
 * nowhere is a problem of its file. A FIFO or a device (a link to /dev/zero)
 * is refused before it is opened: reading one never ends.
 */
function caseFileText(file: string, root: string): string | { problem: string; line?: number; col?: number } {
  const link = lstatSync(file, { throwIfNoEntry: false });
  if (link?.isSymbolicLink()) {
    const target = readlinkSync(file);
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      return { problem: `a broken symbolic link (to ${target}): no file there to read` };
    }
    if (!isInside(real, root))
      return { problem: `a symbolic link out of the cases folder (to ${target}): refused, a case file is read from inside the folder only` };
  }
  const st = statSync(file, { throwIfNoEntry: false });
  if (st === undefined) return { problem: 'the file is gone: it could not be read' };
  if (!st.isFile()) return { problem: `${kindOf(st)}, not a regular file: refused, a case file is a regular file` };
  if (st.size > MAX_CASE_FILE_BYTES) return { problem: tooBig(st.size) };
  // Read up to one byte past the limit, from the descriptor stat'ed again: a file that grows after the first look is still bounded.
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return { problem: `${kindOf(opened)}, not a regular file: refused, a case file is a regular file` };
    const buf = Buffer.alloc(Math.min(opened.size, MAX_CASE_FILE_BYTES) + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, n);
    if (n > MAX_CASE_FILE_BYTES) return { problem: tooBig(n) };
    return utf8Text(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes as UTF-8 text, or where they stop being UTF-8: a lossy read would put U+FFFD into
 * a case's contents and judge an implementation by bytes nobody wrote (SPEC PROTO-10).
 */
function utf8Text(bytes: Buffer): string | { problem: string; line: number; col: number } {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // A lossy read writes U+FFFD for each bad sequence: the first one not spelt in the file itself is where it starts.
    const lossy = bytes.toString('utf8');
    let lo = 0;
    for (let k = lossy.indexOf('\ufffd'); k >= 0; k = lossy.indexOf('\ufffd', k + 1)) {
      lo = Buffer.byteLength(lossy.slice(0, k), 'utf8');
      if (!(bytes[lo] === 0xef && bytes[lo + 1] === 0xbf && bytes[lo + 2] === 0xbd)) break;
    }
    const before = bytes.subarray(0, lo).toString('utf8');
    const line = before.split('\n').length;
    const col = [...before.slice(before.lastIndexOf('\n') + 1)].length + 1;
    return {
      problem: `not UTF-8: the bytes from offset ${lo} (0x${bytes[lo]!.toString(16).padStart(2, '0')} ...) are no UTF-8 character; a case file is UTF-8 text`,
      line,
      col,
    };
  }
}

function tooBig(bytes: number): string {
  return (
    `${bytes.toLocaleString('en-US')} bytes${bytes > MAX_CASE_FILE_BYTES ? '' : ' or more'}: a case file ` +
    `holds at most ${MAX_CASE_FILE_BYTES.toLocaleString('en-US')} bytes (512 KiB); replay a larger request from JSON lines (ctxconform replay)`
  );
}

/**
 * What loadCaseFile made of a file's text, kept for the life of the process:
 * the TypeScript sources (the tests) never take the build's index, and each
 * `ctxconform run` in one process would otherwise parse the whole corpus
 * again (most of a second). The result depends only on the file, its id and
 * its text (SPEC.md's ids and the case schema are read once per process
 * anyway); each caller gets its own copy, as from the index.
 */
const parsed = new Map<string, { case?: GoldenCase; problems: LoadProblem[] }>();

function parsedCaseFile(file: string, id: string, text: string): { case?: GoldenCase; problems: LoadProblem[] } {
  const key = `${file}\u0000${id}\u0000${text}`;
  let loaded = parsed.get(key);
  if (loaded === undefined) {
    loaded = loadCaseFile(file, id, text);
    parsed.set(key, loaded);
  }
  return structuredClone(loaded);
}

/** Parse and check one case file's text; `case` is set only when it has no problem. */
function loadCaseFile(file: string, id: string, text: string): { case?: GoldenCase; problems: LoadProblem[] } {
  const lc = new (yaml().LineCounter)();
  const problems: LoadProblem[] = [];
  const at = (offset: number, message: string): void => {
    const { line, col } = lc.linePos(offset);
    problems.push({ file, line, col, message });
  };
  const nesting = yamlNestingBound(text);
  if (nesting.depth > MAX_CASE_FILE_DEPTH) {
    // The YAML reader recurses and would fail (or exhaust memory) on this file: refused before it reads it.
    return {
      problems: [
        {
          file,
          line: nesting.line,
          col: 1,
          message:
            `nested about ${nesting.depth} levels deep here; a case file holds at most ${MAX_CASE_FILE_DEPTH} ` +
            `(the YAML reader recurses); replay a deeper request from JSON lines (ctxconform replay)`,
        },
      ],
    };
  }
  // The library's own duplicate-key check compares each key with every earlier one (quadratic): keys are checked below, once each.
  const doc = yaml().parseDocument(text, { lineCounter: lc, uniqueKeys: false, prettyErrors: false, strict: true });
  for (const e of doc.errors) at(e.pos[0], `YAML syntax error: ${firstLine(e.message)}`);
  for (const w of doc.warnings) at(w.pos[0], `YAML: ${firstLine(w.message)}`);
  if (problems.length === 0) keyProblems(doc, at);
  if (problems.length > 0) return { problems };
  // Aliases are refused outright: a case is small, and an alias bomb must not expand.
  yaml().visit(doc, {
    Alias(_key, node) {
      at(node.range?.[0] ?? 0, `YAML alias *${node.source} is not allowed in a case (write the value out)`);
    },
    Node(_key, node) {
      if (node.anchor) {
        // The node's range starts after its anchor; point at the anchor itself.
        const start = node.range?.[0] ?? 0;
        const anchorAt = text.lastIndexOf('&' + node.anchor, start);
        at(anchorAt >= 0 ? anchorAt : start, `YAML anchor &${node.anchor} is not allowed in a case`);
      }
    },
  });
  if (problems.length > 0) return { problems };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 0 });
  } catch (e) {
    at(0, `YAML: ${(e as Error).message}`);
    return { problems };
  }
  const valid = caseValidator();
  if (!valid(value)) {
    for (const err of valid.errors ?? []) {
      const { offset, message } = locateSchemaError(doc, err);
      at(offset, message);
    }
    for (const p of requirementProblems((value as { requirements?: unknown } | null)?.requirements)) at(offsetOf(doc, p.path), p.message);
    return { problems };
  }
  const raw = value as Omit<GoldenCase, 'id' | 'file' | 'capabilities' | 'tags'> & { capabilities?: string[]; tags?: string[] };
  const c: GoldenCase = {
    id,
    file,
    description: raw.description,
    requirements: raw.requirements,
    profile: raw.profile,
    since: raw.since,
    capabilities: raw.capabilities ?? [],
    tags: raw.tags ?? [],
    request: raw.request,
    expect: raw.expect,
  };
  for (const p of semanticProblems(c)) at(offsetOf(doc, p.path), p.message);
  return problems.length > 0 ? { problems } : { case: c, problems };
}

/** Each mapping: at most MAX_MAPPING_KEYS keys, and no scalar key twice (as the YAML library's own check words it). */
function keyProblems(doc: Document, at: (offset: number, message: string) => void): void {
  yaml().visit(doc, {
    Map(_key, node) {
      if (node.items.length > MAX_MAPPING_KEYS) {
        at(
          node.range?.[0] ?? 0,
          `a mapping of ${node.items.length.toLocaleString('en-US')} keys: a case file's mapping holds at most ${MAX_MAPPING_KEYS.toLocaleString('en-US')}`,
        );
        return yaml().visit.SKIP;
      }
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (!yaml().isScalar(pair.key)) continue;
        if (seen.has(pair.key.value)) at(pair.key.range?.[0] ?? 0, 'YAML syntax error: Map keys must be unique');
        seen.add(pair.key.value);
      }
      return undefined;
    },
  });
}

type PathProblem = { path: (string | number)[]; message: string };

function requirementProblems(requirements: unknown): PathProblem[] {
  if (!Array.isArray(requirements)) return [];
  const ids = specIds();
  const out: PathProblem[] = [];
  requirements.forEach((r, i) => {
    if (typeof r === 'string' && !ids.has(r)) out.push({ path: ['requirements', i], message: `requirement ${r} is not defined in SPEC.md` });
  });
  return out;
}

/** What the schema cannot say: ids that SPEC.md defines, and expectations a valid implementation could meet. */
function semanticProblems(c: GoldenCase): PathProblem[] {
  const out = requirementProblems(c.requirements);
  const late = specVersionProblem(c.since);
  if (late !== undefined) out.push({ path: ['since'], message: `since: ${late}` });
  const e = c.expect as Record<string, unknown>;
  if (c.profile === 'ranked' && c.capabilities.length > 0) {
    out.push({ path: ['capabilities'], message: 'capabilities apply to profile tiered only (RANK-7)' });
  }
  for (const m of WORKING_CONTEXT_MATCHERS) {
    if (e[m] !== undefined && !c.capabilities.includes('working_context')) {
      out.push({ path: ['expect', m], message: `expect.${m} needs the capability working_context in capabilities` });
    }
  }
  if (e.error !== undefined) {
    for (const m of RESULT_MATCHERS) {
      if (e[m] !== undefined)
        out.push({ path: ['expect', m], message: `expect.${m} cannot be checked when expect.error is set (an error answer has no result)` });
    }
  }
  if (e.error === 'pinned_overflow' && !c.capabilities.includes('pinned')) {
    out.push({ path: ['expect', 'error'], message: 'pinned_overflow needs the capability pinned in capabilities' });
  }
  if (c.profile !== 'ranked' && e.error !== 'invalid_request') {
    for (const [cap, why] of capabilityUses(c.request)) {
      if (!c.capabilities.includes(cap))
        out.push({ path: ['capabilities'], message: `the request uses ${why}, so capabilities must list ${cap} (SPEC section 8)` });
    }
  }
  const req = c.request as { profile?: unknown } | null;
  if (typeof req === 'object' && req !== null && !Array.isArray(req)) {
    const sent = req.profile === undefined ? 'tiered' : req.profile;
    // A case of the any level sends a tiered request (or none named): every design is judged on the same requests.
    if ((sent === 'tiered' || sent === 'ranked') && sent !== c.profile && !(c.profile === 'any' && sent === 'tiered')) {
      out.push({
        path: req.profile === undefined ? ['request'] : ['request', 'profile'],
        message: `the request runs profile ${String(sent)} but the case declares profile ${c.profile}`,
      });
    }
  }
  return out;
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}

/** RFC 6901 pointer to YAML path segments; numeric segments index sequences. */
function pointerPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s));
}

function offsetOf(doc: Document, path: (string | number)[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (yaml().isNode(node) && node.range) return node.range[0];
  }
  return 0;
}

/** The key node of member `key` of the map at `path`, for errors about the member itself. */
function keyOffset(doc: Document, path: (string | number)[], key: string): number | undefined {
  const parent = path.length === 0 ? doc.contents : doc.getIn(path, true);
  if (!yaml().isMap(parent)) return undefined;
  for (const item of parent.items) {
    if (yaml().isPair(item) && yaml().isScalar(item.key) && item.key.value === key && item.key.range) return item.key.range[0];
  }
  return undefined;
}

function locateSchemaError(doc: Document, err: ErrorObject): { offset: number; message: string } {
  const path = pointerPath(err.instancePath);
  const where = err.instancePath === '' ? '' : path.join('.');
  const member = (k: string): string => (where ? `${where}.${k}` : k);
  switch (err.keyword) {
    case 'additionalProperties': {
      const k = (err.params as { additionalProperty: string }).additionalProperty;
      return { offset: keyOffset(doc, path, k) ?? offsetOf(doc, path), message: `unknown member "${member(k)}" (not in the case schema)` };
    }
    case 'required': {
      const k = (err.params as { missingProperty: string }).missingProperty;
      return { offset: offsetOf(doc, path), message: `missing required member "${member(k)}"` };
    }
    case 'enum': {
      const allowed = (err.params as { allowedValues: unknown[] }).allowedValues;
      return { offset: offsetOf(doc, path), message: `${where || '(case)'}: must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}` };
    }
    default:
      return { offset: offsetOf(doc, path), message: `${where || '(case)'}: ${err.message ?? err.keyword}` };
  }
}
