/**
 * SIGINT and SIGTERM end any command within 2 s. The first signal aborts the
 * command's AbortSignal: the engine stops taking new work, keeps what it had
 * judged before the signal (an answer that arrives after it is dropped: the
 * stdio adapter kills its processes on the signal, so that answer could be a
 * crash of the kit's making), and the ending writes the reports of what was
 * judged, marked interrupted, and exits 130 (SIGINT) or 143 (SIGTERM), as a
 * shell reports a command killed by the signal. Should the command not be
 * done by then (a synchronous step that cannot be cut short), the process
 * exits with that status anyway; a second signal exits at once.
 */
import { EXIT_SIGINT, EXIT_SIGTERM } from './usage.js';

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** From the signal to the forced exit: what is left of the 2 s after the process gets to run its handler. */
const FORCED_EXIT_MS = 1800;

const SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

let controller = new AbortController();
let received: StopSignal | undefined;
let installed: (() => void) | undefined;

export const exitStatusOf = (s: StopSignal): number => (s === 'SIGINT' ? EXIT_SIGINT : EXIT_SIGTERM);

/** Aborted at the first SIGINT or SIGTERM while a command runs; its reason is the signal's name. */
export function stopSignal(): AbortSignal {
  return controller.signal;
}

/** The signal that interrupted the command, if one did. */
export function interruptedBy(): StopSignal | undefined {
  return received;
}

/** Listen for the signals while a command runs; the returned function stops listening. */
export function listenForStop(): () => void {
  installed?.();
  controller = new AbortController();
  received = undefined;
  const handlers = SIGNALS.map((sig) => {
    const handler = (): void => {
      if (received !== undefined) process.exit(exitStatusOf(received));
      received = sig;
      process.stderr.write(`\nctxconform: ${sig}: stopping; the reports will hold what was judged so far\n`);
      controller.abort(sig);
      setTimeout(() => process.exit(exitStatusOf(sig)), FORCED_EXIT_MS).unref();
    };
    process.on(sig, handler);
    return [sig, handler] as const;
  });
  installed = () => {
    for (const [sig, handler] of handlers) process.removeListener(sig, handler);
    installed = undefined;
  };
  return installed;
}
