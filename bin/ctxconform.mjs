#!/usr/bin/env node
// The kit ships TypeScript sources; tsx compiles them on load so one tree serves the repo and the package.
import { register } from 'tsx/esm/api';

register();
// A reader that stops early (`ctxconform list | head`) closes the pipe: stop quietly, as other CLIs do.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
const { main } = await import('../conformance/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
