import { readFileSync } from 'node:fs';
import { packagePath } from '../protocol/package-root.js';

/** The kit's version, from package.json, so reports name the kit that judged. */
export const KIT_VERSION: string = (
  JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }
).version;

export const SPEC_VERSION = 'v1';
