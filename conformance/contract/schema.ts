/**
 * Validation of an assemble-context answer against ctxconform's own copy of
 * the WorkingContext facts (schemas/working-context.schema.json), so the
 * check works from an installed package without the anchor files.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { formatErrors } from '../schemas.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export const WORKING_CONTEXT_SCHEMA_PATH = fileURLToPath(new URL('../schemas/working-context.schema.json', import.meta.url));

let validate: ValidateFunction | undefined;

export function workingContextValidator(): ValidateFunction {
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(WORKING_CONTEXT_SCHEMA_PATH, 'utf8')) as object);
  }
  return validate;
}

/** The problems of an assemble-context answer body, one readable line each; empty when valid. */
export function workingContextProblems(body: unknown): string[] {
  const v = workingContextValidator();
  return v(body) ? [] : formatErrors(v.errors);
}
