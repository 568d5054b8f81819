// The reference behind the stdio protocol (SPEC PROTO-3), every capability declared, run from
// the compiled kit (dist/): test/fixtures/replay/reference-stdio.ts without tsx, whose compiling
// the reference at every start would be counted as the implementation's CPU in the replay bench.
// With CTXCONFORM_RECORD_LINES=DIR, each process also appends every line it reads to
// DIR/lines.<pid>.jsonl (stdio-floor.mjs sends them again); a recording run is not a timed one.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { assemble, CAPABILITIES, describe } from '../dist/reference/index.js';

const record = process.env.CTXCONFORM_RECORD_LINES ? join(process.env.CTXCONFORM_RECORD_LINES, `lines.${process.pid}.jsonl`) : undefined;

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  if (record) appendFileSync(record, line + '\n');
  const msg = JSON.parse(line);
  let answer;
  if (msg.op === 'describe') answer = { id: msg.id, ok: { ...describe(), capabilities: CAPABILITIES } };
  else if (msg.op === 'assemble') {
    const out = assemble(msg.request, { capabilities: CAPABILITIES });
    answer = out.error !== undefined ? { id: msg.id, error: out.error } : { id: msg.id, ok: out };
  } else answer = { id: msg.id, error: { code: 'unknown_op', message: `unknown op ${msg.op}` } };
  process.stdout.write(JSON.stringify(answer) + '\n');
});
