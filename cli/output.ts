/**
 * Every line a command prints, on stdout or stderr: escaped for the terminal
 * (report/terminal.ts), since most of what a command prints did not come from
 * the kit, and with the secrets of the implementation it drives redacted
 * (protocol/redact.ts), since a service may echo them anywhere.
 */
import { Redactor } from '../protocol/redact.js';
import { terminalText } from '../report/terminal.js';

let redactor = new Redactor();

/** The secrets the terminal redacts from here on: the ones of the implementation a command chose. */
export function redactOnTerminal(r: Redactor): void {
  redactor = r;
}

/** Text as the terminal may show it. */
export function forTerminal(text: string): string {
  return terminalText(redactor.text(text));
}

// Through the console, as the commands always wrote: code that runs a command in its own process (the tests) reads it there.
/** A line (or lines) on stdout. */
export function out(text: string): void {
  console.log(forTerminal(text));
}

/** A line (or lines) on stderr. */
export function err(text: string): void {
  console.error(forTerminal(text));
}

/** Text on stdout as it is given, with no line break added (a document the command prints). */
export function print(text: string): void {
  process.stdout.write(forTerminal(text));
}
