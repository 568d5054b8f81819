/** The properties are black box: the same verdicts through the http adapter as in process. */
import { ANY_LEVEL_PROPERTIES } from '../../judging/properties/any-level.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { createAssembleServer, listen } from '../../adapters/http-server.js';
import { openHttp } from '../../adapters/http.js';
import { PROPERTIES, runProperties } from '../../judging/properties/index.js';
import type { CaseResult } from '../../protocol/types.js';
import { assemble, describe } from '../../reference/index.js';
import * as broken from '../fixtures/broken/inclusive-expiry.js';

const servers: Server[] = [];
let referenceUrl = '';
let brokenUrl = '';
beforeAll(async () => {
  const a = createAssembleServer({ assemble: (r) => assemble(r), describe });
  const b = createAssembleServer(broken);
  servers.push(a, b);
  referenceUrl = await listen(a, 0, '127.0.0.1');
  brokenUrl = await listen(b, 0, '127.0.0.1');
});
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

const statuses = (rs: CaseResult[]): Record<string, string> => Object.fromEntries(rs.map((r) => [r.id, r.status]));

it('the reference over http passes every property (-0 travels as -0.0; runs with NaN cannot be sent and are discarded)', async () => {
  const { impl, manifest } = await openHttp({ base: referenceUrl, concurrency: 1, timeoutMs: 5000 });
  try {
    const rs = await runProperties(impl, manifest, { runs: 60, seed: 11, timeoutMs: 5000 });
    expect(rs.filter((r) => r.status !== 'pass' && r.status !== 'skip').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    // Every property but the any level's, which a tiered manifest is not judged on.
    expect(rs).toHaveLength(PROPERTIES.length - ANY_LEVEL_PROPERTIES.length);
  } finally {
    await impl.close();
  }
});

it('a broken implementation over http fails as it does in process, with the same counterexample', async () => {
  const { impl, manifest } = await openHttp({ base: brokenUrl, concurrency: 1, timeoutMs: 5000 });
  try {
    const { fromFunctions } = await import('../../adapters/inprocess.js');
    const local = fromFunctions(broken.assemble, broken.describe);
    const opts = { runs: 200, seed: 11, timeoutMs: 5000, only: ['differential', 'partition'] };
    const overHttp = await runProperties(impl, manifest, opts);
    const inProcess = await runProperties(local, manifest, opts);
    expect(statuses(overHttp)).toEqual({ 'property/differential': 'fail', 'property/partition': 'pass' });
    expect(overHttp[0]!.counterexample).toEqual(inProcess[0]!.counterexample);
  } finally {
    await impl.close();
  }
});
