/**
 * The golden-case format (conformance/schemas/case.schema.json): the loader's
 * and the counterexample writer's, so it lives beside them rather than among
 * the protocol's schemas. It joins the shared ajv instance on first use.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { ajv, compiled } from '../../protocol/schemas.js';

export const CASE_SCHEMA_PATH: string = fileURLToPath(new URL('../schemas/case.schema.json', import.meta.url));

let added = false;

export function caseValidator(): ValidateFunction {
  if (!added) {
    ajv().addSchema(JSON.parse(readFileSync(CASE_SCHEMA_PATH, 'utf8')) as object, 'case.schema.json');
    added = true;
  }
  return compiled('case.schema.json');
}
