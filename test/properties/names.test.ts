/**
 * PROPERTY_NAMES, what a --filter is checked against without loading the
 * properties, names the catalogue's properties, in its order.
 */
import { describe, expect, it } from 'vitest';
import { PROPERTIES } from '../../judging/properties/catalog.js';
import { PROPERTY_NAMES } from '../../judging/properties/names.js';

describe('PROPERTY_NAMES', () => {
  it("is the catalogue's property names, in its order", () => {
    expect(PROPERTY_NAMES).toEqual(PROPERTIES.map((p) => p.name));
  });
});
