import { readFileSync } from 'node:fs';

/** The kit's version, from package.json, so reports name the kit that judged. */
export const KIT_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export const SPEC_VERSION = 'v1';
