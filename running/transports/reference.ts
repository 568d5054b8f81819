/** `--impl reference`: the built-in reference assembler, in this process (the default). */
import { defineTransport } from '../transports.js';

/** The reference takes no config: the selecting option only names it. */
export type ReferenceConfig = Record<string, never>;

declare module '../transports.js' {
  interface TransportConfigs {
    reference: ReferenceConfig;
  }
}

export default defineTransport<'reference'>({
  name: 'reference',
  option: 'impl',
  metavar: 'reference',
  help: 'the built-in reference assembler',
  choices: ['reference'],
  kind: 'assembler',
  rank: 10,
  isDefault: true,
  concurrency: 1,
  takesManifest: true,
  trustsDescribe: true,
  async open(_config, { manifest }) {
    const { referenceImplementation } = await import('../../adapters/reference.js');
    const impl = referenceImplementation(manifest);
    return { impl, manifest: await impl.describe(), target: 'reference' };
  },
});
