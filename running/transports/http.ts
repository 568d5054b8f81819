/** `--http URL`: a server answering POST URL/assemble and GET URL/describe (SPEC PROTO-4). */
import { delayedAcknowledgements } from '../run-notes.js';
import { StartError } from '../../vocabulary/errors.js';
import { checkHttpUrl, defineTransport } from '../transports.js';

export interface HttpConfig {
  /** The base URL: requests go to BASE/assemble, the manifest comes from BASE/describe. */
  base: string;
}

declare module '../transports.js' {
  interface TransportConfigs {
    http: HttpConfig;
  }
}

export default defineTransport<'http'>({
  name: 'http',
  option: 'http',
  metavar: 'URL',
  help: 'a server answering POST URL/assemble, GET URL/describe',
  key: 'base',
  kind: 'assembler',
  rank: 40,
  concurrency: 4,
  takesManifest: true,
  describedBy: (target) => `GET ${target}/describe`,
  check: ({ base }) => checkHttpUrl('base', base),
  // A server answering in pieces with Nagle's algorithm on waits out the client's delayed ACK: one line says so.
  notes: delayedAcknowledgements,
  async open({ base }, { manifest, timeoutMs, concurrency }) {
    // Loaded only for --http: undici alone costs a few hundred ms of start-up.
    const { HttpStartError, openHttp } = await import('../../adapters/http.js');
    try {
      return { ...(await openHttp({ base, concurrency, timeoutMs, ...(manifest ? { manifest } : {}) })), target: base };
    } catch (e) {
      if (e instanceof HttpStartError) throw new StartError(`cannot reach ${base}: ${e.message}`);
      throw e;
    }
  },
});
