/**
 * The command line's side of the transport registry: the options that choose
 * and drive an implementation, their help, the parsed options mapped to a
 * transport's typed config (by the option declarations of its entry), and
 * the same options spelled again for a rerun command.
 */
import { kitCommand } from './invocation.js';
import { shellQuote } from '../running/console.js';
import { ConfigError } from '../vocabulary/errors.js';
import { DEFAULT_TIMEOUT_MS, checkConfig, openChecked, readManifest } from '../running/open.js';
import type { OpenedImplementation } from '../running/open.js';
import { defaultTransport, loadTransports, transports } from '../running/transports.js';
import { loadFormats } from '../report/registry.js';
import type { AnyTransport, TransportKind, TransportOption } from '../running/transports.js';
import type { Manifest } from '../protocol/types.js';
import { UsageError, intOption } from './usage.js';

/** The options a command parsed: strings and booleans by option name. */
export type OptionValues = Readonly<Record<string, unknown>>;

/** Options of every driving command besides the transports' own. */
const DRIVING = {
  manifest: { metavar: 'FILE', help: 'the manifest, when the implementation cannot describe itself' },
  timeout: { metavar: 'MS', help: 'per request (default 5000)' },
  concurrency: { metavar: 'N', help: 'requests in flight (default 1 in process, 4 over stdio and http)' },
} as const;

/** The registered transports, loaded: every command that chooses an implementation awaits this before it parses. */
/** Load what the options of a driving command come from: the transports and the report formats. */
export async function loadImplementationOptions(): Promise<void> {
  await Promise.all([loadTransports(), loadFormats()]);
}

type DrivingOption = keyof typeof DRIVING;
const ALL_DRIVING: readonly DrivingOption[] = ['manifest', 'timeout', 'concurrency'];

/** node:util parseArgs options for choosing and driving an implementation (with these driving options). */
export function drivingOptions(driving: readonly DrivingOption[] = ALL_DRIVING): Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> {
  const out: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const t of transports()) {
    out[t.option] = { type: 'string' };
    for (const [name, o] of Object.entries(t.options ?? {}))
      out[name] = o.type === 'list' ? { type: 'string', multiple: true } : { type: o.type === 'boolean' ? 'boolean' : 'string' };
  }
  for (const name of ALL_DRIVING) if (out[name]) throw new Error(`a transport's option --${name} is one every driving command has`);
  for (const name of driving) out[name] = { type: 'string' };
  return out;
}

/** The column help texts start in, as in every command's help (helpLine writes a line of it). */
const HELP_COLUMN = 26;

export const helpLine = (flag: string, help: string, indent = '  '): string => {
  const pad = HELP_COLUMN - indent.length;
  const gap = ' '.repeat(HELP_COLUMN);
  return `${indent}${flag.padEnd(pad)}${flag.length >= pad ? `\n${gap}` : ''}${help.replaceAll('\n', `\n${gap}`)}`;
};

const ofKinds = (kinds: readonly TransportKind[]): AnyTransport[] => transports().filter((t) => kinds.includes(t.kind));

/** How the selecting option reads in usage lines and help: `--impl reference`, `--module PATH`. */
const selecting = (t: AnyTransport): string => `--${t.option} ${t.metavar}`;

/** The transports a command drives, for its usage line: `--impl reference | --module PATH | ...`. */
export function transportUsage(kinds: readonly TransportKind[] = ['assembler']): string {
  return ofKinds(kinds).map(selecting).join(' | ');
}

/** The help block of the implementation options, for the transports a command drives (and the driving options it takes). */
export function transportHelp(kinds: readonly TransportKind[] = ['assembler'], driving: readonly DrivingOption[] = ALL_DRIVING): string {
  const fallback = defaultTransport();
  const lines = [kinds.includes(fallback.kind) ? `implementation (one; default ${selecting(fallback)}):` : 'implementation (one):'];
  for (const t of ofKinds(kinds)) {
    lines.push(helpLine(selecting(t), t.help));
    for (const [name, o] of Object.entries(t.options ?? {})) lines.push(helpLine(`--${name}${o.metavar ? ` ${o.metavar}` : ''}`, o.help, '    '));
  }
  for (const name of driving) lines.push(helpLine(`--${name} ${DRIVING[name].metavar}`, DRIVING[name].help));
  return lines.join('\n');
}

/** What each kind of transport is, and the command that drives it. */
const KINDS: Record<TransportKind, [string, string]> = {
  assembler: ['an assembler', 'ctxconform run'],
  service: ['a service judged on its contract', 'ctxconform contract'],
};

/** The one transport the options name (the default when none), with its value; usage errors for two or a stray option. */
export function namedTransport(
  values: OptionValues,
  kinds: readonly TransportKind[] = ['assembler', 'service'],
): { transport: AnyTransport; value: string | undefined } {
  const all = transports();
  const named = all.filter((t) => values[t.option] !== undefined);
  if (named.length > 1) throw new UsageError(`choose one implementation, not ${named.map((t) => `--${t.option}`).join(' and ')}`);
  const transport = named[0] ?? defaultTransport();
  for (const t of all) {
    if (t === transport) continue;
    for (const name of Object.keys(t.options ?? {})) if (values[name] !== undefined) throw new UsageError(`--${name} goes with --${t.option}`);
  }
  if (named.length === 0 && !kinds.includes(transport.kind)) throw new UsageError(`name the implementation to judge: ${transportUsage(kinds)}`);
  if (!kinds.includes(transport.kind)) {
    const [what, by] = KINDS[transport.kind];
    throw new UsageError(`--${transport.option} is ${what}: ${by} drives it, this command does not`);
  }
  if (values['manifest'] !== undefined && !transport.takesManifest)
    throw new UsageError(`--${transport.option} describes itself: it cannot be combined with --manifest`);
  return { transport, value: named[0] ? String(values[transport.option]) : undefined };
}

/** An option's value as the config holds it; a UsageError naming the option when it is not of its type. */
function optionValue(values: OptionValues, name: string, o: TransportOption): unknown {
  if (o.type === 'integer') return intOption(values, name, Number.NaN, o.min ?? 1);
  if (o.type === 'boolean') return values[name] === true;
  if (o.type === 'list') return ([] as unknown[]).concat(values[name]).map(String);
  return String(values[name]);
}

/** The command-line option that sets a config member of this transport. */
function optionOf(t: AnyTransport, member: string): string | undefined {
  if (t.key === member) return t.option;
  return Object.entries(t.options ?? {}).find(([, o]) => o.key === member)?.[0];
}

/** A transport chosen on the command line: its config from the options, and the driving settings. */
export interface ChosenImplementation {
  transport: AnyTransport;
  config: Record<string, unknown>;
  manifest?: Manifest;
  timeoutMs: number;
  concurrency: number;
}

/**
 * The implementation the options name, checked without starting anything:
 * two targets, a stray option, the --manifest file, --timeout and
 * --concurrency, each option's type, and the config as its entry checks it.
 * A command that reads a corpus first calls this before it, so that a usage
 * error is said at once instead of after the reading.
 */
export async function chooseImplementation(values: OptionValues, kinds: readonly TransportKind[]): Promise<ChosenImplementation> {
  const { transport, value } = namedTransport(values, kinds);
  const manifest = typeof values['manifest'] === 'string' ? readManifest(values['manifest']) : undefined;
  const timeoutMs = intOption(values, 'timeout', DEFAULT_TIMEOUT_MS, 1);
  const concurrency = intOption(values, 'concurrency', transport.concurrency, 1);
  if (value !== undefined && transport.choices && !transport.choices.includes(value))
    throw new UsageError(
      `--${transport.option} takes only ${transport.choices.map((c: string) => JSON.stringify(c)).join(' or ')}, not ${JSON.stringify(value)}`,
    );
  const config: Record<string, unknown> = {};
  if (transport.key !== undefined && value !== undefined) config[transport.key] = value;
  for (const [name, o] of Object.entries(transport.options ?? {})) if (values[name] !== undefined) config[o.key] = optionValue(values, name, o);
  try {
    await checkConfig(transport, config);
  } catch (e) {
    const option = e instanceof ConfigError ? optionOf(transport, e.member) : undefined;
    if (option !== undefined) throw new UsageError(`--${option} ${(e as ConfigError).problem}`);
    throw e;
  }
  return { transport, config, ...(manifest ? { manifest } : {}), timeoutMs, concurrency };
}

/** Start a chosen implementation (a start failure is the engine's StartError, exit 2). */
export function openChosen(c: ChosenImplementation): Promise<OpenedImplementation> {
  return openChecked(c.transport, c.config, { ...(c.manifest ? { manifest: c.manifest } : {}), timeoutMs: c.timeoutMs, concurrency: c.concurrency });
}

/** A config as the options that give it: what implementationFlags spells for code that chose by config. */
export function optionValuesOf(transport: AnyTransport, config: Readonly<Record<string, unknown>>): Record<string, string | true> {
  const values: Record<string, string | true> = {};
  const selected = transport.key !== undefined ? config[transport.key] : transport.choices?.[0];
  if (selected !== undefined) values[transport.option] = String(selected);
  for (const [name, o] of Object.entries(transport.options ?? {})) {
    const v = config[o.key];
    if (Array.isArray(v)) values[name] = v.map(String) as unknown as string;
    else if (v !== undefined && v !== false) values[name] = v === true ? true : String(v);
  }
  return values;
}

/**
 * The options that reach the same implementation again, as given: the
 * transport's option and its own options (a secret as the environment variable
 * to set), --manifest, and --timeout when it was given and `timeout` is kept.
 */
export function implementationFlags(values: OptionValues, { timeout = true }: { timeout?: boolean } = {}): string[] {
  const { transport, value } = namedTransport(values);
  const flags = value !== undefined ? [`--${transport.option}`, shellQuote(value)] : [];
  for (const [name, o] of Object.entries(transport.options ?? {})) {
    const v = values[name];
    if (v === undefined || o.wholeRun) continue;
    if (o.type === 'boolean') flags.push(`--${name}`);
    else if (o.type === 'list')
      for (const each of ([] as unknown[]).concat(v)) flags.push(`--${name}`, shellQuote(o.listRerun ? o.listRerun(String(each)) : String(each)));
    else flags.push(`--${name}`, o.secret ? `"$${o.secret}"` : shellQuote(String(v)));
  }
  if (typeof values['manifest'] === 'string') flags.push('--manifest', shellQuote(values['manifest']));
  if (timeout && typeof values['timeout'] === 'string') flags.push('--timeout', values['timeout']);
  return flags;
}

/** The command a vendor pastes to rerun one result, from the folder they ran in: `npx ctxconform COMMAND FLAGS... REST...` or `node PATH/bin/ctxconform.mjs ...` (kitCommand). */
export function rerunCommand(command: string, flags: readonly string[], rest: readonly string[]): string {
  return [kitCommand(), command, ...flags, ...rest].join(' ');
}
