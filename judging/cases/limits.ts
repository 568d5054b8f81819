/**
 * The size limits of a case file, for the loader that refuses a larger one
 * and the counterexample writer that must not write one.
 */

/** Largest case file read: the biggest bundled case is under 8 KB, and the YAML reader holds up to about 200 bytes of memory per byte it reads. */
export const MAX_CASE_FILE_BYTES = 512 * 1024;

/** Most keys in one mapping of a case file: a case's mappings hold members and block ids, never this many. */
export const MAX_MAPPING_KEYS = 10_000;
