import { answerThroughCache, type AnswerCodec } from '../cache/response-cache.js';
import { ApiError } from '../errors/api-error.js';
import { translate } from '../errors/translate.js';
import type { RequestContexts } from '../http/context.js';
import { weakEtag } from '../http/conventions.js';
import { Answer } from '../http/answer.js';
import { utf8Bytes } from '../http/utf8.js';
import type { HttpSurface, Visit } from '../http/ingress.js';
import { errorPage, PAGE_HEADERS } from './site.layout.js';
import { demoMedia } from './site.media.js';
import { isSitePath } from './site.paths.js';
import { SITE_PAGES } from './site.routes.js';

const HTML = 'text/html; charset=utf-8';

/**
 * How long a browser or a shared cache may keep a page, seconds: §8.10's 5 minutes, as catalogue reads. A page is the
 * same for everyone, so `public`; its ETag lets a client revalidate for a 304.
 */
const PAGE_MAX_AGE = 300;
/** A demo photo never changes at its path. */
const MEDIA_CACHE = 'public, max-age=31536000, immutable';

/** A page as it is kept in the response cache: its HTML and the ETag of it. */
interface PageAnswer {
  html: string;
  etag: string;
}

const PAGE_ANSWERS: AnswerCodec<PageAnswer> = {
  keep: (page) => `${page.etag}\n${page.html}`,
  load: (text) => {
    const cut = text.indexOf('\n');
    return { etag: text.slice(0, cut), html: text.slice(cut + 1) };
  },
  reuse: (page) => ({ kept: page, bytes: Buffer.byteLength(page.html) }),
};

/** Whether If-None-Match names this ETag (or `*`). */
const matches = (ifNoneMatch: string | null, etag: string) =>
  Boolean(ifNoneMatch?.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*'));

/**
 * A 200 with its validators, or the 304 that stands for it. This surface answers conditional GETs itself: the
 * conditional-get answer step leaves an answer that names its ETag with `public` caching as it is (answer-steps.ts).
 */
function validated(body: string, etag: string, headers: Record<string, string>, ifNoneMatch: string | null): Answer {
  const all: Record<string, string> = { ...headers, etag };
  if (!matches(ifNoneMatch, etag)) return new Answer(200, Object.entries(all), utf8Bytes(body));
  // A 304 has no body, so nothing of one is described.
  delete all['content-type'];
  return new Answer(304, Object.entries(all), null);
}

/** The surface's one error renderer: the classified error as an HTML page with its status and headers. */
function errorAnswer(error: ApiError): Answer {
  // A path that names no venue is a page that does not exist, whatever characters it has: 404, not 400.
  const status = error.code === 'invalid_slug' ? 404 : error.status;
  const message = error.code === 'invalid_slug' ? 'No published venue has this address.' : error.message;
  const headers = { ...error.headers, 'content-type': HTML, 'cache-control': 'no-store', ...PAGE_HEADERS };
  return new Answer(status, Object.entries(headers), utf8Bytes(errorPage(status, message)));
}

/**
 * The public pages (src/site/site.routes.ts) and the demo catalogue's photos (/media/…): keyless, on the client IP's
 * budget (§8.4) as the developer pages are. A page is read through the response cache under the catalogue's generation
 * like every catalogue read (X-Cache, Age), and answered with `Cache-Control: public, max-age=300` and a weak ETag.
 */
export function createSiteSurface(contexts: RequestContexts): HttpSurface {
  async function page({ headers: sent, path: asSent, search, scope, admission, ip }: Visit): Promise<Answer> {
    const path = asSent.length > 1 ? asSent.replace(/\/+$/, '') : asSent;
    for (const entry of SITE_PAGES) {
      const param = entry.match(path);
      if (param === null) continue;
      scope.route = entry.route;
      const ctx = await contexts.contextFor({ caller: 'keyless', surface: 'pages', scope, admission, ip });
      const query = entry.query?.(search) ?? {};
      const answer = await answerThroughCache(
        ctx,
        `page:${entry.route}`,
        { param, ...query },
        async () => {
          const html = await entry.render(param, query, ctx);
          return { html, etag: weakEtag(html) };
        },
        PAGE_ANSWERS,
      );
      const headers = { 'content-type': HTML, 'cache-control': `public, max-age=${PAGE_MAX_AGE}`, ...PAGE_HEADERS };
      return validated(answer.html, answer.etag, headers, sent.get('if-none-match'));
    }
    await contexts.admitKeyless(admission, ip);
    scope.route = path.startsWith('/media/') ? '/media/{path}' : 'unmatched page';
    const media = path.startsWith('/media/') ? demoMedia(path) : null;
    if (!media) throw new ApiError('route_not_found', { message: 'Nothing is published at this address.' });
    const headers = {
      'content-type': 'image/svg+xml',
      'cache-control': MEDIA_CACHE,
      'content-security-policy': "default-src 'none'",
      'x-content-type-options': 'nosniff',
    };
    return validated(media.body, media.etag, headers, sent.get('if-none-match'));
  }

  return {
    accepts: (path, method) => method === 'GET' && isSitePath(path),
    async serve(visit) {
      try {
        return await page(visit);
      } catch (e) {
        return errorAnswer(translate(e, visit.scope.log, visit.scope.requestId));
      }
    },
  };
}
