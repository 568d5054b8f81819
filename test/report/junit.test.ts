import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../protocol/types.js';
import { junitNames, renderJunit } from '../../report/junit.js';
import { xmlAttr, xmlText } from '../../report/xml.js';
import { brokenRun, corpusCases, fixtureCases, pythonAvailable, pythonRun, referenceRun } from '../fixtures/reports/build.js';
import { hostileReport } from '../fixtures/reports/hostile-report.js';
import { all, parseXml } from './xml.js';
import type { El } from './xml.js';

let reference: Report;
let broken: Report;
let brokenCorpus: Report;
let python: Report | undefined;

beforeAll(async () => {
  const cases = [...corpusCases(), ...fixtureCases()];
  reference = await referenceRun(cases);
  broken = await brokenRun(fixtureCases());
  brokenCorpus = await brokenRun(cases);
  if (pythonAvailable()) python = await pythonRun(fixtureCases());
});

const suite = (root: El, name: string): El => {
  const s = all(root, 'testsuite').find((e) => e.attrs.name === name);
  if (!s) throw new Error(`no testsuite ${name}`);
  return s;
};
const testcase = (root: El, classname: string, name: string): El => {
  const t = all(root, 'testcase').find((e) => e.attrs.classname === classname && e.attrs.name === name);
  if (!t) throw new Error(`no testcase ${classname} ${name}`);
  return t;
};

describe('JUnit XML', () => {
  it('names a testcase from the id: classname is the path, name the last segment', () => {
    expect(junitNames('expiry/boundary-equal')).toEqual({ classname: 'expiry', name: 'boundary-equal' });
    expect(junitNames('a/b/c')).toEqual({ classname: 'a.b', name: 'c' });
    expect(junitNames('solo')).toEqual({ classname: 'solo', name: 'solo' });
  });

  it('is well-formed for every real run, with the totals of the JSON report', () => {
    const reports = [reference, broken, brokenCorpus, ...(python ? [python] : [])];
    for (const r of reports) {
      const root = parseXml(renderJunit(r));
      expect(root.name).toBe('testsuites');
      expect(Number(root.attrs.tests)).toBe(r.summary.total);
      expect(Number(root.attrs.failures)).toBe(r.summary.fail);
      expect(Number(root.attrs.errors)).toBe(r.summary.error + r.summary.timeout + r.summary.crash);
      expect(Number(root.attrs.skipped)).toBe(r.summary.skip);
      expect(all(root, 'testcase')).toHaveLength(r.cases.length);
      const areas = new Set(r.cases.map((c) => c.id.split('/')[0]));
      expect(
        all(root, 'testsuite')
          .map((s) => s.attrs.name)
          .sort(),
      ).toEqual([...areas].sort());
    }
  });

  it('reports the broken implementation: failures with expected and actual, the crash as an error of type crash', () => {
    const root = parseXml(renderJunit(broken));
    const render = testcase(root, 'render', 'two-sources');
    const failure = render.children.find((c) => c.name === 'failure')!;
    expect(failure.attrs.type).toBe('fail');
    expect(failure.attrs.message).toContain('included: expected ["b-1","b-2"], got ["b-2","b-1"]');
    expect(failure.text).toContain('requirements: REN-1, REN-2, REN-3');
    expect(failure.text).toMatch(/expected:\n\{\n {2}"included": \[/);
    expect(failure.text).toContain('actual:');
    expect(failure.text).toContain("rerun: npx ctxconform run --filter 'render/two-sources'");
    const tiny = testcase(root, 'budget', 'tiny').children.find((c) => c.name === 'error')!;
    expect(tiny.attrs.type).toBe('crash');
    expect(tiny.attrs.message).toBe('assemble threw: RangeError: budget 7 is too small to split');
    const budget = suite(root, 'budget');
    expect([budget.attrs.tests, budget.attrs.failures, budget.attrs.errors, budget.attrs.skipped]).toEqual(['2', '0', '1', '0']);
    expect(testcase(root, 'expiry', 'expired-first').children).toEqual([]);
    const props = Object.fromEntries(all(suite(root, 'render'), 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props).toMatchObject({ implementation: 'broken-reverse 0.0.1', spec: 'v1', adapter: 'module' });
  });

  it.runIf(pythonAvailable())('gives the skipped cases of the Python example with their reason', () => {
    const root = parseXml(renderJunit(python!));
    const skipped = testcase(root, 'ranked', 'one-line').children.find((c) => c.name === 'skipped')!;
    expect(skipped.attrs.message).toBe('profile ranked is not declared by the implementation');
    expect(testcase(root, 'capabilities', 'pinned-first').children[0]!.attrs.message).toBe('capability pinned not declared by the implementation');
  });

  it('keeps hostile strings as text: parsed back, they read as the original minus what XML 1.0 cannot hold', () => {
    const r = hostileReport();
    const xml = renderJunit(r);
    const root = parseXml(xml);
    expect(xml).not.toContain('\u001b');
    const fail = testcase(root, 'hostile', 'fail-one');
    const err = fail.children.find((c) => c.name === 'system-err')!;
    // ANSI escapes are gone, lone surrogates are U+FFFD, characters XML cannot hold are visible escapes.
    expect(err.text).toContain('red ');
    expect(err.text).toContain('lone \ufffd and \ufffd and pair \ud83d\ude00');
    expect(err.text).toContain('ctl \\u0000\\u0001\\u0008\\u000b\\u000c\\u001f\u007f \\ufffe\\uffff');
    expect(err.text).toContain('<script>window.__pwned=1;alert(1)</script>');
    expect(err.text).toContain(']]> <![CDATA[ x ]]>');
    const failure = fail.children.find((c) => c.name === 'failure')!;
    // Line breaks in an attribute survive as character references.
    expect(failure.attrs.message).toContain('\r\nline\rbreaks\n# heading');
    expect(testcase(root, 'hostile', 'timeout-one').children[0]!.attrs.type).toBe('timeout');
    expect(testcase(root, 'hostile', 'timeout-one').children[0]!.attrs.message!.startsWith('[known failure] ')).toBe(true);
    // The stale baseline id is a failing testcase of its own.
    const stale = suite(root, 'baseline');
    expect(stale.children[0]!.attrs.classname).toBe('baseline.stale');
    expect(Number(root.attrs.failures)).toBe(r.summary.fail + 1);
  });

  it('escapes any string into legal XML 1.0 text and attributes (property)', () => {
    const anyString = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom('\ud800', '\udc00', '\u0000', '\u001b', '[31m', ']]>', '<', '&', '"', "'", '\r', '\n', '\t', '\ufffe', 'a', '😀') }),
    );
    // Every string parses; one with nothing to replace (legal XML characters, surrogate pairs
    // included, and no escape introducer ESC or CSI) reads back unchanged.
    const nothingToReplace = /^(?:[\t\n\r\u0020-\u009a\u009c-\ud7ff\ue000-\ufffd]|[\ud800-\udbff][\udc00-\udfff])*$/;
    let roundTrips = 0;
    fc.assert(
      fc.property(anyString, (s) => {
        const root = parseXml(`<r a="${xmlAttr(s)}">${xmlText(s)}</r>`);
        if (!nothingToReplace.test(s)) return;
        roundTrips++;
        expect(root.attrs.a).toBe(s);
        expect(root.text).toBe(s);
      }),
      { seed: 5, numRuns: 500 },
    );
    expect(roundTrips).toBeGreaterThan(50);
  });

  it('stays well-formed for the hostile fixture case run through the broken implementation', () => {
    const hostile = broken.cases.find((c) => c.id === 'hostile/markup-ids')!;
    expect(hostile.status).toBe('fail');
    const root = parseXml(renderJunit(broken));
    const text = testcase(root, 'hostile', 'markup-ids').children[0]!.text;
    expect(text).toContain('<script>window.__pwned=1;alert(1)</script>');
    expect(text).not.toContain('\u001b');
  });
});
