/**
 * The GitHub Action (action.yml): a composite action whose only network is the
 * package install and the artifact upload, whose inputs never reach a script
 * as text, and whose run and gate steps, executed here as the runner executes
 * them (bash -eo pipefail, GITHUB_* files), run the kit, fill the step summary
 * and the outputs, and fail the job exactly when the kit says so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Report } from '../protocol/types.js';
import { CLI, ROOT } from './cli.js';
import { pythonAvailable } from './fixtures/reports/build.js';

interface Step {
  name: string;
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
const step = (name: string): Step => action.runs.steps.find((s) => s.name === name)!;

describe('action.yml', () => {
  it('is a composite action: install, run, upload, gate', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.map((s) => s.name)).toEqual(['Install ctxconform', 'Run ctxconform', 'Upload the reports', 'Gate on the result']);
    expect(action.runs.steps.filter((s) => s.run).every((s) => s.shell === 'bash')).toBe(true);
  });

  it('reaches the network only to install the package and upload the reports', () => {
    const scripts = action.runs.steps.map((s) => s.run ?? '').join('\n');
    expect(action.runs.steps.filter((s) => s.uses).map((s) => s.uses)).toEqual(['actions/upload-artifact@v4']);
    expect(scripts).not.toMatch(/\b(curl|wget|npx|npm (i|install)|git clone|pip)\b/);
    expect(scripts.match(/^\s*npm\b.*$/gm)!.map((l) => l.trim())).toEqual(['npm ci --ignore-scripts --no-audit --no-fund', 'npm run build']);
    // The upload runs even when the run failed, so the reports are there to read.
    expect(step('Upload the reports').if).toBe("always() && inputs.upload == 'true'");
  });

  it('passes every input to the scripts through the environment, never as script text', () => {
    for (const s of action.runs.steps) expect(s.run ?? '', s.name).not.toMatch(/\$\{\{/);
    const env = step('Run ctxconform').env!;
    for (const name of Object.keys(action.inputs).filter((n) => n !== 'upload' && n !== 'artifact-name')) {
      expect(env[`INPUT_${name.toUpperCase()}`], name).toBe(`\${{ inputs.${name} }}`);
    }
  });

  it('is the example of docs/reports.md, with its inputs described there', () => {
    const docs = readFileSync(join(ROOT, 'docs/reports.md'), 'utf8');
    // The kit is a git submodule of the vendor's repository, the action used from its path (README "Install": no registry, no placeholder).
    expect(docs).toMatch(/with: \{ submodules: true \}[\s\S]*- uses: \.\/ctxconform\n/);
    for (const name of Object.keys(action.inputs)) expect(docs, name).toContain(`| \`${name}\` |`);
    for (const name of Object.keys(action.outputs)) expect(docs, name).toContain(`\`${name}\``);
  });
});

/** Run a step's script as the runner does, with the inputs as environment variables. */
function runStep(s: Step, env: Record<string, string>, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const script = join(cwd, `${s.name.replace(/\W/g, '-')}.sh`);
  writeFileSync(script, s.run!);
  const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '', CI: 'true', ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function outputs(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** The run step, then the gate step with the run's status, in a fresh workspace. */
function runAction(inputs: Record<string, string>): {
  workspace: string;
  out: Record<string, string>;
  summary: string;
  gate: number | null;
  run: ReturnType<typeof runStep>;
} {
  const workspace = mkdtempSync(join(tmpdir(), 'ctxc-action-'));
  const files = { GITHUB_OUTPUT: join(workspace, 'output'), GITHUB_STEP_SUMMARY: join(workspace, 'summary') };
  writeFileSync(files.GITHUB_OUTPUT, '');
  writeFileSync(files.GITHUB_STEP_SUMMARY, '');
  const env = { CTXCONFORM: CLI, INPUT_REPORTS: 'ctxconform-reports', INPUT_REPEAT: '1', INPUT_PROPERTIES: '0', ...files, ...inputs };
  const run = runStep(step('Run ctxconform'), env, workspace);
  const out = outputs(files.GITHUB_OUTPUT);
  const gate = runStep(step('Gate on the result'), { STATUS: out.status ?? '' }, workspace).status;
  return { workspace, out, summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'), gate, run };
}

describe('the action run against implementations', () => {
  it('the reference: status 0, the summary written, the reports there, the job passes', () => {
    const { workspace, out, summary, gate, run } = runAction({ INPUT_FILTER: 'tag:boundary' });
    expect(run.status, run.stderr).toBe(0);
    expect(out).toEqual({ status: '0', score: '100%', report: 'ctxconform-reports/ctxconform.json' });
    expect(summary).toMatch(/^## ✅ ctxconform: ctxconform-reference/);
    for (const f of ['ctxconform.json', 'junit.xml', 'summary.md', 'report.html', 'badge.svg', 'badge.json'])
      expect(existsSync(join(workspace, 'ctxconform-reports', f)), f).toBe(true);
    const report = JSON.parse(readFileSync(join(workspace, out.report!), 'utf8')) as Report;
    expect(report.run?.filter).toBe('tag:boundary');
    expect(gate).toBe(0);
  });

  it.runIf(pythonAvailable())('the Python example over stdio: the command is one input, status 0', () => {
    const r = runAction({ INPUT_STDIO: `python3 ${join(ROOT, 'adapters/examples/python/impl.py')}` });
    expect(r.out.status, r.run.stderr).toBe('0');
    expect(r.summary).toMatch(/^## ✅ ctxconform: ctxconform-python-example/);
    expect((JSON.parse(readFileSync(join(r.workspace, r.out.report!), 'utf8')) as Report).run?.adapter).toBe('stdio');
  });

  it('a broken implementation: status 1, the failures in the summary, the job fails after the reports are written', () => {
    const broken = runAction({
      INPUT_MODULE: join(ROOT, 'test/fixtures/broken/ceil-estimate.ts'),
      INPUT_ARGS: `--filter 'numbers/*,!tag:ties' --timeout "3000"`,
    });
    expect(broken.run.status).toBe(0);
    expect(broken.out.status).toBe('1');
    expect(broken.summary).toMatch(/^## ❌ ctxconform: broken-ceil-estimate/);
    expect(broken.summary).toContain('numbers/floor-not-round');
    const report = JSON.parse(readFileSync(join(broken.workspace, broken.out.report!), 'utf8')) as Report;
    // Quotes in args are honoured: the filter arrived as one word with its comma and !.
    expect(report.run?.filter).toBe('numbers/*,!tag:ties');
    expect(broken.gate).toBe(1);
  });

  it('expands nothing in args: a command substitution is a word, and the kit refuses it', () => {
    const marker = join(tmpdir(), `ctxc-pwned-${process.pid}`);
    const r = runAction({ INPUT_ARGS: `--seed '$(touch ${marker}) \`touch ${marker}\`'` });
    expect(existsSync(marker)).toBe(false);
    expect(r.out.status).toBe('2');
    expect(r.out.score).toBe('n/a');
    expect(r.summary).toMatch(/^### ctxconform could not run\n\n```\nctxconform run: --seed needs an integer, not "\$\(touch/);
    expect(r.gate).toBe(2);
  });
});
