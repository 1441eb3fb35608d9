// The service's icon: served where browsers look for it, linked from every page, keyless and cacheable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ limits: 'spec' });
});
afterAll(() => t.close());

const raw = (path: string, init: RequestInit = {}) => t.app.fetch(new Request(`${BASE_URL}${path}`, init));

/** Every HTML page the service serves; GET /graphql answers a browser with GraphiQL. */
const PAGES = ['/developers', '/developers/reference', '/developers/errors', '/developers/changelog', '/developers/graphiql', '/graphql'];

describe('favicon', () => {
  it('/favicon.svg and /favicon.ico answer without a key, on the keyless budget, cacheable for a day', async () => {
    for (const [path, type] of [
      ['/favicon.svg', 'image/svg+xml'],
      ['/favicon.ico', 'image/x-icon'],
    ]) {
      const res = await raw(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(type);
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=86400');
      expect(res.headers.get('x-ratelimit-limit'), path).toBe('400');
      const head = await raw(path, { method: 'HEAD' });
      expect([head.status, await head.text()], path).toEqual([200, '']);
    }
  });

  it('the SVG is an SVG document and the ICO one 32×32 32-bit image, its header consistent with its length', async () => {
    expect(await (await raw('/favicon.svg')).text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*>[\s\S]*<\/svg>\s*$/);
    const ico = Buffer.from(await (await raw('/favicon.ico')).arrayBuffer());
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]); // reserved, icon, one image
    expect([ico[6], ico[7], ico.readUInt16LE(12)]).toEqual([32, 32, 32]);
    const [bytes, offset] = [ico.readUInt32LE(14), ico.readUInt32LE(18)];
    expect(offset + bytes).toBe(ico.length);
    expect(ico.readUInt32LE(offset)).toBe(40); // a BMP info header
  });

  it('every HTML page links both icons', async () => {
    for (const path of PAGES) {
      const html = await (await raw(path, { headers: { accept: 'text/html' } })).text();
      expect(html, path).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32">');
      expect(html, path).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    }
  });

  it('other paths at the root are still not found', async () => {
    const res = await raw('/favicon.png');
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('route_not_found');
  });
});
