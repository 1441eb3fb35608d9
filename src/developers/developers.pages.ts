// The pages where people meet the API (/developers): plain server-rendered HTML with one small stylesheet, readable
// without JavaScript (the reference's interactive parts aside), every asset from this service (no CDN).
import { readFileSync } from 'node:fs';
import { marked } from 'marked';
import { ApiError } from '../errors/api-error.js';
import { ERROR_CATALOGUE, ERROR_TYPES, statusOf, type ErrorCode } from '../errors/catalogue.js';
import { ERROR_CONDITIONS } from '../errors/conditions.js';
import { errorBody } from '../http/responses.js';
import { API_VERSION } from '../config/api-version.js';
import { HTTP_CONVENTIONS_TEXT } from '../http/conventions.js';
import { packagePath } from '../config/paths.js';
import { FAVICON_LINKS } from './favicon.asset.js';

const CHANGELOG = packagePath('CHANGELOG.md');

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const STYLESHEET = `
:root { color-scheme: light dark; --fg: #1d1d1f; --muted: #5f6368; --bg: #fff; --panel: #f6f7f9; --accent: #8a3b5c; --border: #e3e5e8; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8e8ea; --muted: #a0a4aa; --bg: #15161a; --panel: #1f2127; --accent: #e59ab8; --border: #30333a; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header { border-bottom: 1px solid var(--border); padding: 0.75rem 1.5rem; display: flex; gap: 1.5rem; align-items: baseline; flex-wrap: wrap; }
header a.brand { font-weight: 650; color: var(--fg); }
nav a { margin-right: 1rem; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
h1 { font-size: 1.9rem; margin: 0.5rem 0 1rem; } h2 { margin-top: 2.2rem; font-size: 1.3rem; } h3 { font-size: 1.05rem; }
code, pre { font: 0.9em/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { background: var(--panel); padding: 0.1em 0.35em; border-radius: 4px; }
pre { background: var(--panel); padding: 0.9rem 1rem; border-radius: 8px; overflow-x: auto; border: 1px solid var(--border); }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; } th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid var(--border); vertical-align: top; }
.muted { color: var(--muted); }
section.error { border-top: 1px solid var(--border); padding-top: 0.5rem; }
section.error:target { background: var(--panel); border-radius: 8px; padding: 0.5rem 1rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; } dt { color: var(--muted); } dd { margin: 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 1rem; }
.card { border: 1px solid var(--border); border-radius: 10px; padding: 1rem; }
/* Swagger UI's version badges: its white on grey and on green is 3.8:1 and 2.2:1 (WCAG AA asks 4.5:1), and the pre
   rules above would put the text on a pale panel at 9 pixels. */
.swagger-ui .info .title small { background: #4d5560; }
.swagger-ui .info .title small.version-stamp { background: #2e6b12; }
.swagger-ui .info .title small pre { background: none; border: 0; padding: 0 0.2em; color: #fff; font: 600 12px/1.4 system-ui, sans-serif; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} — Wedding Discovery API</title>
<link rel="stylesheet" href="/developers/style.css">
${FAVICON_LINKS}
</head>
<body>
<header><a class="brand" href="/developers">Wedding Discovery API</a>
<nav><a href="/developers/reference">REST reference</a><a href="/graphql">GraphiQL</a><a href="/developers/errors">Errors</a><a href="/developers/changelog">Changelog</a><a href="/api/v1/openapi.json">openapi.json</a></nav></header>
<main>
${body}
</main>
</body>
</html>`;
}

export function landingPage(baseUrl: string): string {
  return layout(
    'Developers',
    `<h1>Wedding Discovery API</h1>
<p>Search whole-property wedding venues and wedding vendors, estimate costs, read planning advice and send inquiries
that become real leads — over REST (<code>${escape(baseUrl)}/api/v1</code>), GraphQL (<code>${escape(baseUrl)}/graphql</code>)
or, for planning assistants, the keyless MCP server (<code>${escape(baseUrl)}/mcp</code>). API version ${API_VERSION}.</p>
<h2>Get a key</h2>
<p>Keys are issued by the operator on request during the beta (<code>npm run -s keys -- create --tier free|pro|partner</code>).
A key looks like <code>wv_live_…</code>; keep it secret: it is shown once and stored only as a hash.</p>
<h2>Send it</h2>
<pre><code>curl -H "Authorization: Bearer $KEY" "${escape(baseUrl)}/api/v1/venues?state=california&amp;limit=5"</code></pre>
<p>or <code>X-Service-Key: $KEY</code>. Every response carries <code>X-Request-Id</code> and the rate limit headers
(<code>X-RateLimit-Limit</code>, <code>-Remaining</code>, <code>-Reset</code>; <code>Retry-After</code> on 429), and the IETF
<code>RateLimit-Policy</code> and <code>RateLimit</code> headers describing the same windows.</p>
<h2>Caching, compression and connections</h2>
<p>${marked.parseInline(HTTP_CONVENTIONS_TEXT)}</p>
<div class="cards">
<div class="card"><h3><a href="/developers/reference">REST reference</a></h3><p>Every endpoint, parameter and response, from the OpenAPI document.</p></div>
<div class="card"><h3><a href="/graphql">GraphiQL</a></h3><p>The GraphQL schema with docs and autocomplete; paste your key once in its API key field.</p></div>
<div class="card"><h3><a href="/developers/errors">Errors</a></h3><p>Every error code: when it happens and what to do.</p></div>
<div class="card"><h3><a href="/developers/changelog">Changelog</a></h3><p>Versions and deprecations with their removal dates.</p></div>
</div>
<h2>Limits</h2>
<table><tr><th></th><th>Free</th><th>Pro, Partner</th></tr>
<tr><td>Read requests</td><td>10 / minute, 100 / day</td><td>60 / minute, 10,000 / day</td></tr>
<tr><td>Venue detail lookups</td><td>20 / day</td><td>20 / day</td></tr>
<tr><td>Inquiries (venue and vendor, each)</td><td>5 / day</td><td>5 / day</td></tr>
<tr><td>Without a key (per IP)</td><td colspan="2">400 / minute</td></tr></table>
<p class="muted">All windows roll. Cache search results for at least 5 minutes; watch X-RateLimit-Remaining; back off using Retry-After.</p>`,
  );
}

/** What to do about a code: its hint, or the advice of its category. */
function remedy(code: ErrorCode): string {
  const entry: { type: string; hint?: string } = ERROR_CATALOGUE[code];
  if (entry.hint) return entry.hint;
  const byType: Record<string, string> = {
    validation_error: 'Correct the parameter named in param (the message says what is wrong) and send the request again.',
    invalid_request_error: 'Correct the request as the message says.',
    authentication_error: 'Send a valid key: Authorization: Bearer <key> or X-Service-Key: <key>.',
    not_found: 'Check the identifier; take slugs and ids from search results.',
    conflict: 'See the message: the idempotency key is in use.',
    rate_limit_exceeded: 'Wait the seconds in Retry-After, then retry.',
    internal_error: 'Retry with exponential backoff; if it persists, contact support with the request_id.',
    request_error: 'Fix the HTTP request as the message says.',
  };
  return byType[entry.type] ?? 'See the message.';
}

/** One section per code of the catalogue, generated from it: the id of each section is the code (doc_url anchors). */
export function errorsPage(baseUrl: string): string {
  const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
  const types = Object.entries(ERROR_TYPES)
    .map(
      ([type, status]) =>
        `<tr><td><code>${type}</code></td><td>${type === 'request_error' ? '400, 406, 408, 413, 415, 431' : type === 'internal_error' ? '500, 503' : status}</td></tr>`,
    )
    .join('');
  const sections = codes
    .map((code) => {
      const example = JSON.stringify({ error: errorBody(new ApiError(code), 'req_Example123456789', baseUrl) }, null, 2);
      return `<section class="error" id="${code}">
<h2><a href="#${code}"><code>${code}</code></a></h2>
<dl><dt>Type</dt><dd><code>${ERROR_CATALOGUE[code].type}</code></dd><dt>HTTP status</dt><dd>${statusOf(code)}</dd>
<dt>When</dt><dd>${escape(ERROR_CONDITIONS[code])}</dd><dt>What to do</dt><dd>${escape(remedy(code))}</dd></dl>
<pre><code>${escape(example)}</code></pre>
</section>`;
    })
    .join('\n');
  return layout(
    'Errors',
    `<h1>Errors</h1>
<p>Every error is the same envelope: <code>{"error": {type, code, message, param?, request_id, doc_url, hint?}}</code>
(on GraphQL, the same facts in each error's <code>extensions</code>). <code>code</code> names the condition;
<code>type</code> its category and HTTP status; <code>doc_url</code> links to the section below.</p>
<table><tr><th>type</th><th>HTTP status</th></tr>${types}</table>
<p>${codes.map((c) => `<a href="#${c}"><code>${c}</code></a>`).join(' · ')}</p>
${sections}`,
  );
}

export function changelogPage(): string {
  return layout('Changelog', marked.parse(readFileSync(CHANGELOG, 'utf8'), { async: false }));
}

/** The interactive REST reference: Swagger UI from its npm package, on this service's openapi.json. */
export function referencePage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>REST reference — Wedding Discovery API</title>
<link rel="stylesheet" href="/developers/assets/swagger-ui.css">
<link rel="stylesheet" href="/developers/style.css">
${FAVICON_LINKS}
</head>
<body>
<header><a class="brand" href="/developers">Wedding Discovery API</a>
<nav><a href="/developers/reference">REST reference</a><a href="/graphql">GraphiQL</a><a href="/developers/errors">Errors</a><a href="/developers/changelog">Changelog</a><a href="/api/v1/openapi.json">openapi.json</a></nav></header>
<noscript><main><p>The interactive reference needs JavaScript; the document itself is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p></main></noscript>
<div id="reference"></div>
<script src="/developers/assets/swagger-ui-bundle.js"></script>
<script src="/developers/assets/reference.js"></script>
</body>
</html>`;
}

/** Started by the reference page (a file of ours, so no inline script is needed). */
export const REFERENCE_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: false,
  validatorUrl: 'none'
});
`;
