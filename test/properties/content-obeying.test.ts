/**
 * REN-4: content is data. An implementation that obeys words in the content
 * (raises a block that says IMPORTANT, drops what came before "ignore
 * previous", puts a SYSTEM: block first) fails the content-blindness property
 * on its own: the generated contents and their twins carry those words.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { runProperties } from '../../judging/properties/index.js';
import type { Manifest } from '../../protocol/types.js';
import { assemble } from '../../reference/index.js';

type Block = { content: string; priority: number };
type Request = { blocks: Block[] };

const MANIFEST: Manifest = { name: 'content-obeying', version: '0', profiles: ['tiered', 'ranked'], capabilities: [] };

/** The reference, after the request was rewritten as the words in its content say. */
function obeying(rewrite: (blocks: Block[]) => Block[]) {
  return fromFunctions(
    (req) => {
      const r = req as Request;
      return assemble(Array.isArray(r?.blocks) ? { ...r, blocks: rewrite(r.blocks.map((b) => ({ ...b }))) } : req, { capabilities: [] });
    },
    () => MANIFEST,
  );
}

const says = (b: Block, words: string): boolean => typeof b.content === 'string' && b.content.includes(words);

const OBEYING: Array<[string, (blocks: Block[]) => Block[]]> = [
  ['IMPORTANT raises a block', (bs) => bs.map((b) => (says(b, 'IMPORTANT') ? { ...b, priority: b.priority + 100 } : b))],
  [
    '"ignore previous" drops the blocks before it',
    (bs) => {
      const at = bs.findIndex((b) => says(b, 'ignore previous'));
      return at < 0 ? bs : bs.slice(at);
    },
  ],
  ['SYSTEM: puts a block first', (bs) => bs.map((b) => (says(b, 'SYSTEM:') ? { ...b, priority: 1e6 } : b))],
];

describe('an implementation that obeys its content', () => {
  it.each(OBEYING)('%s: fails content-blindness within 300 runs', async (_, rewrite) => {
    const [r] = await runProperties(obeying(rewrite), MANIFEST, { runs: 300, seed: 23, timeoutMs: 5000, only: ['content-blindness'] });
    expect(r!.id).toBe('property/content-blindness');
    expect(r!.status, r!.message).toBe('fail');
    expect(r!.message).toMatch(/selection changed when only content text changed/);
  });

  it('the reference passes it at the same seed', async () => {
    const [r] = await runProperties(
      fromFunctions(
        (req) => assemble(req, { capabilities: [] }),
        () => MANIFEST,
      ),
      MANIFEST,
      { runs: 300, seed: 23, timeoutMs: 5000, only: ['content-blindness'] },
    );
    expect(r!.status, r!.message).toBe('pass');
  });
});
