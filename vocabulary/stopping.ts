/**
 * How the engine stops when its command is interrupted (cli/interrupt.ts
 * aborts the AbortSignal each command passes down): no new work is taken,
 * and the work in flight is waited for only a little, so that the reports of
 * what was judged can still be written within the 2 s a signal allows.
 */

/** How long work in flight may still finish after the signal (a shrink ends at its next step). */
const STOP_GRACE_MS = 400;

/** Resolves `graceMs` after the signal aborts (never, without a signal); the timer does not hold the process open. */
function afterStop(signal: AbortSignal | undefined, graceMs = STOP_GRACE_MS): Promise<void> {
  return new Promise((resolve) => {
    if (!signal) return;
    const later = (): void => void setTimeout(resolve, graceMs).unref();
    if (signal.aborted) later();
    else signal.addEventListener('abort', later, { once: true });
  });
}

/** `work`, or what is done of it once the signal has aborted and the grace has passed. */
export async function untilStopped(work: Promise<unknown>, signal: AbortSignal | undefined, graceMs = STOP_GRACE_MS): Promise<void> {
  await Promise.race([work, afterStop(signal, graceMs)]);
}

/** Why the work stopped, for a message: `interrupted (SIGINT)`. */
export const stopReason = (signal: AbortSignal): string => `interrupted (${String(signal.reason ?? 'aborted')})`;

/**
 * A pause for the event loop at most every `everyMs`: work that is promise
 * after promise (an in-process implementation answers without I/O) never
 * lets a signal's handler run otherwise.
 */
export function breather(everyMs = 50): () => Promise<void> | undefined {
  let last = performance.now();
  return () => {
    const now = performance.now();
    if (now - last < everyMs) return undefined;
    last = now;
    return new Promise((resolve) => setImmediate(resolve));
  };
}
