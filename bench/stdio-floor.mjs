// The least a Node program pays to put a run's requests to the implementation over stdio:
// each recorded process's lines (reference-stdio.mjs, CTXCONFORM_RECORD_LINES) go to a process
// of its own, started as the kit starts one (a shell command line), one line in flight per
// process; each answer is read as the kit reads it (stream 'data' events, split at newlines,
// JSON.parse) and nothing else is done with it: no requests generated, nothing encoded, checked
// or judged. Plain JavaScript, so that its process needs no loader; run with --import
// cpu-report.mjs to have its CPU reported as the kit's is.
//
//   node stdio-floor.mjs RECORDED_DIR "COMMAND"
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, command] = process.argv.slice(2);
const logs = readdirSync(dir)
  .filter((f) => f.startsWith('lines.'))
  .map((f) => readFileSync(join(dir, f), 'utf8').split('\n').slice(0, -1));

function sendAll(lines) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'inherit'] });
    let next = 0;
    let pending = [];
    const send = () => {
      if (next < lines.length) child.stdin.write(`${lines[next++]}\n`);
      else child.stdin.end();
    };
    child.stdout.on('data', (d) => {
      let start = 0;
      for (;;) {
        const nl = d.indexOf(10, start);
        if (nl === -1) break;
        // One chunk (the usual case) decoded in place, more joined first, as the kit reads a line.
        if (pending.length === 0) JSON.parse(d.toString('utf8', start, nl));
        else {
          pending.push(d.subarray(start, nl));
          JSON.parse(Buffer.concat(pending).toString('utf8'));
          pending = [];
        }
        start = nl + 1;
        send();
      }
      if (start < d.length) pending.push(d.subarray(start));
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))));
    send();
  });
}

await Promise.all(logs.map(sendAll));
