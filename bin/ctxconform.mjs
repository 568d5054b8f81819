#!/usr/bin/env node
// The command line runs the compiled JavaScript in dist/ (built by `npm run build`,
// which `npm ci`, `npm install` from git and `npm pack` run through `prepare`).
// A reader that stops early (`ctxconform run | head`) closes the pipe. Output stops there, quietly,
// but the command goes on: a run still writes its reports and exits with its verdict, which an
// early exit would have turned into 0.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
  process.stdout.write = () => true;
});
let main;
try {
  ({ main } = await import('../dist/cli/main.js'));
} catch (e) {
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !String(e.message).includes('dist/cli/main.js')) throw e;
  console.error("ctxconform: the compiled kit is missing (dist/); run `npm run build` in the kit's folder");
  process.exit(2);
}
process.exitCode = await main(process.argv.slice(2));
// The command is done and its implementations closed: the exit status reaches the caller even when
// something still holds the event loop (a pipe a peer's grandchild keeps open, a socket). The timer
// does not hold the loop itself, so an ordinary exit is not delayed.
setTimeout(() => process.exit(), 1000).unref();
