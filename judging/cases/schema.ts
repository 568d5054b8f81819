/**
 * The golden-case format (judging/cases/case.schema.json): the loader's
 * and the counterexample writer's, so it lives beside them rather than among
 * the protocol's schemas. It joins the kit's schemas on first use.
 */
import type { ValidateFunction } from 'ajv';
import { packagePath } from '../../protocol/package-root.js';
import { compiled, registerSchema } from '../../protocol/schemas.js';

export const CASE_SCHEMA_PATH: string = packagePath('judging', 'cases', 'case.schema.json');

export function caseValidator(): ValidateFunction {
  registerSchema('case.schema.json', CASE_SCHEMA_PATH);
  return compiled('case.schema.json');
}
