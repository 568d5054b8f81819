// Loaded with --import into a process the replay bench measures (the kit's command, an
// implementation): at exit it writes its CPU time in ms, all threads, and what it had spent when
// its main module and that module's imports had loaded (its start), to
// $CTXCONFORM_CPU_REPORT.<pid>.json. Plain JavaScript, so that the kit's process needs no loader.
import { writeFileSync } from 'node:fs';

const file = process.env.CTXCONFORM_CPU_REPORT;
if (file) {
  const ms = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let started;
  // The first turn of the event loop comes after the main module and its static imports are evaluated.
  setImmediate(() => (started = ms()));
  process.on('exit', () =>
    writeFileSync(`${file}.${process.pid}.json`, JSON.stringify({ argv: process.argv.slice(1), cpuMs: ms(), startedMs: started ?? null })),
  );
}
