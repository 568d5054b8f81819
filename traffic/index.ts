/**
 * Traffic: requests an implementation really answered, recorded or live, judged as the properties judge.
 *
 * - replay/: recorded requests read, sent again, judged and shrunk.
 * - scrub.ts: a recorded request made safe to share.
 * - sweep.ts: one block set at every budget, against the reference.
 * - shadow/: the proxy in front of a live upstream, its sampled judge, tally, records and metrics; observe.ts
 *   is the same in the agent's own process (the package's `ctxconform/observe`).
 *
 * This index names the parts and exports nothing.
 */
