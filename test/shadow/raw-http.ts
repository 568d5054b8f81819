/** The tests' raw HTTP exchange: status, reason, headers as they came, and the body's bytes. */
import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  reason: string;
  /** Name, value, name, value, ... in the order and spelling they came (message.rawHeaders). */
  headers: string[];
  body: Buffer;
}

export function rawExchange(url: string, method: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reason: res.statusMessage ?? '', headers: res.rawHeaders, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The headers each hop sets for itself (RFC 9110 section 7.6.1: Connection, Keep-Alive,
 * Transfer-Encoding) and Date, which says when each answer was made: what is left must come
 * through a proxy as it came.
 */
const OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
export const endToEndOnly = (h: string[]): string[] => h.flatMap((x, i) => (i % 2 === 0 && !OWN.has(x.toLowerCase()) ? [x, h[i + 1]!] : []));
