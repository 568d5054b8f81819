/**
 * `--memory-api URL`: a memory-api v0 service (profile working-context-api,
 * SPEC section 16), judged on its contract by `ctxconform contract` (and its
 * alias `run --memory-api`).
 */
import { DEFAULT_MARKER } from '../../adapters/memory-api/marker.js';
import { ConfigError } from '../../vocabulary/errors.js';
import { checkHttpUrl, defineTransport } from '../transports.js';
import type { ServiceConfig } from '../contract-run.js';

export type MemoryApiConfig = ServiceConfig;

declare module '../transports.js' {
  interface TransportConfigs {
    'memory-api': MemoryApiConfig;
  }
}

export default defineTransport<'memory-api'>({
  name: 'memory-api',
  option: 'memory-api',
  metavar: 'URL',
  help:
    'a memory-api v0 service (profile working-context-api; SPEC section 16,\n' +
    'docs/memory-api.md): golden cases skip, the contract is checked\n(--properties N random requests after the directed ones)',
  key: 'url',
  kind: 'service',
  rank: 50,
  // The contract's exchanges follow one another: each reads what the one before stored.
  concurrency: 1,
  takesManifest: false,
  trustsDescribe: true,
  options: {
    'api-key': { key: 'apiKey', type: 'string', metavar: 'KEY', help: 'sent as Authorization: Bearer KEY', secret: 'MEMORY_API_KEY' },
    task: { key: 'task', type: 'string', metavar: 'TEXT', help: 'the task sent instead of the marker' },
    estimator: {
      key: 'estimator',
      type: 'string',
      metavar: 'E',
      help:
        'how the service counts tokens: characters (code points) per token,\n' +
        "default 4 (NUM-2), or o200k_base or cl100k_base; the kit recounts\nevery answer's segments with it and judges MAPI-3 on the larger count",
    },
    'require-tested': {
      key: 'requireTested',
      type: 'string',
      metavar: 'IDS',
      help: 'all, or clause ids (MAPI-11,MAPI-13): such a clause that no exchange\ntested fails the run (exit 1) instead of skipping',
      wholeRun: true,
    },
    marker: {
      key: 'marker',
      type: 'string',
      metavar: 'TOKEN',
      help:
        `one word carried by every ingested text and sent as the task, so a\n` +
        `service that retrieves by relevance finds every memory (default\n${DEFAULT_MARKER}; '' ingests the block contents unchanged)`,
    },
  },
  async check({ url, requireTested, estimator, marker }) {
    checkHttpUrl('url', url);
    if (requireTested !== undefined) {
      const { parseRequireTested } = await import('../../contract/verdict.js');
      const r = parseRequireTested(requireTested);
      if ('problem' in r) throw new ConfigError('requireTested', r.problem);
    }
    if (estimator !== undefined) {
      const { ESTIMATOR_CHOICES, isEstimatorSpec } = await import('../../contract/estimator.js');
      if (!isEstimatorSpec(estimator)) throw new ConfigError('estimator', `takes ${ESTIMATOR_CHOICES}, not ${JSON.stringify(estimator)}`);
    }
    // One token: a marker with a space in it is two words to a retriever, and either may be extracted on its own.
    if (marker !== undefined && /\s/u.test(marker))
      throw new ConfigError('marker', `needs one token without spaces (or '' for none), not ${JSON.stringify(marker)}`);
  },
  async open({ url, apiKey, task, marker }, { timeoutMs }) {
    const { openMemoryApi, memoryApiManifest } = await import('../../adapters/memory-api/index.js');
    // The contract alone counts with the estimator: the adapter does not.
    const impl = openMemoryApi({
      url,
      timeoutMs,
      ...(apiKey !== undefined ? { apiKey } : {}),
      ...(task !== undefined ? { task } : {}),
      ...(marker !== undefined ? { marker } : {}),
    });
    return { impl, manifest: memoryApiManifest(), target: url };
  },
});
