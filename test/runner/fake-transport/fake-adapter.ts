/**
 * The adapter of test/runner/transport-registry.test.ts's made-up transport:
 * answers as the reference does, or with one wrong habit, and keeps a log of
 * what it opened and closed for the test to read.
 */
import { fromFunctions } from '../../../adapters/inprocess.js';
import type { Implementation, Manifest } from '../../../protocol/types.js';
import { assemble, describe } from '../../../reference/index.js';

export const fakeLog = { opened: [] as string[], closed: 0 };

export function openFake(name: string, flavour: string | undefined): { impl: Implementation; manifest: Manifest } {
  fakeLog.opened.push(name);
  const wrong = flavour === 'trailing-newline';
  const manifest: Manifest = { ...describe(), name: `fake-${name}`, capabilities: [] };
  const impl = fromFunctions(
    (r) => {
      const a = assemble(r, { capabilities: [] }) as { context?: string };
      return wrong && typeof a.context === 'string' ? { ...a, context: `${a.context}\n` } : a;
    },
    undefined,
    manifest,
  );
  const close = impl.close.bind(impl);
  impl.close = async () => {
    fakeLog.closed++;
    await close();
  };
  return { impl, manifest };
}
