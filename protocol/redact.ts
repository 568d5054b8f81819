/**
 * Secrets the kit was given (an API key, the password of a URL) kept out of
 * everything it writes: reports, rerun commands, terminal lines. A service may
 * put them anywhere (an error message that echoes the Authorization header),
 * so the redactor replaces each secret wherever it appears, in the spellings
 * a service is likely to echo (as given, URL-encoded, JSON-escaped, the Basic
 * header of a URL's credentials).
 */
import { mapJson } from './deep-json.js';

/** What stands where a secret was. */
export const REDACTED = 'REDACTED';

/**
 * Shorter secrets are only redacted where they are a URL's credentials:
 * replacing every "ab" of a report would garble it, and such a key guards
 * nothing anyway.
 */
export const MIN_SECRET_LENGTH = 4;

/** How the kit marks text it cut short. */
const CUT = '…';

/** `scheme://user:password@` (or `scheme://token@`) at the start of a URL in any text. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:]*)(?::([^\s/?#@]*))?@/gi;

/** The URL with the password of its user info (or a user name alone, which is then the token) replaced; other text unchanged. */
export function withoutCredentials(text: string): string {
  return text.replace(URL_CREDENTIALS, (_all, scheme: string, user: string, password: string | undefined) =>
    password !== undefined ? `${scheme}${user}:${REDACTED}@` : user === '' ? `${scheme}@` : `${scheme}${REDACTED}@`,
  );
}

/** The credentials of every URL in a text, as secrets: each password (or lone user name), decoded and as written, and the Basic header it makes. */
export function credentialsIn(text: string): string[] {
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const out: string[] = [];
  for (const [, , user = '', password] of text.matchAll(URL_CREDENTIALS)) {
    const secret = password ?? user;
    if (secret === '') continue;
    out.push(secret, decode(secret), Buffer.from(`${decode(user)}:${decode(password ?? '')}`).toString('base64'));
  }
  return out;
}

/** The spellings of a secret a service may echo. */
function spellings(secret: string): string[] {
  return [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
}

export class Redactor {
  private readonly secrets: string[];

  constructor(secrets: Iterable<string> = []) {
    const all = new Set<string>();
    for (const s of secrets) if (s.length >= MIN_SECRET_LENGTH) for (const x of spellings(s)) all.add(x);
    // Longest first: a secret that contains another is replaced whole.
    this.secrets = [...all].sort((a, b) => b.length - a.length);
  }

  /** Whether there is anything to redact besides the credentials of URLs. */
  get holdsSecrets(): boolean {
    return this.secrets.length > 0;
  }

  /** The text with every secret, and the credentials of every URL in it, replaced. */
  text(s: string): string {
    let out = withoutCredentials(s);
    for (const secret of this.secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    return out.includes(CUT) ? this.cutShort(out) : out;
  }

  /** A quote cut short (`"Bearer sk-li…"`) may end in the start of a secret: that start is replaced too. */
  private cutShort(s: string): string {
    let out = '';
    let from = 0;
    for (let at = s.indexOf(CUT); at >= 0; at = s.indexOf(CUT, at + 1)) {
      let longest = 0;
      for (const secret of this.secrets) {
        for (let k = Math.min(secret.length - 1, at - from); k >= MIN_SECRET_LENGTH && k > longest; k--) {
          if (s.startsWith(secret.slice(0, k), at - k)) {
            longest = k;
            break;
          }
        }
      }
      out += s.slice(from, at - longest) + (longest > 0 ? REDACTED : '');
      from = at;
    }
    return out + s.slice(from);
  }

  /** A copy of a JSON-like value (a report) with every string redacted (member names are kept). */
  value<T>(v: T): T {
    return mapJson(v, (x) => (typeof x === 'string' ? this.text(x) : x)) as T;
  }
}
