import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { buildDemo, DemoError } from '../running/demo.js';
import type { DemoInput, DemoOutput } from '../running/demo.js';
import { UsageError } from './usage.js';
import { packagePath } from '../protocol/package-root.js';
import { out } from './output.js';

export const usage = 'ctxconform demo [--input FILE] --out FILE';

const DEFAULT_INPUT = packagePath('running', 'demo', 'blocks.json');

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { input: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) {
    out(`usage: ${usage}\n\nWithout --input, uses the kit's own block set (running/demo/blocks.json).`);
    return 0;
  }
  if (!values.out) throw new UsageError(`--out FILE is required\nusage: ${usage}`);
  let input: DemoInput;
  const source = values.input ?? DEFAULT_INPUT;
  try {
    input = JSON.parse(readFileSync(source, 'utf8')) as DemoInput;
  } catch (e) {
    throw new UsageError(`cannot read ${String(values.input ?? 'the default block set')}: ${(e as Error).message}`);
  }
  let demo: DemoOutput;
  try {
    demo = buildDemo(input);
  } catch (e) {
    if (e instanceof DemoError) throw new UsageError(e.message);
    throw e;
  }
  mkdirSync(dirname(values.out), { recursive: true });
  writeFileSync(values.out, JSON.stringify(demo, null, 1) + '\n');
  for (const [name, r] of [
    ['large', demo.large_budget],
    ['small', demo.small_budget],
  ] as const) {
    out(`${name} budget ${r.total_budget}: ${r.included.length} included, ${r.omissions.length} omitted, ${r.estimated_tokens} tokens`);
  }
  out(`wrote ${values.out}`);
  return 0;
}
