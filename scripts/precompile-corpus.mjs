// The build's step after tsc: the bundled corpus parsed once into dist/corpus.json
// (conformance/cases/precompiled.ts says when the loader may use it).
import { BUNDLED_CASES_DIR, formatProblem, loadCorpus } from '../dist/conformance/cases/load.js';
import { writePrecompiled } from '../dist/conformance/cases/precompiled.js';

const { cases, problems } = loadCorpus(BUNDLED_CASES_DIR, { precompiled: false });
for (const p of problems) console.error(formatProblem(p));
writePrecompiled(BUNDLED_CASES_DIR, cases);
