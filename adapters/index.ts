/**
 * The translators: each turns one way of reaching an implementation into the Implementation of protocol/.
 *
 * - stdio.ts, http.ts, module.ts (with module-worker.ts), inprocess.ts, reference.ts: an assembler over JSON
 *   lines, over HTTP, in a worker thread, in this process, or the built-in reference.
 * - memory-api/: a memory service (profile working-context-api) read as an assembler.
 * - wire.ts, plain-json.ts, outcome.ts, http-answer.ts, http-server.ts, reap.ts: what they share on the wire.
 * - examples/: wrappers a vendor copies, in Python and JavaScript.
 *
 * They judge nothing: the engine's rooms above them do. This index names the parts and exports nothing.
 */
