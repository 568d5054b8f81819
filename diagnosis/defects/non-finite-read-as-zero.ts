import { defineDefect } from '../defect-registry.js';
import { isObject } from '../json-object.js';
import type { Rec } from '../hooks.js';

function zeroNonFinite(x: unknown): unknown {
  if (typeof x === 'number') return Number.isFinite(x) ? x : 0;
  if (Array.isArray(x)) return x.map(zeroNonFinite);
  if (isObject(x)) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, zeroNonFinite(v)]));
  return x;
}

export default defineDefect({
  id: 'non-finite-read-as-zero',
  section: 'validation',
  requirements: ['VAL-8', 'VAL-1'],
  summary: 'NaN and Infinity are read as 0 and the request is answered; VAL-8 makes them invalid wherever a number is expected',
  defects: {
    readNonFinite: (r) => zeroNonFinite(r) as Rec,
  },
});
