import { codePointLength } from './unicode.js';

/**
 * The code-point lengths (NUM-1) of one request's contents, by block index,
 * for callers that read the same request several times: a replay validates a
 * recorded request, asks the reference for its answer and checks the budget
 * of the implementation's answer, each of which needs every content's length.
 * Counting is most of what validation costs on long contents, so with a table
 * each content is counted once.
 *
 * A length is returned only for the very string it was counted from, so a
 * table filled from another request, or from this one before it changed,
 * gives no wrong length: the content is counted again.
 */
export class ContentLengths {
  private readonly contents: string[] = [];
  private readonly lengths: number[] = [];

  /** The code-point length of `content`, the content of block `i`. */
  of(i: number, content: string): number {
    if (this.contents[i] !== content) {
      this.contents[i] = content;
      this.lengths[i] = codePointLength(content);
    }
    return this.lengths[i]!;
  }
}
