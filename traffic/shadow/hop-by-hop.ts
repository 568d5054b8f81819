/**
 * The headers that belong to one connection, not to the message (RFC 9110
 * section 7.6.1): a proxy removes them before it forwards, in both
 * directions, with every header the Connection header names. Passed on, a
 * client's `Connection: close` closes the proxy's pooled connection to the
 * upstream under the next request, and an upstream's `Transfer-Encoding`
 * frames bytes the proxy frames again.
 */

/** RFC 9110 section 7.6.1's list, and Proxy-Connection, which clients still send. */
const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'proxy-connection', 'keep-alive', 'te', 'transfer-encoding', 'upgrade']);

/** What a client sends for the proxy itself: credentials for this hop (RFC 9110 section 11.7.2) never reach the upstream. */
export const PROXY_ONLY: ReadonlySet<string> = new Set(['proxy-authorization']);

/** Names a Connection header may not take away: without Host an HTTP/1.1 upstream cannot answer. */
const KEPT: ReadonlySet<string> = new Set(['host']);

/**
 * `raw` (name, value, name, value, ..., as message.rawHeaders) without the hop-by-hop headers,
 * the ones its Connection headers name and `also`; order and spelling as they came.
 */
export function endToEnd(raw: readonly string[], also: ReadonlySet<string> = new Set()): string[] {
  const named = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    for (const token of raw[i + 1]!.split(',')) {
      const name = token.trim().toLowerCase();
      if (name !== '' && !KEPT.has(name)) named.add(name);
    }
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || also.has(name)) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}
