import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { changelogPage, errorsPage, landingPage, referencePage, REFERENCE_SCRIPT, STYLESHEET } from './developers.pages.js';
import { GRAPHIQL_ASSETS, graphiqlPage, readGraphiQLAsset } from './graphiql.page.js';
import { FAVICON_SVG, faviconIco } from './favicon.asset.js';
import { ApiError } from '../errors/api-error.js';
import { translate } from '../errors/translate.js';
import type { RequestContexts } from '../http/context.js';
import { Answer } from '../http/answer.js';
import type { HttpSurface } from '../http/ingress.js';
import { errorAnswer } from '../http/responses.js';
import { utf8Bytes } from '../http/utf8.js';

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
    // GET /graphql from a browser (src/http/graphql-surface.ts) answers with this page.
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

/** A page as it is answered: its media type and how long clients may keep it (`vary` when the URL also answers JSON). */
function pageAnswer(page: Asset, vary?: string): Answer {
  const head: Array<[string, string]> = [
    ['content-type', page.type],
    ['cache-control', `public, max-age=${page.maxAge}`],
  ];
  if (vary) head.push(['vary', vary]);
  const body =
    typeof page.body === 'string' ? utf8Bytes(page.body) : Buffer.from(page.body.buffer as ArrayBuffer, page.body.byteOffset, page.body.byteLength);
  return new Answer(200, head, body);
}

/**
 * GET /developers, its pages and assets, and the icons: keyless, on the client IP's budget (§8.4). `graphiql` is the
 * GraphiQL page GET /graphql answers a browser with (src/http/graphql-surface.ts).
 */
export function createPagesSurface(baseUrl: string, contexts: Pick<RequestContexts, 'admitKeyless'>): HttpSurface & { graphiql: () => Answer } {
  const pages = createDeveloperPages(baseUrl);
  return {
    accepts: (path, method) => (path === '/developers' || path.startsWith('/developers/') || FAVICONS.has(path)) && method === 'GET',
    async serve({ path, scope, admission, ip }) {
      try {
        await contexts.admitKeyless(admission, ip);
        const page = pages(path);
        if (!page) throw new ApiError('route_not_found', { message: `No page ${path}; start at /developers.` });
        return pageAnswer(page);
      } catch (e) {
        return errorAnswer(translate(e, scope.log, scope.requestId), scope.requestId, baseUrl);
      }
    },
    // The same URL answers JSON to API clients: a cache must not hand this page to them (or their JSON to a browser).
    graphiql: () => pageAnswer(pages('/developers/graphiql')!, 'Accept'),
  };
}
