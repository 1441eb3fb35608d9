import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../../src/graphql/schema.js';

describe('schema.graphql', () => {
  it('is the printed, sorted schema (run npm run schema:print after changing a type)', () => {
    const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(printedSchema());
  });

  it('names every GraphQL field as the camelCase of its REST field', () => {
    const sdl = printedSchema();
    expect(sdl).not.toMatch(/^\s+[a-z]+_[a-z_]+[:(]/m);
    for (const field of [
      'priceRange',
      'heroImage',
      'seoDescription',
      'totalPhotos',
      'startingTotal',
      'includesFees',
      'rateDate',
      'businessName',
      'isAffiliateOnly',
      'categoryStats',
      'vendorCount',
    ]) {
      expect(sdl).toContain(`${field}`);
    }
  });
});
