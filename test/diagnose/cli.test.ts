/**
 * The diagnosis's acceptance test through the real command line over stdio: the
 * compiled `ctxconform run` against the defect model in another process
 * (test/fixtures/diagnose/model-stdio.ts), its answers arriving as JSON text.
 * One defect is the one likely cause; two defects are both named in the top
 * two. (In process, and replay and sweep: run.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../diagnosis/index.js';
import { FAILING } from '../../protocol/types.js';
import type { Report } from '../../protocol/types.js';
import { cli } from '../cli.js';
import { fixtureCommand } from '../fixture-command.js';

const fixture = fileURLToPath(new URL('../fixtures/diagnose/model-stdio.ts', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-diagnose-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function runOver(manifest: 'full' | 'core', ids: string[]): { status: number | null; stdout: string; report: Report } {
  const json = join(tmp, `${manifest}-${ids.join('-')}.json`);
  const r = cli('run', '--stdio', fixtureCommand(fixture, manifest, ids.join(',')), '--properties', '10', '--quiet', '--json', json);
  return { status: r.status, stdout: r.stdout, report: JSON.parse(readFileSync(json, 'utf8')) as Report };
}

describe('ctxconform run over stdio', () => {
  it('one defect (the remainder in the pool, as in a vendor Python assembler) is the one likely cause, shown after the failures and before the summary', () => {
    const { status, stdout, report } = runOver('core', ['remainder-in-pool']);
    const failing = report.cases.filter((c) => FAILING.has(c.status)).length;
    expect(status).toBe(1);
    expect(report.diagnosis?.map((c) => [c.id, c.explains, c.failing, c.contradicts])).toEqual([['remainder-in-pool', failing, failing, 0]]);
    const entry = CATALOGUE.find((e) => e.id === 'remainder-in-pool')!;
    const block =
      `likely cause (known defects whose model answers exactly as the implementation did; docs/diagnosis.md):\n` +
      `  remainder-in-pool [TIER-6]: ${entry.summary} — explains ${failing} of ${failing} failures, contradicts none\n`;
    const at = stdout.indexOf(block);
    expect(at).toBeGreaterThan(stdout.lastIndexOf('\nFAIL '));
    expect(stdout.indexOf('\narea ')).toBeGreaterThan(at);
  });

  // One pair here; stdio.test.ts draws more at the diagnose() level.
  it.each([['remainder-in-pool', 'inclusive-expiry']])('two defects, %s and %s, are both named in the top two', (a, b) => {
    const { status, report } = runOver('full', [a!, b!]);
    expect(status).toBe(1);
    const named = report.diagnosis!.slice(0, 2).flatMap((c) => c.defects ?? [c.id]);
    expect(named).toEqual(expect.arrayContaining([a, b]));
  });
});
