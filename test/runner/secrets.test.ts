/**
 * Secrets the kit is given never leave it (protocol/redact.ts): the password
 * in a URL (`--memory-api`, `--http`) and the API key, even when a service
 * echoes them back (the Authorization header in its error message, the Basic
 * header a URL's credentials make). Nothing of them may be found on stdout,
 * stderr or in any of the five reports; where they stood, REDACTED.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describe as referenceDescribe, assemble } from '../../reference/index.js';
import { cliSpawn } from '../cli.js';
import { Redactor, credentialsIn, withoutCredentials } from '../../protocol/redact.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-secrets-'));
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(tmp, { recursive: true, force: true });
});

const PASSWORD = 'pa55-w0rd-of-the-url';
const API_KEY = 'sk-live-0123456789abcdef';
const BASIC = Buffer.from(`vendor:${PASSWORD}`).toString('base64');

/** A server that answers with `handle`, telling it everything it was sent. */
async function serve(handle: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += String(d)));
    req.on('end', () => handle(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What a leaky service says back: the headers it was sent and the address it was reached at, credentials and all. */
const echo = (req: IncomingMessage, key = ''): string =>
  `rejected ${JSON.stringify(req.headers)} (Authorization: ${req.headers.authorization ?? 'none'}) for http://vendor:${PASSWORD}@${req.headers.host}${req.url}${key ? `; key ${key}` : ''}`;

function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = cliSpawn(args);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const REPORTS = ['json', 'junit', 'markdown', 'html', 'badge'] as const;
const reportFlags = (name: string): string[] => REPORTS.flatMap((f) => [`--${f}`, join(tmp, `${name}.${f}`)]);

/** stdout, stderr and the five reports, each by name. */
function everything(name: string, r: { stdout: string; stderr: string }): Record<string, string> {
  return { stdout: r.stdout, stderr: r.stderr, ...Object.fromEntries(REPORTS.map((f) => [f, readFileSync(join(tmp, `${name}.${f}`), 'utf8')])) };
}

function expectNoSecret(outputs: Record<string, string>): void {
  for (const [where, text] of Object.entries(outputs)) {
    for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), API_KEY, BASIC])
      expect(text.includes(secret), `${secret} in ${where}:\n${text.slice(0, 3000)}`).toBe(false);
  }
}

describe('the redactor', () => {
  it("removes a URL's password, or a user name that stands alone (a token), wherever the URL is", () => {
    expect(withoutCredentials('see https://u:p%40ss@h.example/x and ftp://tok3n@h2/ and http://h3:80/')).toBe(
      'see https://u:REDACTED@h.example/x and ftp://REDACTED@h2/ and http://h3:80/',
    );
  });

  it('replaces each secret in the spellings a service echoes: as given, URL-encoded, JSON-escaped, a Basic header', () => {
    const r = new Redactor([...credentialsIn('http://me:p%40ss%2Fw%22rd@host'), 'key-1234']);
    const basic = Buffer.from('me:p@ss/w"rd').toString('base64');
    expect(r.text(`Bearer key-1234; ${encodeURIComponent('p@ss/w"rd')}; ${JSON.stringify('p@ss/w"rd')}; Basic ${basic}`)).toBe(
      'Bearer REDACTED; REDACTED; "REDACTED"; Basic REDACTED',
    );
    expect(r.value({ a: ['key-1234'], b: { c: 'x key-1234 y' }, n: 1 })).toEqual({ a: ['REDACTED'], b: { c: 'x REDACTED y' }, n: 1 });
  });

  it('replaces the start of a secret that a quote cut short', () => {
    expect(new Redactor(['key-0123456789']).text('said "Bearer key-01…" and key-0')).toBe('said "Bearer REDACTED…" and key-0');
  });

  it('leaves text alone for a secret too short to tell from text', () => {
    expect(new Redactor(['abc']).text('abc abc')).toBe('abc abc');
    expect(new Redactor(['abc']).holdsSecrets).toBe(false);
  });
});

describe('secrets are redacted wherever a service puts them', () => {
  it('contract --memory-api with credentials and --api-key, against a service echoing both', async () => {
    const host = await serve((req, _body, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'unauthorized', message: echo(req, API_KEY) } }));
    });
    const r = await run([
      'contract',
      '--memory-api',
      `http://vendor:${PASSWORD}@${host}`,
      '--api-key',
      API_KEY,
      '--properties',
      '0',
      ...reportFlags('contract'),
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const outputs = everything('contract', r);
    expectNoSecret(outputs);
    // What the service said is kept, the secrets in it replaced; the rerun names the key's variable.
    expect(outputs['json']).toContain('Bearer REDACTED');
    expect(r.stdout).toContain(`--memory-api http://vendor:REDACTED@${host}`);
    expect(r.stdout).toContain('--api-key "$MEMORY_API_KEY"');
  }, 60_000);

  it('run --http with credentials, against a server echoing what it was sent', async () => {
    let answered = 0;
    const host = await serve((req, body, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ ...referenceDescribe(), capabilities: [] }));
      }
      // Every other answer right, so the run has passes and failures; the failures quote the credentials.
      if (++answered % 2 === 0) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify(assemble(JSON.parse(body), { capabilities: [] })));
      }
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(echo(req));
    });
    const r = await run(['run', '--http', `http://vendor:${PASSWORD}@${host}`, '--filter', 'empty/*', '--properties', '0', ...reportFlags('http')]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const outputs = everything('http', r);
    expectNoSecret(outputs);
    expect(JSON.parse(outputs['json']!).run.target).toBe(`http://vendor:REDACTED@${host}`);
    // The failures quote the server, credentials replaced.
    expect(outputs['json']).toContain(`for http://vendor:REDACTED@${host}/`);
  }, 60_000);

  it('a start failure: the message that names the URL', async () => {
    const host = await serve((req, _body, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end(echo(req));
    });
    const r = await run(['run', '--http', `http://vendor:${PASSWORD}@${host}`, '--filter', 'empty/*']);
    expect(r.status).toBe(2);
    expectNoSecret({ stdout: r.stdout, stderr: r.stderr });
    expect(r.stderr).toContain(`http://vendor:REDACTED@${host}`);
  }, 60_000);
});
