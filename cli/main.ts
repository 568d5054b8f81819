/**
 * `ctxconform <command>`: each command lives in its own module exporting
 * `run(argv): Promise<number>` (the exit status) and `usage` (one line).
 */
import { CallerError } from '../vocabulary/errors.js';
import { EXIT_OK, EXIT_USAGE, UsageError } from './usage.js';
import { exitStatusOf, interruptedBy, listenForStop } from './interrupt.js';
import { out, err } from './output.js';
import { setUnendedSink } from '../adapters/reap.js';

// What the kit started and could not end is said, never left running unseen (adapters/reap.ts).
setUnendedSink((left) =>
  process.stderr.write(
    `ctxconform: could not end ${left.length} process${left.length === 1 ? '' : 'es'} the implementation started: ${left.map((p) => `${p.pid} ${JSON.stringify(p.command)}`).join(', ')}\n`,
  ),
);

type Command = { run: (argv: string[]) => Promise<number> };

/** Each command with its one-line help; its module is loaded only when it runs (`ctxconform list` never loads the runner). */
const COMMANDS: Record<string, { about: string; load: () => Promise<Command> }> = {
  run: { about: 'run the conformance suite against an implementation', load: () => import('./run.js') },
  contract: { about: 'judge a memory service on the memory-api contract', load: () => import('./contract.js') },
  validate: { about: 'check every golden case against the case schema and SPEC ids', load: () => import('./validate.js') },
  list: { about: 'list case ids with their requirement ids', load: () => import('./list.js') },
  coverage: { about: 'print the requirement-to-case matrix; exit 1 if an id is uncovered', load: () => import('./coverage.js') },
  demo: { about: 'assemble one block set at two budgets and write it as JSON', load: () => import('./demo.js') },
  serve: { about: 'serve the reference assembler over HTTP', load: () => import('./serve.js') },
  constants: { about: "infer an implementation's constants from black-box answers", load: () => import('./constants.js') },
  diff: { about: 'compare two JSON reports: fixed, regressed, new, removed', load: () => import('./diff.js') },
  merge: { about: 'join the JSON reports of sharded runs', load: () => import('./merge.js') },
  matrix: { about: 'compare the JSON reports of several implementations side by side', load: () => import('./matrix.js') },
  baseline: { about: 'write the baseline (known failures, with reasons) a JSON report calls for', load: () => import('./baseline.js') },
  tokens: { about: 'compare the token estimate with real tokenizers over the corpus', load: () => import('./tokens.js') },
  replay: { about: 'judge requests recorded from production (JSON lines, .gz too)', load: () => import('./replay.js') },
  scrub: { about: 'copy recorded requests with every text replaced, answers kept', load: () => import('./scrub.js') },
  sweep: { about: 'one block set at every budget: where the implementation first differs', load: () => import('./sweep.js') },
  shadow: { about: 'judge live traffic through a proxy in front of an http assembler', load: () => import('./shadow.js') },
};

export function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return [
    'usage: ctxconform <command> [options]',
    '',
    ...Object.entries(COMMANDS).map(([c, d]) => `  ${c.padEnd(width)}  ${d.about}`),
    '',
    'ctxconform <command> --help (or ctxconform help <command>) shows the options of one command.',
  ].join('\n');
}

/** node:util parseArgs rejects a command line with these codes: usage errors too. */
const PARSE_ARGS_CODES = new Set(['ERR_PARSE_ARGS_UNKNOWN_OPTION', 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE', 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL']);

export async function main(argv: string[]): Promise<number> {
  const [first, ...more] = argv;
  // `help COMMAND` is `COMMAND --help`: one text, from the command itself.
  const [cmd, rest] = first === 'help' && more[0] !== undefined ? [more[0], ['--help']] : [first, more];
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    out(help());
    return cmd ? EXIT_OK : EXIT_USAGE;
  }
  if (cmd === '--version') {
    const { KIT_VERSION } = await import('../vocabulary/spec.js');
    out(KIT_VERSION);
    return EXIT_OK;
  }
  if (!Object.hasOwn(COMMANDS, cmd)) {
    err(`ctxconform: unknown command "${cmd}"\n\n${help()}`);
    return EXIT_USAGE;
  }
  // serve and shadow stop on a signal by themselves (shadow with its verdict): they are meant to run until stopped.
  const stopListening = cmd === 'serve' || cmd === 'shadow' ? undefined : listenForStop();
  try {
    const status = await (await COMMANDS[cmd]!.load()).run(rest);
    const signal = interruptedBy();
    return signal !== undefined ? exitStatusOf(signal) : status;
  } catch (e) {
    const signal = interruptedBy();
    // The engine's CallerError (a file, a value, an implementation that cannot be used) is a usage error to the command line.
    if (e instanceof UsageError || e instanceof CallerError || PARSE_ARGS_CODES.has((e as { code?: string }).code ?? '')) {
      err(`ctxconform ${cmd}: ${(e as Error).message}`);
      return signal !== undefined ? exitStatusOf(signal) : EXIT_USAGE;
    }
    throw e;
  } finally {
    stopListening?.();
  }
}
