/** `--stdio "COMMAND"`: a process speaking JSON lines on stdin/stdout (SPEC PROTO-3). */
import { answersNotJson } from '../run-notes.js';
import { ConfigError, StartError } from '../../vocabulary/errors.js';
import { shellQuote } from '../console.js';
import { defineTransport } from '../transports.js';

export interface StdioConfig {
  /** A shell command line. */
  command: string;
  /** Copies of the command to spread requests over (default: the concurrency). */
  processes?: number;
  /** `NAME=VALUE` to set in the process's environment, or `NAME` to pass on the kit's own value: kept in every rerun command. */
  env?: string[];
}

/** Names whose values a rerun command leaves out (it passes them on by name): keys, tokens, passwords. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASS|CREDENTIAL|AUTH|COOKIE|SESSION/i;

/** The variables `--env` sets, each checked; a name without a value is the kit's own value, which must be set. */
export function envOf(entries: readonly string[], from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of entries) {
    const at = e.indexOf('=');
    const name = at < 0 ? e : e.slice(0, at);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new ConfigError('env', `takes NAME=VALUE or NAME, not ${JSON.stringify(e)}`);
    if (at < 0 && from[name] === undefined) throw new ConfigError('env', `passes ${name} on from the environment, where it is not set`);
    out[name] = at < 0 ? from[name]! : e.slice(at + 1);
  }
  return out;
}

/** An `--env` value as a rerun command writes it: a secret's value left out, so the rerun passes the variable on by name. */
export const envRerun = (entry: string): string => {
  const at = entry.indexOf('=');
  return at >= 0 && SECRET_NAME.test(entry.slice(0, at)) ? entry.slice(0, at) : entry;
};

declare module '../transports.js' {
  interface TransportConfigs {
    stdio: StdioConfig;
  }
}

export default defineTransport<'stdio'>({
  name: 'stdio',
  option: 'stdio',
  metavar: '"COMMAND"',
  help: 'a process speaking JSON lines on stdin/stdout (SPEC PROTO-3)',
  key: 'command',
  kind: 'assembler',
  rank: 30,
  concurrency: 4,
  takesManifest: true,
  options: {
    processes: {
      key: 'processes',
      type: 'integer',
      min: 1,
      metavar: 'N',
      help: 'copies of the command to spread requests over, started as needed\n(default: the concurrency; 1 pipelines every request into one process)',
    },
    env: {
      key: 'env',
      type: 'list',
      metavar: 'NAME=VALUE',
      help: "set a variable in the process's environment (NAME alone: pass on\nyour own value); again for more; every rerun command keeps them,\na secret's (a KEY, TOKEN, PASSWORD...) by name only",
      listRerun: envRerun,
    },
  },
  check({ command, env }) {
    if (command.trim() === '') throw new ConfigError('command', 'needs a command');
    if (env) envOf(env);
  },
  // A debug print on stdout makes answers that are not JSON: one line says so after the case lines.
  notes: answersNotJson,
  async open({ command, processes, env }, { manifest, timeoutMs, concurrency }) {
    const { StdioStartError, openStdio } = await import('../../adapters/stdio.js');
    try {
      const environment = env && env.length > 0 ? { env: { ...process.env, ...envOf(env) } } : {};
      return {
        ...(await openStdio({ command, ...(manifest ? { manifest } : {}), timeoutMs, processes: processes ?? concurrency, ...environment })),
        target: command,
      };
    } catch (e) {
      if (e instanceof StdioStartError) throw new StartError(`cannot start ${shellQuote(command)}: ${e.message}`);
      throw e;
    }
  },
});
