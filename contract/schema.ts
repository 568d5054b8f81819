/**
 * Validation of an assemble-context answer against ctxconform's own copy of
 * the WorkingContext facts (protocol/schemas/working-context.schema.json), so the
 * check works from an installed package without the anchor files.
 */
import type { ValidateFunction } from 'ajv';
import { packagePath } from '../protocol/package-root.js';
import { compiled, formatErrors, registerSchema } from '../protocol/schemas.js';

export const WORKING_CONTEXT_SCHEMA_PATH = packagePath('protocol', 'schemas', 'working-context.schema.json');

/** One of the kit's schemas (same options and formats as every other). */
export function workingContextValidator(): ValidateFunction {
  registerSchema('working-context.schema.json', WORKING_CONTEXT_SCHEMA_PATH);
  return compiled('working-context.schema.json');
}

/** The problems of an assemble-context answer body, one readable line each; empty when valid. */
export function workingContextProblems(body: unknown): string[] {
  const v = workingContextValidator();
  return v(body) ? [] : formatErrors(v.errors);
}
