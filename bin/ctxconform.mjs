#!/usr/bin/env node
// The kit ships TypeScript sources; tsx compiles them on load so one tree serves the repo and the package.
import { register } from 'tsx/esm/api';

register();
// A reader that stops early (`ctxconform run | head`) closes the pipe. Output stops there, quietly,
// but the command goes on: a run still writes its reports and exits with its verdict, which an
// early exit would have turned into 0.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
  process.stdout.write = () => true;
});
const { main } = await import('../conformance/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
