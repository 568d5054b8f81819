// The build's step after tsc: what every command would otherwise redo at start-up, done once.
// 1. dist/validators.cjs: every schema the kit validates with, as ajv standalone code, and
//    dist/validators.json: the schema files it was made from (protocol/schemas.ts uses it while they are unchanged).
// 2. dist/corpus.json: the bundled golden cases, parsed and checked (judging/cases/precompiled.ts).
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CASE_SCHEMA_PATH } from '../dist/judging/cases/schema.js';
import { WORKING_CONTEXT_SCHEMA_PATH } from '../dist/contract/schema.js';
import { KIT_REFS, PRECOMPILED_INPUTS, PRECOMPILED_VALIDATORS, createAjv, registerSchema, schemaDocuments, schemaInputs } from '../dist/protocol/schemas.js';

registerSchema('case.schema.json', CASE_SCHEMA_PATH);
registerSchema('working-context.schema.json', WORKING_CONTEXT_SCHEMA_PATH);
const documents = schemaDocuments();
const refs = [...KIT_REFS, 'case.schema.json', 'working-context.schema.json'];
const standalone = createRequire(import.meta.url)('ajv/dist/standalone').default;
const code = standalone(createAjv({ source: true }), Object.fromEntries(refs.map((r) => [r, r])));
writeFileSync(PRECOMPILED_VALIDATORS, code);
writeFileSync(PRECOMPILED_INPUTS, JSON.stringify(schemaInputs(documents.map(([, file]) => file))));

const { BUNDLED_CASES_DIR, formatProblem, loadCorpus } = await import('../dist/judging/cases/load.js');
const { writePrecompiled } = await import('../dist/judging/cases/precompiled.js');
const { cases, problems } = loadCorpus(BUNDLED_CASES_DIR, { precompiled: false });
for (const p of problems) console.error(formatProblem(p));
writePrecompiled(BUNDLED_CASES_DIR, cases);
