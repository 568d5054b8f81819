/** A JSON object (not null, not an array): what an answer or a member must be before its members are read. The diagnosis's one test of it. */
export const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
