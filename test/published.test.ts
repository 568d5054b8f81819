/**
 * The copies in test/fixtures/published/ are the published files byte for
 * byte (never edited), checked against the originals when CTXCONFORM_ANCHORS
 * names a folder of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANCHORS_DIR, PUBLISHED_DIR, sayWhenNoAnchors } from './published.js';

sayWhenNoAnchors('published.test');

const COPIES = ['lesson7', 'infinicon'].flatMap((dir) => readdirSync(join(PUBLISHED_DIR, dir)).map((f) => `${dir}/${f}`));

it('holds the lesson artifact, its input and the contract example answers', () => {
  expect(COPIES).toEqual(
    expect.arrayContaining([
      'lesson7/context-demo.json',
      'lesson7/demo-input.json',
      'infinicon/assemble-context.request.json',
      'infinicon/truncated-context.response.json',
    ]),
  );
  expect(COPIES.filter((f) => /schema|openapi/i.test(f))).toEqual([]);
});

describe.skipIf(!ANCHORS_DIR)('each copy equals its published original', () => {
  for (const f of COPIES) {
    it(f, () => {
      expect(readFileSync(join(PUBLISHED_DIR, f)).equals(readFileSync(join(ANCHORS_DIR!, f)))).toBe(true);
    });
  }
});
