/**
 * The golden-case format (conformance/schemas/case.schema.json): the loader's
 * and the counterexample writer's, so it lives beside them rather than among
 * the protocol's schemas. It joins the shared ajv instance on first use.
 */
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { packagePath } from '../../protocol/package-root.js';
import { ajv, compiled } from '../../protocol/schemas.js';

export const CASE_SCHEMA_PATH: string = packagePath('conformance', 'schemas', 'case.schema.json');

let added = false;

export function caseValidator(): ValidateFunction {
  if (!added) {
    ajv().addSchema(JSON.parse(readFileSync(CASE_SCHEMA_PATH, 'utf8')) as object, 'case.schema.json');
    added = true;
  }
  return compiled('case.schema.json');
}
