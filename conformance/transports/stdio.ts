/** `--stdio "COMMAND"`: a process speaking JSON lines on stdin/stdout (SPEC PROTO-3). */
import { ConfigError, StartError } from '../errors.js';
import { shellQuote } from '../runner/console.js';
import { defineTransport } from '../runner/transports.js';

export interface StdioConfig {
  /** A shell command line. */
  command: string;
  /** Copies of the command to spread requests over (default: the concurrency). */
  processes?: number;
}

declare module '../runner/transports.js' {
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
  },
  check({ command }) {
    if (command.trim() === '') throw new ConfigError('command', 'needs a command');
  },
  async open({ command, processes }, { manifest, timeoutMs, concurrency }) {
    const { StdioStartError, openStdio } = await import('../../adapters/stdio.js');
    try {
      return { ...(await openStdio({ command, ...(manifest ? { manifest } : {}), timeoutMs, processes: processes ?? concurrency })), target: command };
    } catch (e) {
      if (e instanceof StdioStartError) throw new StartError(`cannot start ${shellQuote(command)}: ${e.message}`);
      throw e;
    }
  },
});
