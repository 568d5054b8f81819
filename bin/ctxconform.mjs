#!/usr/bin/env node
// The kit ships TypeScript sources; tsx compiles them on load so one tree serves the repo and the package.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../conformance/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
