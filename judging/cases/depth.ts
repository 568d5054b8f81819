/**
 * How deep a case file may nest. Case files are YAML, and the YAML library's
 * parser, composer and writer recurse: past some hundreds of levels they fail
 * with "Maximum call stack size exceeded" or run out of memory. A recorded
 * request may nest 10,000 deep (REQ-3: an unknown member is ignored, whatever
 * it holds), so a case file cannot hold every request; instead of a crash,
 * the loader refuses a deeper file with its reason, before the YAML parser
 * sees it, and the counterexample writer does not save a deeper request as a
 * case (the replay result still holds it, in JSON, which has no such limit).
 */

/** Levels of nesting a saved case's request may have (a request has 4: request, blocks, block, member). */
export const MAX_CASE_DEPTH = 100;

/** Levels a case file may have, as yamlNestingBound counts them: a request of MAX_CASE_DEPTH levels fits, with room for the bound's slack. */
export const MAX_CASE_FILE_DEPTH = 2 * MAX_CASE_DEPTH;

const BLOCK_SCALAR = /(?:^|[\s:-])[|>][-+1-9]*\s*(?:#.*)?$/;

/**
 * An upper bound on the nesting of a YAML text's collections, read line by
 * line without parsing (so it cannot itself overflow): the indentation levels
 * open at a line, plus its compact `- ` entries, plus the flow brackets (`[`,
 * `{`) open outside quotes and comments. Block scalars are skipped. Never
 * below the true depth; above it by a little at most.
 */
export function yamlNestingBound(text: string): { depth: number; line: number } {
  let deepest = 0;
  let deepestLine = 1;
  let lineNo = 0;
  const indents: number[] = [];
  let flow = 0;
  let quote: '"' | "'" | undefined;
  /** Inside a block scalar: lines indented more than this are its text. */
  let scalarParent: number | undefined;
  for (const raw of text.split(/\r?\n/)) {
    lineNo++;
    const indent = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (scalarParent !== undefined) {
      if (body === '' || indent > scalarParent) continue;
      scalarParent = undefined;
    }
    if (body === '' || (quote === undefined && flow === 0 && body.startsWith('#'))) continue;
    let start = 0;
    let dashes = 0;
    if (quote === undefined && flow === 0) {
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      // `- - - x`: each entry opens a sequence inside the one before.
      while (raw.startsWith('- ', indent + start) || (raw.length === indent + start + 1 && raw.endsWith('-'))) {
        dashes++;
        start += 2;
      }
      if (BLOCK_SCALAR.test(raw)) scalarParent = indent;
    }
    let lineFlow = flow;
    /** In block context a bracket opens flow only where a value starts. */
    let valueStart = true;
    for (let i = indent + start; i < raw.length; i++) {
      const ch = raw[i]!;
      if (quote !== undefined) {
        if (ch === '\\' && quote === '"') i++;
        else if (ch === quote) {
          if (quote === "'" && raw[i + 1] === "'") i++;
          else quote = undefined;
        }
        continue;
      }
      if (ch === '#' && (i === 0 || /\s/.test(raw[i - 1]!))) break;
      if (ch === ' ' || ch === '\t') continue;
      if ((ch === '"' || ch === "'") && (flow > 0 || valueStart)) {
        quote = ch;
        continue;
      }
      if ((ch === '[' || ch === '{') && (flow > 0 || valueStart)) {
        flow++;
        if (flow > lineFlow) lineFlow = flow;
        continue;
      }
      if ((ch === ']' || ch === '}') && flow > 0) {
        flow--;
        continue;
      }
      if (flow > 0) continue;
      // A plain scalar: its brackets are text, until `: ` starts a value.
      valueStart = ch === ':' && (i + 1 === raw.length || raw[i + 1] === ' ');
    }
    const depth = indents.length + dashes + lineFlow + 1;
    if (depth > deepest) {
      deepest = depth;
      deepestLine = lineNo;
    }
  }
  return { depth: deepest, line: deepestLine };
}
