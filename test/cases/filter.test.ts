/**
 * `--filter`: id globs, tag:, req: (ids and section prefixes), area:, `!` and
 * `+`, on hand-made items and on the bundled corpus; names nothing has are
 * refused; `run` and `list` select the same cases; cases/README.md lists
 * exactly the tags the corpus uses.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseSelector, checkedFilter, FilterError, parseFilter } from '../../judging/cases/filter.js';
import type { Selectable } from '../../judging/cases/filter.js';
import { loadCorpus } from '../../judging/cases/load.js';
import type { Report } from '../../protocol/types.js';
import { cli, ROOT } from '../cli.js';

const corpus = loadCorpus().cases;

const ITEMS: Selectable[] = [
  { id: 'expiry/boundary-equal', requirements: ['EXP-1'], tags: ['expiry', 'boundary'] },
  { id: 'constraints/exclude', requirements: ['CON-1'], tags: ['constraints'] },
  { id: 'constraints/max-segments', requirements: ['CON-5', 'TIER-8'], tags: ['constraints', 'boundary'] },
  { id: 'tiers/budgets-at-10', requirements: ['TIER-2', 'TIER-6'], tags: ['tiers', 'rounding'] },
  { id: 'tiers/memory-is-longterm', requirements: ['TIER-1'], tags: ['tiers'] },
  { id: 'property/differential', requirements: ['TIER-4', 'REN-1'] },
];

const pick = (expr: string): string[] => ITEMS.filter(caseSelector(expr)).map((c) => c.id);

describe('--filter', () => {
  it('takes everything when empty', () => {
    expect(pick('')).toHaveLength(ITEMS.length);
    expect(pick(' , ')).toHaveLength(ITEMS.length);
    expect(ITEMS.filter(caseSelector(undefined))).toHaveLength(ITEMS.length);
  });

  it('matches id globs: * within a segment, ** across, commas for alternatives', () => {
    expect(pick('tiers/*')).toEqual(['tiers/budgets-at-10', 'tiers/memory-is-longterm']);
    expect(pick('**/*-at-*')).toEqual(['tiers/budgets-at-10']);
    expect(pick('expiry/*,property/*')).toEqual(['expiry/boundary-equal', 'property/differential']);
    // An id alone (a string) is an item without tags or requirements.
    expect(caseSelector('tiers/*')('tiers/x')).toBe(true);
    expect(caseSelector('tag:tiers')('tiers/x')).toBe(false);
  });

  it('selects by tag, by requirement id, by section prefix, and by area', () => {
    expect(pick('tag:boundary')).toEqual(['expiry/boundary-equal', 'constraints/max-segments']);
    expect(pick('req:TIER-8')).toEqual(['constraints/max-segments']);
    // req:TIER-1 is the id TIER-1, not every id starting with it.
    expect(pick('req:TIER-1')).toEqual(['tiers/memory-is-longterm']);
    expect(pick('req:CON-')).toEqual(['constraints/exclude', 'constraints/max-segments']);
    expect(pick('req:TIER-*')).toEqual(['constraints/max-segments', 'tiers/budgets-at-10', 'tiers/memory-is-longterm', 'property/differential']);
    expect(pick('area:constraints')).toEqual(['constraints/exclude', 'constraints/max-segments']);
    expect(pick('area:property')).toEqual(['property/differential']);
    expect(pick('tag:rou*')).toEqual(['tiers/budgets-at-10']);
  });

  it('excludes with !, alone (everything else) or beside inclusions', () => {
    expect(pick('!tag:constraints')).toEqual(['expiry/boundary-equal', 'tiers/budgets-at-10', 'tiers/memory-is-longterm', 'property/differential']);
    expect(pick('area:tiers,!tag:rounding')).toEqual(['tiers/memory-is-longterm']);
    expect(pick('tag:boundary,!req:CON-')).toEqual(['expiry/boundary-equal']);
    expect(pick('!area:tiers,!area:property,!expiry/*')).toEqual(['constraints/exclude', 'constraints/max-segments']);
    // An id excluded wins over an id included.
    expect(pick('tiers/*,!tiers/budgets-at-10')).toEqual(['tiers/memory-is-longterm']);
  });

  it('joins atoms with + (all must hold), negated atoms included', () => {
    expect(pick('tag:boundary+area:constraints')).toEqual(['constraints/max-segments']);
    expect(pick('area:tiers+!tag:rounding')).toEqual(['tiers/memory-is-longterm']);
    expect(pick('tag:boundary+req:EXP-,tag:rounding')).toEqual(['expiry/boundary-equal', 'tiers/budgets-at-10']);
    // A term of negated atoms only excludes what has all of them: the constraints boundary case.
    expect(pick('!tag:boundary+!area:constraints')).toEqual(ITEMS.map((c) => c.id).filter((id) => id !== 'constraints/max-segments'));
  });

  it('refuses a selector it does not know, and an empty one', () => {
    expect(() => parseFilter('tags:boundary')).toThrow(FilterError);
    expect(() => parseFilter('tags:boundary')).toThrow(/unknown selector "tags:" \(use tag:, req:, area: or a case-id glob\)/);
    expect(() => parseFilter('tag:')).toThrow(/tag: needs a name/);
    expect(() => parseFilter('!')).toThrow(/nothing after "!"/);
  });

  it('refuses a tag, requirement or area that nothing has, naming the known ones', () => {
    expect(() => checkedFilter('tag:boundry', corpus)).toThrow(/tag:boundry: no case has the tag "boundry" \(known: anchor, any, boundary,/);
    expect(() => checkedFilter('req:TIER-99', corpus)).toThrow(/req:TIER-99: SPEC.md defines no requirement "TIER-99"/);
    expect(() => checkedFilter('req:NOPE-', corpus)).toThrow(/SPEC.md defines no requirement "NOPE-"/);
    expect(() => checkedFilter('!area:tier', corpus)).toThrow(/area:tier: no case is in the area "tier"/);
    // Properties and contract clauses are areas of their own; PROTO ids are SPEC ids even without cases.
    expect(() => checkedFilter('area:property,area:contract,req:PROTO-,req:MAPI-1', corpus)).not.toThrow();
  });

  it('refuses a case-id glob that matches no id, included or excluded, and takes property and clause ids given', () => {
    expect(() => checkedFilter('tirs/*', corpus)).toThrow(/"tirs\/\*": no case, property or contract clause has an id it matches \(areas: .*tiers/);
    expect(() => checkedFilter('tiers/*,!tiers/no-such-case', corpus)).toThrow(/"tiers\/no-such-case": no case/);
    expect(() => checkedFilter('tiers/*,!expiry/**', corpus)).not.toThrow();
    expect(() => checkedFilter('property/differential', corpus)).toThrow(/no case, property or contract clause/);
    expect(() => checkedFilter('property/differential,contract/*', corpus, ['property/differential', 'contract/schema'])).not.toThrow();
  });
});

describe('--filter on the bundled corpus', () => {
  const ids = (expr: string): string[] => corpus.filter(caseSelector(expr)).map((c) => c.id);

  it('req: with a section prefix takes exactly the cases citing an id of that section', () => {
    const con = ids('req:CON-');
    expect(con.length).toBeGreaterThan(10);
    expect(con).toEqual(corpus.filter((c) => c.requirements.some((r) => r.startsWith('CON-'))).map((c) => c.id));
    // Cases outside constraints/ cite CON ids too: the prefix finds them where they live.
    expect(con.some((id) => !id.startsWith('constraints/'))).toBe(true);
  });

  it('tag: and ! partition the corpus', () => {
    const hostile = ids('tag:hostile');
    const rest = ids('!tag:hostile');
    expect(hostile.length).toBeGreaterThan(0);
    expect(hostile.length + rest.length).toBe(corpus.length);
    expect(hostile.filter((id) => rest.includes(id))).toEqual([]);
  });

  it('run and list take the same cases for one filter', () => {
    const expr = 'tag:boundary+!area:ranked,req:EXP-1';
    const list = cli('list', '--filter', expr);
    expect(list.status).toBe(0);
    const listed = list.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/)[0]);
    const json = join(mkdtempSync(join(tmpdir(), 'ctxc-filter-')), 'run.json');
    const run = cli('run', '--filter', expr, '--properties', '0', '--json', json, '--quiet');
    expect(run.status).toBe(0);
    const ran = (JSON.parse(readFileSync(json, 'utf8')) as Report).cases.map((c) => c.id);
    expect(ran).toEqual(listed);
    expect(ran).toEqual(ids(expr));
    expect((JSON.parse(readFileSync(json, 'utf8')) as Report).run?.filter).toBe(expr);
  });

  it('a filter naming a tag no case has is a usage error (exit 2) for run and list', () => {
    for (const args of [
      ['run', '--filter', 'tag:hostil', '--properties', '0'],
      ['list', '--filter', 'tag:hostil'],
    ]) {
      const r = cli(...args);
      expect(r.status, args[0]).toBe(2);
      expect(r.stderr).toMatch(/--filter tag:hostil: no case has the tag "hostil"/);
    }
  });
});

describe('the help and docs/running.md show each selector', () => {
  it('run --help, list --help and the docs name glob, tag:, req: (id and section), area:, ! and +', () => {
    const help = (cmd: string) => cli(cmd, '--help').stdout;
    const docs = readFileSync(join(ROOT, 'docs/running.md'), 'utf8');
    for (const needle of [
      "'expiry/*'",
      "'tag:boundary'",
      "'req:TIER-4'",
      "'req:CON-'",
      "'area:ranked'",
      "'area:tiers,!tag:rounding'",
      "'req:EXP-+tag:boundary'",
    ])
      expect(help('run'), needle).toContain(needle);
    for (const needle of ['tag:NAME', 'req:ID', 'req:CON-', 'area:NAME', "'area:tiers,!tag:rounding'"]) expect(help('list'), needle).toContain(needle);
    for (const needle of [
      '`tag:NAME`',
      '`req:ID`',
      '`req:SECTION-`',
      '`area:NAME`',
      '`--filter req:CON-`',
      "--filter 'area:tiers,!tag:rounding'",
      "--filter 'req:EXP-+tag:boundary'",
    ])
      expect(docs, needle).toContain(needle);
  });
});

describe('--filter in runSuite', () => {
  it('selects properties by their requirements and area too', async () => {
    const { referenceImplementation } = await import('../../adapters/reference.js');
    const { runSuite } = await import('../../running/run.js');
    const { PROPERTIES } = await import('../../judging/properties/index.js');
    const impl = referenceImplementation();
    const manifest = await impl.describe();
    const gen = { profiles: manifest.profiles, capabilities: manifest.capabilities };
    const run = (filter: string) => runSuite({ cases: corpus, impl, manifest, timeoutMs: 2000, concurrency: 1, properties: 2, seed: 1, filter });
    const want = PROPERTIES.filter((p) => p.requirements(gen).includes('REQ-3')).map((p) => `property/${p.name}`);
    expect(want.length).toBeGreaterThan(0);
    const r = await run('req:REQ-3');
    expect(r.cases.filter((c) => c.kind === 'property').map((c) => c.id)).toEqual(want.sort());
    expect(r.cases.filter((c) => c.kind === 'case').map((c) => c.id)).toEqual(corpus.filter((c) => c.requirements.includes('REQ-3')).map((c) => c.id));
    const none = await run('!area:property');
    expect(none.cases.some((c) => c.kind === 'property')).toBe(false);
    expect(none.cases).toHaveLength(corpus.length);
  });
});

describe('cases/README.md and the corpus agree about tags', () => {
  const readme = readFileSync(join(ROOT, 'cases/README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Tags'), readme.indexOf('## Matchers'));
  const listed = [...section.matchAll(/^\| (`[^|]+`) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([^`]+)`/g)].map((t) => t[1]!));

  it('lists every tag a case carries', () => {
    const used = [...new Set(corpus.flatMap((c) => c.tags))].sort();
    expect(used.filter((t) => !listed.includes(t))).toEqual([]);
  });

  it('lists no tag that no case carries, but those --save-counterexamples writes', () => {
    const used = new Set(corpus.flatMap((c) => c.tags));
    expect(listed.length).toBeGreaterThan(20);
    expect(listed.filter((t) => !used.has(t) && t !== 'counterexample' && t !== 'property-NAME')).toEqual([]);
  });

  it('says --filter takes tags, as the behaviour does', () => {
    expect(readme).toContain('`run --filter tag:NAME`');
    expect(corpus.filter(caseSelector('tag:anchor')).map((c) => c.id)).toEqual(['lesson/demo-budget-120', 'lesson/demo-budget-400']);
  });
});
