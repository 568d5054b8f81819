/**
 * Validation of an assemble-context answer against ctxconform's own copy of
 * the WorkingContext facts (protocol/schemas/working-context.schema.json), so the
 * check works from an installed package without the anchor files.
 */
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { packagePath } from '../../protocol/package-root.js';
import { ajv, formatErrors } from '../../protocol/schemas.js';

export const WORKING_CONTEXT_SCHEMA_PATH = packagePath('protocol', 'schemas', 'working-context.schema.json');

let validate: ValidateFunction | undefined;

/** Compiled once into the kit's shared ajv instance (same options and formats as every other schema). */
function workingContextValidator(): ValidateFunction {
  validate ??= ajv().compile(JSON.parse(readFileSync(WORKING_CONTEXT_SCHEMA_PATH, 'utf8')) as object);
  return validate;
}

/** The problems of an assemble-context answer body, one readable line each; empty when valid. */
export function workingContextProblems(body: unknown): string[] {
  const v = workingContextValidator();
  return v(body) ? [] : formatErrors(v.errors);
}
