// graphql-jit builds a fresh response path chain per resolver call; the REST adapter hands plugin-prisma one shared
// link per path instead (src/graphql/shared-response-paths.ts), as graphql-js does.
import { describe, expect, it } from 'vitest';
import { createResponsePathLinks } from '../../src/graphql/shared-response-paths.js';

const chain = (...keys: (string | number)[]) =>
  keys.reduce<{ prev: unknown; key: string | number; typename: string | undefined } | undefined>(
    (prev, key) => ({ prev, key, typename: undefined }) as never,
    undefined,
  )!;

describe('shared response path links', () => {
  it('two chains for one path give the same link, and its parent is the shared link of the parent path', () => {
    const links = createResponsePathLinks();
    const a = links(chain('venues', 'edges', 3, 'node', 'photos') as never);
    const b = links(chain('venues', 'edges', 3, 'node', 'photos') as never);
    expect(b).toBe(a);
    expect(a.prev).toBe(links(chain('venues', 'edges', 3, 'node') as never));
    expect([a.key, a.prev!.key, a.prev!.prev!.key]).toEqual(['photos', 'node', 3]);
  });

  it('another row, field or request gives another link', () => {
    const links = createResponsePathLinks();
    const row3 = links(chain('venues', 'edges', 3, 'node') as never);
    expect(links(chain('venues', 'edges', 4, 'node') as never)).not.toBe(row3);
    expect(links(chain('venues', 'edges', 3, 'cursor') as never)).not.toBe(row3);
    expect(createResponsePathLinks()(chain('venues', 'edges', 3, 'node') as never)).not.toBe(row3);
  });
});
