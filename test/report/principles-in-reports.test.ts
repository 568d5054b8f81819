/**
 * The principles a run's failures break (SPEC section 18) reach every report,
 * not only the terminal: the JSON report's `principles` (schema-valid), the
 * Markdown and HTML likely cause, where they come first when no known defect
 * explains most failures, and the JUnit property `likely_cause`; a tokenizer
 * design gets them too. A failing case of the any level says what it tests
 * and what its answer broke apart.
 */
import { describe, expect, it } from 'vitest';
import { formatFailure } from '../../running/console.js';
import { validators } from '../../protocol/schemas.js';
import type { Manifest, Report } from '../../protocol/types.js';
import { renderHtml } from '../../report/html.js';
import { renderJunit } from '../../report/junit.js';
import { renderMarkdown } from '../../report/markdown.js';
import { likelyCauseOf } from '../diagnose/likely-cause-of.js';
import { greedy, greedyManifest } from '../fixtures/other-designs/greedy.js';

async function judged(assemble: (r: unknown) => unknown, manifest: Manifest): Promise<Report> {
  const { report, cause } = await likelyCauseOf(assemble, manifest);
  if (!cause) throw new Error('no likely cause: nothing failed');
  return report;
}

describe('the principles in every report', () => {
  it('a design that cuts blocks to fit: ANY-1 leads the JSON, Markdown, HTML and JUnit likely cause', async () => {
    const report = await judged(greedy({ cutToFit: true }), greedyManifest('greedy-cuts'));
    const failing = report.cases.filter((c) => c.status === 'fail').length;
    expect(report.principles?.[0]).toMatchObject({ requirement: 'ANY-1', summary: 'blocks are cut to fit, or parts of dropped blocks appear', failing });
    expect(report.principles![0]!.explains).toBe(failing);
    const valid = validators.report();
    expect(valid(JSON.parse(JSON.stringify(report))), JSON.stringify(valid.errors?.slice(0, 2))).toBe(true);
    const md = renderMarkdown(report);
    const likely = md.slice(md.indexOf('### Likely cause'));
    expect(likely).toMatch(/^### Likely cause\n\nPrinciples broken whatever the design \(SPEC section 18\):\n\n\| principle \|/);
    expect(likely).toContain(`| \`ANY-1\` | blocks are cut to fit, or parts of dropped blocks appear | explains ${failing} of ${failing} failures |`);
    const html = renderHtml(report);
    expect(html.indexOf('id="principles-table"')).toBeGreaterThan(html.indexOf('id="diagnosis"'));
    expect(html).toContain('<code>ANY-1</code></td><td>blocks are cut to fit');
    expect(renderJunit(report)).toMatch(
      new RegExp(
        `<property name="likely_cause" value="blocks are cut to fit, or parts of dropped blocks appear \\(ANY-1\\): explains ${failing} of ${failing} failures`,
      ),
    );
  }, 60_000);

  it('a case of the any level says what it tests and what broke apart', async () => {
    const report = await judged(greedy({ cutToFit: true }), { ...greedyManifest('greedy-cuts'), capabilities: ['pinned'] });
    const own = report.cases.find((c) => c.id.startsWith('any/') && c.status === 'fail' && !c.requirements.includes('ANY-1'));
    expect(own, 'an any case failing for a principle it does not test').toBeDefined();
    expect(own!.broke).toEqual(['ANY-1']);
    expect(formatFailure(own!).split('\n')[0]).toMatch(new RegExp(`^FAIL ${own!.id}  tests: ${own!.requirements.join(', ')}  broke: ANY-1$`));
  }, 60_000);

  it('a tokenizer design gets its principle lines too', async () => {
    const manifest: Manifest = {
      ...greedyManifest('greedy-o200k'),
      design: { estimator: { tokenizer: 'o200k_base' }, render: greedyManifest().design!.render },
    };
    // Kept whole at the budget under ceil(length / 4), which o200k counts otherwise: overruns and cuts, read under the declared tokenizer.
    const report = await judged(greedy({ cutToFit: true }), manifest);
    expect((report.principles ?? []).map((p) => p.requirement)).toContain('ANY-1');
  }, 60_000);
});
