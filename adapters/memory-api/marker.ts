/**
 * The run marker: one token carried by every text the kit ingests and sent as
 * the task, so a service that retrieves by relevance finds every memory of the
 * scope. Letters mixed with digits, so a keyword extractor does not make a
 * memory of the marker itself (SPEC section 16). A module of its own: the
 * command line's help names it, and every run would otherwise load the
 * translation of blocks into episodes to print one word.
 */
export const DEFAULT_MARKER = 'ctx7q2mark';
