/**
 * Baseline entries keyed to the failure: a vendor baselines
 * `property/differential` as by-design (its own segment separator,
 * vendor-v1.ts); its next build (vendor-v2.ts) keeps the departure and adds an
 * unrelated expiry defect. The by-design entry must not excuse the new
 * failure: the run fails and names it. In process and over stdio; for run,
 * replay and sweep; and a baseline of a kit before keys still works, with a
 * warning that says how to re-key it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { applyBaseline, formatBaseline, loadBaselineEntries, updateBaseline } from '../../judging/baseline.js';
import { replay } from '../../traffic/replay/run.js';
import { runSuite } from '../../running/run.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { Implementation, Manifest, Report } from '../../protocol/types.js';
import { verdictLine } from '../../report/text.js';
import { verdict } from '../../protocol/verdict.js';
import * as v1 from '../fixtures/replay/vendor-v1.js';
import * as v2 from '../fixtures/replay/vendor-v2.js';
import { cliWith, ROOT } from '../cli.js';
import { fixtureCommand } from '../fixture-command.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-keys-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const at = (name: string): string => join(tmp, name);
const V1 = join(ROOT, 'test/fixtures/replay/vendor-v1.ts');
const V2 = join(ROOT, 'test/fixtures/replay/vendor-v2.ts');
const overStdio = (module: string): string => fixtureCommand(join(ROOT, 'test/fixtures/replay/module-stdio.ts'), module);
const REASON = 'our own segment separator (ADR 12)';

const properties = (impl: Implementation, manifest: Manifest): Promise<Report> =>
  runSuite({ cases: [], impl, manifest, timeoutMs: 10_000, concurrency: 2, properties: 100, seed: 1 });

/** The vendor's baseline, made from the v1 report and with its departure marked by design. */
function vendorBaseline(v1Report: Report, file: string): string {
  const entries = updateBaseline({}, v1Report).entries;
  for (const id of Object.keys(entries)) Object.assign(entries[id]!, { kind: 'by-design', reason: REASON });
  writeFileSync(file, formatBaseline(entries));
  return file;
}

describe('a by-design differential entry and a new unrelated defect, in process', () => {
  let v1Report: Report;
  let baseline: string;
  beforeAll(async () => {
    v1Report = await properties(fromFunctions(v1.assemble, v1.describe), v1.describe());
    baseline = vendorBaseline(v1Report, at('vendor-baseline.json'));
  });

  it('the entry records the failure it accepts: the differing members and paths of the shrunk counterexample', () => {
    const entries = loadBaselineEntries(baseline);
    expect(entries['property/differential']).toMatchObject({ status: 'fail', kind: 'by-design', defect: { members: ['context'], paths: ['/context'] } });
    const valid = validators.baseline();
    expect(valid(JSON.parse(readFileSync(baseline, 'utf8'))), formatErrors(valid.errors).join('; ')).toBe(true);
  });

  it('excuses the build it was made for', () => {
    const applied = applyBaseline(v1Report, baseline);
    expect(applied.unexpected).toEqual([]);
    expect(verdict(applied.report).passed).toBe(true);
    expect(verdictLine(applied.report)).toMatch(/^PASS \(deviations by design only\)/);
  });

  it('fails the next build: its differential failure is another defect, reported as new', async () => {
    const v2Report = await properties(fromFunctions(v2.assemble, v2.describe), v2.describe());
    const differential = v2Report.cases.find((c) => c.id === 'property/differential')!;
    // The same status as the entry: matched by status alone, the new defect would hide under the by-design reason.
    expect(differential.status).toBe('fail');
    const applied = applyBaseline(v2Report, baseline);
    expect(applied.unexpected.map((c) => c.id)).toContain('property/differential');
    expect(applied.changed.map((x) => x.result.id)).toEqual(['property/differential']);
    expect(applied.report.baseline?.changed).toEqual(['property/differential']);
    expect(applied.report.baseline?.known).not.toContain('property/differential');
    expect(verdict(applied.report).passed).toBe(false);
    expect(verdictLine(applied.report)).toMatch(/^FAIL: /);
  });
});

describe('the same over stdio, from the command line', () => {
  const cli = (...args: string[]) => cliWith({}, ...args);

  it('run: the by-design entry passes v1; v2 fails, and the terminal names the new failure first', () => {
    const first = cli('run', '--stdio', overStdio(V1), '--cases', 'none', '--json', at('v1.json'), '--quiet');
    expect(first.status, first.stdout).toBe(1);
    const made = cli('baseline', at('v1.json'), '--write', at('stdio-baseline.json'));
    expect(made.status, made.stderr).toBe(0);
    const entries = JSON.parse(readFileSync(at('stdio-baseline.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    for (const e of Object.values(entries)) Object.assign(e, { kind: 'by-design', reason: REASON });
    writeFileSync(at('stdio-baseline.json'), JSON.stringify(entries, null, 2));

    const again = cli('run', '--stdio', overStdio(V1), '--cases', 'none', '--baseline', at('stdio-baseline.json'), '--quiet');
    expect(again.status, again.stdout).toBe(0);
    expect(again.stdout).toMatch(/^PASS \(deviations by design only\): /m);

    const next = cli(
      'run',
      '--stdio',
      overStdio(V2),
      '--cases',
      'none',
      '--baseline',
      at('stdio-baseline.json'),
      '--json',
      at('v2.json'),
      '--markdown',
      at('v2.md'),
      '--quiet',
    );
    expect(next.status, next.stdout).toBe(1);
    expect(next.stdout).toMatch(
      /^NEW FAILURE of property\/differential: not the failure its baseline entry accepts \(members context; paths \/context\); this one: members .*omissions/m,
    );
    expect(next.stdout).toMatch(/^new failures of baselined ids \(another defect than the entry accepts\): property\/differential$/m);
    expect(next.stdout).toMatch(/^FAIL: /m);
    const report = JSON.parse(readFileSync(at('v2.json'), 'utf8')) as Report;
    expect(report.baseline?.changed).toEqual(['property/differential']);
    // The reports do not show it under the by-design reason either.
    expect(readFileSync(at('v2.md'), 'utf8')).toMatch(/\*\*FAIL: /);
  });

  it('an entry without a key (a baseline of a kit before keys) matches by status, with a warning that says how to re-key', () => {
    writeFileSync(
      at('old-baseline.json'),
      JSON.stringify({ 'property/differential': 'fail', 'property/whole-blocks': { status: 'fail', kind: 'by-design', reason: REASON } }),
    );
    const old = cli('run', '--stdio', overStdio(V2), '--cases', 'none', '--baseline', at('old-baseline.json'), '--json', at('old.json'), '--quiet');
    expect(old.stdout).toMatch(
      new RegExp(
        String.raw`^warning: baseline entries without a defect key, accepting any failure with their status: property/differential, property/whole-blocks; ` +
          String.raw`re-key: (?:npx ctxconform|node \S*bin/ctxconform\.mjs) baseline REPORT\.json --write \S*old-baseline\.json`,
        'm',
      ),
    );
    expect((JSON.parse(readFileSync(at('old.json'), 'utf8')) as Report).baseline?.unkeyed).toEqual(['property/differential', 'property/whole-blocks']);
    // Re-keyed from that run's report, the entries keep their kind and reason and get the key.
    const rekeyed = cli('baseline', at('old.json'), '--write', at('old-baseline.json'));
    expect(rekeyed.status).toBe(0);
    expect(rekeyed.stdout).toMatch(/2 re-keyed/);
    expect(JSON.parse(readFileSync(at('old-baseline.json'), 'utf8'))).toMatchObject({
      'property/whole-blocks': { kind: 'by-design', reason: REASON, defect: { members: expect.any(Array) } },
    });
  });
});

describe('replay and sweep --baseline: the same semantics', () => {
  const cli = (...args: string[]) => cliWith({}, ...args);
  // A request the separator shows on (two included blocks), and one at an expiry instant (v2's defect).
  const twoBlocks = {
    now: 100,
    budget: 100,
    blocks: [
      { block_id: 'a', source: 'memory', content: 'first block', priority: 1 },
      { block_id: 'b', source: 'knowledge', content: 'second block', priority: 1 },
    ],
  };
  const atExpiry = {
    ...twoBlocks,
    blocks: [...twoBlocks.blocks, { block_id: 'c', source: 'memory', content: 'expires now', priority: 1, created_at: 40, ttl_seconds: 60 }],
  };

  it('replay in process: v1 baselined, v2 fails the request whose failure is another defect', async () => {
    const file = at('traffic.jsonl');
    writeFileSync(file, `${JSON.stringify(twoBlocks)}\n${JSON.stringify(atExpiry)}\n`);
    const run = (impl: Implementation, manifest: Manifest) =>
      replay({ sources: [{ path: file, label: 'traffic.jsonl' }], impl, manifest, timeoutMs: 10_000, concurrency: 1, twice: true, shrink: 10, maxListed: 100 });
    const first = await run(fromFunctions(v1.assemble, v1.describe), v1.describe());
    expect(first.cases.map((c) => c.status)).toEqual(['fail', 'fail']);
    const baseline = vendorBaseline(first, at('replay-baseline.json'));
    expect(applyBaseline(first, baseline).unexpected).toEqual([]);
    const next = await run(fromFunctions(v2.assemble, v2.describe), v2.describe());
    const applied = applyBaseline(next, baseline);
    expect(applied.changed.map((x) => x.result.id)).toEqual(['replay/traffic.jsonl:2']);
    expect(applied.report.baseline?.known).toEqual(['replay/traffic.jsonl:1']);
  });

  it('replay and sweep over stdio take --baseline, and say so in their help', () => {
    for (const command of ['replay', 'sweep']) expect(cli(command, '--help').stdout).toContain('--baseline FILE');
    const first = cli('replay', at('traffic.jsonl'), '--stdio', overStdio(V1), '--json', at('replay-v1.json'), '--quiet');
    expect(first.status).toBe(1);
    expect(cli('baseline', at('replay-v1.json'), '--write', at('replay-cli-baseline.json')).status).toBe(0);
    const same = cli('replay', at('traffic.jsonl'), '--stdio', overStdio(V1), '--baseline', at('replay-cli-baseline.json'), '--quiet');
    expect(same.status, same.stdout).toBe(0);
    expect(same.stdout).toMatch(/^PASS \(known failures only\): /m);
    const next = cli('replay', at('traffic.jsonl'), '--stdio', overStdio(V2), '--baseline', at('replay-cli-baseline.json'), '--quiet');
    expect(next.status, next.stdout).toBe(1);
    expect(next.stdout).toMatch(/^NEW FAILURE of replay\/\S*traffic\.jsonl:2: /m);

    writeFileSync(at('sweep.jsonl'), `${JSON.stringify(twoBlocks)}\n`);
    const sweep1 = cli('sweep', '--request', at('sweep.jsonl'), '--stdio', overStdio(V1), '--json', at('sweep-v1.json'));
    expect(sweep1.status).toBe(1);
    expect(cli('baseline', at('sweep-v1.json'), '--write', at('sweep-baseline.json')).status).toBe(0);
    const sweep2 = cli('sweep', '--request', at('sweep.jsonl'), '--stdio', overStdio(V1), '--baseline', at('sweep-baseline.json'));
    expect(sweep2.status, sweep2.stdout).toBe(0);
    expect(cli('sweep', '--request', at('sweep.jsonl'), '--baseline', at('nope.json')).status).toBe(2);
  });
});
