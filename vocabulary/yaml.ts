/**
 * The YAML library, loaded when first needed: the bundled corpus usually comes
 * precompiled and most runs save no counterexample, and loading the library
 * costs a command more than reading the whole corpus index.
 */
import { createRequire } from 'node:module';

let yamlModule: typeof import('yaml') | undefined;

export const yaml = (): typeof import('yaml') => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));
