/**
 * A made-up transport's registry entry, as a new transport's would be in
 * running/transports/: its options, its typed config and how it opens
 * (its adapter, ../fake-adapter.ts, imported only then).
 */
import { ConfigError } from '../../../../vocabulary/errors.js';
import { defineTransport } from '../../../../running/transports.js';

export interface FakeConfig {
  name: string;
  /** A wrong habit to answer with. */
  flavour?: string;
}

declare module '../../../../running/transports.js' {
  interface TransportConfigs {
    fake: FakeConfig;
  }
}

export default defineTransport<'fake'>({
  name: 'fake',
  option: 'fake',
  metavar: 'NAME',
  help: 'an implementation this test makes up',
  key: 'name',
  kind: 'assembler',
  rank: 100,
  concurrency: 2,
  takesManifest: true,
  options: { 'fake-flavour': { key: 'flavour', type: 'string', metavar: 'HABIT', help: 'a wrong habit to answer with' } },
  check({ name }) {
    if (name === 'nobody') throw new ConfigError('name', 'names nobody');
  },
  async open({ name, flavour }) {
    const { openFake } = await import('../fake-adapter.js');
    return { ...openFake(name, flavour), target: `fake:${name}` };
  },
});
