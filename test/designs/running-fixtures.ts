/**
 * The fixtures of other designs (test/fixtures/designs/, expected.json) kept running across a
 * test file's tests, as the runner's stdio transport keeps one: each line sent gets one answer
 * line, in order. The hand-worked tests of the fixtures share it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DIR = 'test/fixtures/designs/';

export interface Entry {
  fixture: string;
  file: string;
  command: string;
  language: string;
  deviations: string[];
  design_only: boolean;
  exposed_by?: string;
  witness?: unknown;
}
export const EXPECTED: Entry[] = JSON.parse(readFileSync(`${ROOT}${DIR}expected.json`, 'utf8')).fixtures;

export function entry(name: string): Entry {
  const e = EXPECTED.find((x) => x.fixture === name);
  if (!e) throw new Error(`no fixture ${name} in expected.json`);
  return e;
}

class Running {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((answer: any) => void)[] = [];
  readonly exited: Promise<number | null>;

  constructor(name: string) {
    const [cmd, ...args] = entry(name).command.split(' ');
    this.child = spawn(cmd!, args, { cwd: ROOT });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.waiting.shift()?.(JSON.parse(line)));
    this.exited = new Promise((done) => this.child.on('exit', done));
  }

  send(messages: unknown[]): Promise<any[]> {
    const got = messages.map(() => new Promise<any>((done) => this.waiting.push(done)));
    this.child.stdin.write(messages.map((m) => (typeof m === 'string' ? m : JSON.stringify(m)) + '\n').join(''));
    return Promise.all(got);
  }

  close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}

/** The fixtures a test file started, by name; `exchange` starts one on first use, `closeAll` ends them and gives their exit codes. */
export function fixtureProcesses(): { exchange: (name: string, messages: unknown[]) => Promise<any[]>; closeAll: () => Promise<(number | null)[]> } {
  const running = new Map<string, Running>();
  return {
    exchange: (name, messages) => {
      if (!running.has(name)) running.set(name, new Running(name));
      return running.get(name)!.send(messages);
    },
    closeAll: () => Promise.all([...running.values()].map((r) => r.close())),
  };
}
