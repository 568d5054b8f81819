/**
 * The protocol's JSON Schemas (protocol/schemas/), compiled once with ajv
 * (draft 2020-12) and exported so adapters, report writers and vendors
 * validate exactly what the runner does. Other folders' schemas (the case
 * format, the WorkingContext answer) join with registerSchema.
 *
 * The build compiles every validator the kit uses into dist/validators.cjs
 * (ajv's standalone code), so a command validates without compiling schemas;
 * that file is used only while the schema files it was built from are
 * unchanged, and ajv compiles at run time otherwise.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isStackOverflow } from './deep-json.js';
import { packagePath, PACKAGE_ROOT } from './package-root.js';

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

/** Schema documents of other folders, by the name refs use (`case.schema.json`), with their files. */
const registered = new Map<string, string>();

/** Add a schema document (a file of the package) under a name that `compiled(name)` and `$ref`s use. */
export function registerSchema(name: string, path: string): void {
  if (registered.get(name) === path) return;
  if (registered.has(name)) throw new Error(`schema ${name} is already registered from ${registered.get(name)!}`);
  registered.set(name, path);
  shared?.addSchema(JSON.parse(readFileSync(path, 'utf8')) as object, name);
}

/** Every schema document: the protocol's, then the registered ones, as [name, file]. */
export function schemaDocuments(): [string, string][] {
  return [...SCHEMA_NAMES.map((n): [string, string] => [`${n}.schema.json`, schemaPath(n)]), ...registered];
}

/** A fresh ajv instance with the kit's options and every schema document (`source` keeps the code, for the build's standalone file). */
export function createAjv(options: { source?: boolean } = {}): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
  const instance = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, ...(options.source ? { code: { source: true } } : {}) });
  addFormats(instance);
  for (const [name, path] of schemaDocuments()) instance.addSchema(JSON.parse(readFileSync(path, 'utf8')) as object, name);
  return instance;
}

let shared: Ajv2020 | undefined;

/** One ajv instance holding every schema, so `$ref`s between them resolve. */
export function ajv(): Ajv2020 {
  shared ??= createAjv();
  return shared;
}

export const PRECOMPILED_VALIDATORS = packagePath('dist', 'validators.cjs');
export const PRECOMPILED_INPUTS = packagePath('dist', 'validators.json');

/** What dist/validators.cjs was built from: each schema file (relative to the package) and its hash. */
export function schemaInputs(files: readonly string[]): [string, string][] {
  return files.map((f) => [
    f
      .slice(PACKAGE_ROOT.length + 1)
      .split('\\')
      .join('/'),
    createHash('sha1').update(readFileSync(f)).digest('hex'),
  ]);
}

let precompiled: Record<string, ValidateFunction> | null | undefined;

function precompiledValidator(ref: string): ValidateFunction | undefined {
  if (precompiled === undefined) {
    precompiled = null;
    if (existsSync(PRECOMPILED_INPUTS) && existsSync(PRECOMPILED_VALIDATORS)) {
      const built = JSON.parse(readFileSync(PRECOMPILED_INPUTS, 'utf8')) as [string, string][];
      const now = schemaInputs(built.map(([f]) => packagePath(f)).filter((f) => existsSync(f)));
      if (JSON.stringify(now) === JSON.stringify(built)) precompiled = require(PRECOMPILED_VALIDATORS) as Record<string, ValidateFunction>;
    }
  }
  return precompiled?.[ref];
}

const cache = new Map<string, ValidateFunction>();

/** The validator of a schema the kit holds, by `$id`-like name (`case.schema.json#/$defs/X`). */
export function compiled(ref: string): ValidateFunction {
  let v = cache.get(ref);
  if (!v) {
    const found = precompiledValidator(ref) ?? ajv().getSchema(ref);
    if (!found) throw new Error(`no schema ${ref}`);
    v = depthGuarded(found);
    cache.set(ref, v);
  }
  return v;
}

/**
 * ajv walks only what a schema describes, but `uniqueItems` compares the items
 * of an array by deep equality, recursively: an array holding values nested
 * thousands deep (a hostile manifest's `profiles`) overflows the stack. Such a
 * value is refused with that reason, as a validation error, instead of a crash.
 */
function depthGuarded(v: ValidateFunction): ValidateFunction {
  const guarded = ((data: unknown): boolean => {
    try {
      const ok = v(data) as boolean;
      guarded.errors = v.errors;
      return ok;
    } catch (e) {
      if (!isStackOverflow(e)) throw e;
      guarded.errors = [
        {
          instancePath: '',
          schemaPath: '#',
          keyword: 'depth',
          params: {},
          message: 'is nested too deep to be checked (its arrays are compared by deep equality, which recurses)',
        },
      ];
      return false;
    }
  }) as ValidateFunction;
  guarded.schema = v.schema;
  guarded.errors = null;
  (guarded as GuardedValidator).unguarded = v;
  return guarded;
}

/** A kit validator: ajv's function (precompiled or compiled now) behind the depth guard. */
export type GuardedValidator = ValidateFunction & { unguarded: ValidateFunction };

/** The result shapes (RES-1, RANK-7, WC-1). */
const RESULT_REFS = {
  tiered: 'result.schema.json#/$defs/TieredResult',
  ranked: 'result.schema.json#/$defs/RankedResult',
  workingContext: 'result.schema.json#/$defs/TieredWorkingContextResult',
};

/** Every ref the kit compiles: what the build puts in dist/validators.cjs. */
export const KIT_REFS: readonly string[] = [
  ...SCHEMA_NAMES.filter((n) => n !== 'stdio' && n !== 'result').map((n) => `${n}.schema.json`),
  'stdio.schema.json#/$defs/Request',
  'stdio.schema.json#/$defs/Answer',
  RESULT_REFS.tiered,
  RESULT_REFS.ranked,
  RESULT_REFS.workingContext,
];

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
    // The refs as constants: a replay asks for one with every answer it reads.
    return compiled(
      profile === 'tiered' && capabilities.includes('working_context')
        ? RESULT_REFS.workingContext
        : profile === 'ranked'
          ? RESULT_REFS.ranked
          : RESULT_REFS.tiered,
    );
  },
};

/** ajv errors as one readable line each: `/path: message`. */
export function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const extra =
      e.keyword === 'additionalProperties'
        ? ` ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}`
        : e.keyword === 'unevaluatedProperties'
          ? ` ${JSON.stringify((e.params as { unevaluatedProperty: string }).unevaluatedProperty)}`
          : e.keyword === 'enum'
            ? `: ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`
            : '';
    return `${e.instancePath || '(root)'}: ${e.message ?? e.keyword}${extra}`;
  });
}
