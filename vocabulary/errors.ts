/**
 * The engine's errors for what its caller gave it: a value, a file or an
 * implementation that cannot be used. They are the caller's to report (a
 * command line says the message and exits 2); a misbehaving implementation
 * is never one of them, but a result.
 */

/** What the caller gave cannot be used: an unreadable or invalid file, a transport that does not exist. */
export class CallerError extends Error {}

/** One member of a transport's config cannot be used; `member` is as the config spells it. */
export class ConfigError extends CallerError {
  constructor(
    readonly member: string,
    /** What is wrong, said after the member's name: `needs an http(s) URL ..., not "ftp://x"`. */
    readonly problem: string,
  ) {
    super(`${member} ${problem}`);
  }
}

/** The implementation could not be started or reached; the message says what and why. */
export class StartError extends CallerError {}
