/**
 * `ctxconform constants <implementation options> [--json FILE]`: the
 * constants probe. Exit 0 when every constant matches the specification (or
 * the manifest's declared constants), 1 on any drift (or a constant that could
 * not be determined), 2 for usage errors.
 */
import { kitCommand } from './invocation.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { formatProbe, probeConstants } from '../diagnosis/constants/index.js';
import { chooseImplementation, drivingOptions, loadImplementationOptions, transportUsage } from './implementation.js';
import { implementationHelp, withImplementation } from './drive.js';
import { KIT_VERSION } from '../vocabulary/spec.js';
import { UsageError } from './usage.js';
import { out } from './output.js';

export const usage = (): string => `ctxconform constants [${transportUsage()}] [--manifest FILE] [--timeout MS] [--json FILE]`;

const HELP = (): string => `usage: ${usage()}

Infers, from black-box answers to tiny tiered requests, the implementation's
chars per token and estimate rounding, length unit, tier fractions, the tier of
each listed source and of unknown and wrong-case ones, the overflow pool and the
rounding remainder, the tie-break rule and the expiry boundary; prints expected
vs detected for each (SPEC.md section 15).

Expected are the specification's constants, or those the manifest declares
("constants": chars_per_token, tier_fractions, source_to_tier; SPEC.md section
17). Pin yours in a manifest file and give it with --manifest FILE: the run
fails when a change to the implementation moves one (docs/constants.md).

${implementationHelp()}

  --json FILE             also write the table as JSON

Exit status: 0 all match, 1 drift or undetermined, 2 usage error.`;

export async function run(argv: string[]): Promise<number> {
  await loadImplementationOptions();
  const { values } = parseArgs({ args: argv, options: { ...drivingOptions(), json: { type: 'string' }, help: { type: 'boolean' } } });
  if (values['help']) {
    out(HELP());
    return 0;
  }
  const json = typeof values['json'] === 'string' ? values['json'] : undefined;
  return withImplementation(await chooseImplementation(values, ['assembler']), async (opened) => {
    if (!opened.manifest.profiles.includes('tiered')) {
      // The probe reads tiered's constants off the answers: a design of its own has none of tiered's to read.
      throw new UsageError(
        opened.manifest.profiles.includes('any')
          ? `${opened.manifest.name} declares a design of its own ("profiles": ${JSON.stringify(opened.manifest.profiles)}), ` +
              `and the probe infers only tiered's constants (characters per token, tier fractions, each source's tier) from ` +
              `answers that follow tiered's algorithm: of an any design it can infer nothing, and its estimator, render and fill are what its manifest declares (design), judged by ${kitCommand()} run`
          : `${opened.manifest.name} does not declare the tiered profile: the probe infers tiered's constants, and ${JSON.stringify(opened.manifest.profiles)} has none of them`,
      );
    }
    const probed = await probeConstants(opened.impl, opened.manifest, { timeoutMs: opened.timeoutMs });
    const report = opened.redactor.holdsSecrets ? opened.redactor.value(probed) : probed;
    out(formatProbe(report));
    if (json) {
      mkdirSync(dirname(json), { recursive: true });
      writeFileSync(
        json,
        JSON.stringify({ kit: { name: 'ctxconform', version: KIT_VERSION }, adapter: opened.adapter, target: opened.target, ...report }, null, 2) + '\n',
      );
      out(`wrote ${json}`);
    }
    return report.drift ? 1 : 0;
  });
}
