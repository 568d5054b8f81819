/**
 * `ctxconform/vitest`: the conformance suite inside a vendor's own vitest run
 * (running/vitest.ts defines it), the implementation named as on the
 * command line or by its transport's typed config:
 *
 *   // conformance.test.ts
 *   import { defineConformanceSuite } from 'ctxconform/vitest';
 *   defineConformanceSuite({ stdio: 'python3 impl.py' });
 *   defineConformanceSuite({ transport: 'stdio', config: { command: 'python3 impl.py', processes: 2 } });
 *
 * A failing case says the `ctxconform run` command that reruns it outside
 * vitest. The package is compiled JavaScript with declarations: vitest needs
 * no configuration for it.
 */
import { shellQuote } from '../running/console.js';
import { openImplementation, type TransportChoice } from '../running/open.js';
import { defineSuite, type ConformanceSuiteOptions } from '../running/vitest.js';
import { chooseImplementation, implementationFlags, loadImplementationOptions, openChosen, optionValuesOf, rerunCommand } from './implementation.js';

export type { ConformanceSuiteOptions };

/**
 * The implementation: one transport's option and its value as on the command
 * line (`{ module: './impl.js' }`, `{ stdio: 'python3 impl.py' }`, `{ http: URL }`),
 * or a transport by name with its config.
 */
export type ConformanceTarget = { module: string } | { stdio: string } | { http: string } | TransportChoice | Record<string, string>;

const isChoice = (t: ConformanceTarget): t is TransportChoice => 'transport' in t && 'config' in t && typeof t.config === 'object' && t.config !== null;

export function defineConformanceSuite(target: ConformanceTarget, options: ConformanceSuiteOptions = {}): void {
  const given = {
    ...(options.manifest ? { manifest: options.manifest } : {}),
    ...(options.timeoutMs !== undefined ? { timeout: String(options.timeoutMs) } : {}),
  };
  let values: Record<string, unknown> = { ...given };
  defineSuite(
    {
      async open() {
        await loadImplementationOptions();
        if (!isChoice(target)) {
          values = { ...target, ...given };
          return openChosen(await chooseImplementation(values, ['assembler']));
        }
        const opened = await openImplementation({
          ...target,
          ...(options.manifest ? { manifest: options.manifest } : {}),
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        });
        values = { ...optionValuesOf(opened.transport, target.config as Record<string, unknown>), ...given };
        return opened;
      },
      // Called only once open() has: the options are those it opened with.
      rerun: (id) =>
        rerunCommand('run', implementationFlags(values), [
          ...(options.cases ? ['--cases', shellQuote(options.cases)] : []),
          '--filter',
          shellQuote(id),
          '--properties',
          '0',
        ]),
    },
    options,
  );
}
