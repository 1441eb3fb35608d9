import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { changelogPage, errorsPage, landingPage, referencePage, REFERENCE_SCRIPT, STYLESHEET } from './developers.pages.js';
import { GRAPHIQL_ASSETS, graphiqlPage, readGraphiQLAsset } from './graphiql.page.js';
import { FAVICON_SVG, faviconIco } from './favicon.asset.js';

const require = createRequire(import.meta.url);

interface Asset {
  body: string | Uint8Array;
  type: string;
  /** Seconds clients may cache it. */
  maxAge: number;
}

/** The reference's scripts and styles, from the swagger-ui-dist npm package (no CDN), read once. */
function swaggerAsset(file: string, type: string): () => Asset {
  let asset: Asset | undefined;
  return () => (asset ??= { body: readFileSync(join(dirname(require.resolve('swagger-ui-dist/package.json')), file)), type, maxAge: 86_400 });
}

/** The icons, at the root where browsers look for them; served with the pages (keyless, the same budget). */
export const FAVICONS: ReadonlySet<string> = new Set(['/favicon.ico', '/favicon.svg']);

/**
 * GET /developers and its pages and assets: keyless, built once per process (the error page from the catalogue, the
 * changelog from CHANGELOG.md). Returns null for a path that is not one of them.
 */
export function createDeveloperPages(baseUrl: string): (path: string) => Asset | null {
  const html = (render: () => string) => {
    let page: Asset | undefined;
    return () => (page ??= { body: render(), type: 'text/html; charset=utf-8', maxAge: 300 });
  };
  const routes: Record<string, () => Asset> = {
    '/developers': html(() => landingPage(baseUrl)),
    '/developers/errors': html(() => errorsPage(baseUrl)),
    '/developers/changelog': html(() => changelogPage()),
    '/developers/reference': html(() => referencePage()),
    '/developers/style.css': () => ({ body: STYLESHEET, type: 'text/css; charset=utf-8', maxAge: 3600 }),
    '/developers/assets/reference.js': () => ({ body: REFERENCE_SCRIPT, type: 'text/javascript; charset=utf-8', maxAge: 3600 }),
    '/developers/assets/swagger-ui-bundle.js': swaggerAsset('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
    '/developers/assets/swagger-ui.css': swaggerAsset('swagger-ui.css', 'text/css; charset=utf-8'),
    // GET /graphql from a browser (app.ts) answers with this page.
    '/developers/graphiql': html(() => graphiqlPage()),
    '/favicon.svg': () => ({ body: FAVICON_SVG, type: 'image/svg+xml', maxAge: 86_400 }),
    '/favicon.ico': () => ({ body: faviconIco(), type: 'image/x-icon', maxAge: 86_400 }),
  };
  for (const [name, [, , type]] of Object.entries(GRAPHIQL_ASSETS)) {
    let asset: Asset | undefined;
    routes[`/developers/assets/graphiql/${name}`] = () => (asset ??= { body: readGraphiQLAsset(name), type, maxAge: 86_400 });
  }
  return (path) => {
    const route = Object.hasOwn(routes, path.replace(/\/$/, '')) ? routes[path.replace(/\/$/, '')] : undefined;
    return route ? route() : null;
  };
}
