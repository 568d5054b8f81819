/**
 * The protocol's JSON Schemas (protocol/schemas/), compiled once with ajv
 * (draft 2020-12) and exported so adapters, report writers and vendors
 * validate exactly what the runner does. Other schemas (the case format,
 * conformance/cases/schema.ts) join the same ajv instance with addSchema.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { packagePath } from './package-root.js';

// ajv and ajv-formats are CommonJS and take a tenth of a second to load: required on first
// use, so that commands that validate nothing (`ctxconform list`, `--help`) start fast.
const require = createRequire(import.meta.url);

export const SCHEMA_NAMES = ['request', 'result', 'error', 'manifest', 'report', 'baseline', 'matrix', 'stdio'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

export function schemaPath(name: SchemaName): string {
  return packagePath('protocol', 'schemas', `${name}.schema.json`);
}

export function loadSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(readFileSync(schemaPath(name), 'utf8')) as Record<string, unknown>;
}

let shared: Ajv2020 | undefined;

/** One ajv instance holding every schema, so `$ref`s between them resolve. */
export function ajv(): Ajv2020 {
  if (!shared) {
    const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
    shared = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(shared);
    for (const name of SCHEMA_NAMES) shared.addSchema(loadSchema(name), `${name}.schema.json`);
  }
  return shared;
}

const cache = new Map<string, ValidateFunction>();

/** The validator of a schema the shared instance holds, by `$id`-like name (`case.schema.json#/$defs/X`). */
export function compiled(ref: string): ValidateFunction {
  let v = cache.get(ref);
  if (!v) {
    v = ajv().getSchema(ref);
    if (!v) throw new Error(`no schema ${ref}`);
    cache.set(ref, v);
  }
  return v;
}

export const validators = {
  request: (): ValidateFunction => compiled('request.schema.json'),
  error: (): ValidateFunction => compiled('error.schema.json'),
  manifest: (): ValidateFunction => compiled('manifest.schema.json'),
  report: (): ValidateFunction => compiled('report.schema.json'),
  baseline: (): ValidateFunction => compiled('baseline.schema.json'),
  matrix: (): ValidateFunction => compiled('matrix.schema.json'),
  /** The stdio envelope (PROTO-3): a line the runner writes, and a line it reads back. */
  stdioRequest: (): ValidateFunction => compiled('stdio.schema.json#/$defs/Request'),
  stdioAnswer: (): ValidateFunction => compiled('stdio.schema.json#/$defs/Answer'),
  /** The exact result shape for a profile and the declared capabilities (RES-1, RANK-7, WC-1). */
  result(profile: string, capabilities: readonly string[]): ValidateFunction {
    const def =
      profile === 'tiered' && capabilities.includes('working_context') ? 'TieredWorkingContextResult' : profile === 'ranked' ? 'RankedResult' : 'TieredResult';
    return compiled(`result.schema.json#/$defs/${def}`);
  },
};

/** ajv errors as one readable line each: `/path: message`. */
export function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const extra =
      e.keyword === 'additionalProperties'
        ? ` "${(e.params as { additionalProperty: string }).additionalProperty}"`
        : e.keyword === 'unevaluatedProperties'
          ? ` "${(e.params as { unevaluatedProperty: string }).unevaluatedProperty}"`
          : e.keyword === 'enum'
            ? `: ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`
            : '';
    return `${e.instancePath || '(root)'}: ${e.message ?? e.keyword}${extra}`;
  });
}
