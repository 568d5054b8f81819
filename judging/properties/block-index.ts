/**
 * One request's blocks by id, for the checks of one answer: a replay judges
 * each recorded request with several checks (partition, budget, whole blocks),
 * and each needs the block of an id. With an index in the env they look ids up
 * in one map, made when first asked for, instead of each making its own.
 */

interface Blocks {
  blocks: readonly { block_id: string }[];
}

/** The index in `blocks` of each id's block, the last of an id given twice winning. */
export function indexBlocks(request: Blocks): Map<string, number> {
  const m = new Map<string, number>();
  const blocks = request.blocks;
  for (let i = 0; i < blocks.length; i++) m.set(blocks[i]!.block_id, i);
  return m;
}

/** indexBlocks of one request, made once: a map is given only for the very request (and blocks array) it was made from. */
export class BlockIndex {
  private request: Blocks | undefined;
  private blocks: Blocks['blocks'] | undefined;
  private map: Map<string, number> | undefined;

  of(request: Blocks): ReadonlyMap<string, number> {
    if (this.map === undefined || this.request !== request || this.blocks !== request.blocks) {
      this.request = request;
      this.blocks = request.blocks;
      this.map = indexBlocks(request);
    }
    return this.map;
  }
}
