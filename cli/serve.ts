/**
 * `ctxconform serve`: the reference over HTTP (SPEC PROTO-4), loopback by
 * default, so a vendor can curl it next to their own server.
 */
import { parseArgs } from 'node:util';
import { createAssembleServer, listen } from '../adapters/http-server.js';
import { assemble, DEFAULT_CAPABILITIES, describe } from '../reference/index.js';
import { CAPABILITIES } from '../protocol/assembly.js';
import type { Capability } from '../protocol/assembly.js';
import type { DeclaredConstants } from '../protocol/assembly.js';
import { readManifest } from '../running/open.js';
import { EXIT_OK, UsageError } from './usage.js';
import { out, err } from './output.js';

export const usage = 'ctxconform serve [--port N] [--host 127.0.0.1] [--capabilities LIST | --manifest FILE]';

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      capabilities: { type: 'string' },
      manifest: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    out(
      `usage: ${usage}\n\nPOST /assemble (JSON request) -> 200 result | 422 error answer; GET /describe -> manifest.\n` +
        `--port 0 picks a free port (default 8080). Binds to 127.0.0.1 unless --host says otherwise.\n` +
        `--capabilities the ones to apply and declare, comma-separated, to mirror your manifest (default ${DEFAULT_CAPABILITIES.join(',')}; also: omission_markers; "" for none).\n` +
        `--manifest FILE your manifest: the reference applies and declares its capabilities and its declared constants (SPEC section 17), the reference as your team tuned it.`,
    );
    return EXIT_OK;
  }
  if (values.manifest !== undefined && values.capabilities !== undefined)
    throw new UsageError('give --capabilities or --manifest, not both: the manifest lists the capabilities');
  const mirrored = values.manifest === undefined ? undefined : readManifest(values.manifest);
  const capabilities = capabilityList(mirrored ? mirrored.capabilities : values.capabilities?.split(','));
  const constants: DeclaredConstants | undefined = mirrored?.constants;
  const manifest = {
    ...describe(),
    ...(mirrored ? { profiles: mirrored.profiles } : {}),
    capabilities: [...capabilities],
    ...(constants !== undefined ? { constants } : {}),
  };
  const portText = values.port ?? '8080';
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) throw new UsageError(`--port needs 0..65535, not ${JSON.stringify(portText)}`);
  const host = values.host ?? '127.0.0.1';
  const server = createAssembleServer({
    assemble: (r) => assemble(r, { capabilities, ...(constants !== undefined ? { constants } : {}) }),
    describe: () => manifest,
  });
  let url: string;
  try {
    url = await listen(server, Number(portText), host);
  } catch (e) {
    throw new UsageError(`cannot listen on ${host}:${portText}: ${(e as Error).message}`);
  }
  if (!/^(127\.|::1$|localhost$)/.test(host)) err(`warning: listening on ${host}, beyond loopback: anyone who can reach it can use it`);
  out(`ctxconform reference listening on ${url} (POST ${url}/assemble, GET ${url}/describe); Ctrl-C stops`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return EXIT_OK;
}

function capabilityList(given: readonly string[] | undefined): readonly Capability[] {
  if (given === undefined) return DEFAULT_CAPABILITIES;
  const names = given.map((n) => n.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(CAPABILITIES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new UsageError(`--capabilities: unknown ${unknown.join(', ')}; known: ${CAPABILITIES.join(', ')}`);
  return [...new Set(names)] as Capability[];
}
