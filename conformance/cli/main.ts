/**
 * `ctxconform <command>`: each command lives in its own module exporting
 * `run(argv): Promise<number>` (the exit status) and `usage` (one line).
 */
export const COMMANDS: Record<string, string> = {
  run: 'run the conformance suite against an implementation',
  validate: 'check every golden case against the case schema and SPEC ids',
  list: 'list case ids with their requirement ids',
  coverage: 'print the requirement-to-case matrix; exit 1 if an id is uncovered',
  demo: 'assemble one block set at two budgets and write it as JSON',
  serve: 'serve the reference assembler over HTTP',
  constants: 'infer an implementation\'s constants from black-box answers',
  diff: 'compare two JSON reports: fixed, regressed, new, removed',
  merge: 'join the JSON reports of sharded runs',
  matrix: 'compare the JSON reports of several implementations side by side',
  baseline: 'write the baseline (known failures, with reasons) a JSON report calls for',
  tokens: 'compare the token estimate with real tokenizers over the corpus',
  replay: 'judge requests recorded from production (JSON lines, .gz too)',
  scrub: 'copy recorded requests with every text replaced, answers kept',
  sweep: 'one block set at every budget: where the implementation first differs',
};

export const EXIT_OK = 0;
export const EXIT_FAIL = 1;
export const EXIT_USAGE = 2;

export function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return [
    'usage: ctxconform <command> [options]',
    '',
    ...Object.entries(COMMANDS).map(([c, d]) => `  ${c.padEnd(width)}  ${d}`),
    '',
    'ctxconform <command> --help shows the options of one command.',
  ].join('\n');
}

/** Thrown by a command for a usage error: printed without a stack, exit 2. */
export class UsageError extends Error {}

/** node:util parseArgs rejects a command line with these codes: usage errors too. */
const PARSE_ARGS_CODES = new Set(['ERR_PARSE_ARGS_UNKNOWN_OPTION', 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE', 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL']);

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    console.log(help());
    return cmd ? EXIT_OK : EXIT_USAGE;
  }
  if (cmd === '--version') {
    const { KIT_VERSION } = await import('../version.js');
    console.log(KIT_VERSION);
    return EXIT_OK;
  }
  if (!Object.hasOwn(COMMANDS, cmd)) {
    console.error(`ctxconform: unknown command "${cmd}"\n\n${help()}`);
    return EXIT_USAGE;
  }
  try {
    const mod = (await import(/* @vite-ignore */ `./${cmd}.ts`)) as { run: (argv: string[]) => Promise<number> };
    return await mod.run(rest);
  } catch (e) {
    if (e instanceof UsageError || PARSE_ARGS_CODES.has((e as { code?: string }).code ?? '')) {
      console.error(`ctxconform ${cmd}: ${(e as Error).message}`);
      return EXIT_USAGE;
    }
    throw e;
  }
}
