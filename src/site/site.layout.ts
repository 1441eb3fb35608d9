/**
 * The frame every public page (src/site/) is drawn in: the head with its Open Graph tags and JSON-LD, one small
 * stylesheet, and the escaping every value written into HTML goes through. Nothing here reads data.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or a quoted attribute value: every character that could end either is escaped. */
export const escapeHtml = (text: string | number): string => String(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/**
 * JSON-LD inside `<script type="application/ld+json">`: JSON whose `<`, `>` and `&` are \u escapes, so no value (a
 * venue named `</script>…`) can close the element or open a comment; U+2028/2029 too, for old JSON-in-script parsers.
 * JSON.parse reads back the same strings.
 */
export function jsonLdScript(data: unknown): string {
  const json = JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `<script type="application/ld+json">${json}</script>`;
}

/** A URL a page may link to or show: absolute http(s) only (a stored `javascript:` link is never written). */
export function httpUrl(text: string | null | undefined): string | null {
  if (!text || !URL.canParse(text)) return null;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:' ? text : null;
}

/** A slug with slashes as a path: each segment percent-encoded (slugs are [a-z0-9-], so this changes nothing today). */
export const slugPath = (slug: string): string => slug.split('/').map(encodeURIComponent).join('/');

/** Plain text as HTML paragraphs: a blank line starts a new one. */
export const paragraphs = (text: string): string =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('\n');

/** A slug such as `hot-tub` as words: "Hot tub". */
export const label = (slug: string): string => {
  const words = slug.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export interface PageHead {
  title: string;
  /** One or two sentences: the description meta tag and og:description. */
  description: string;
  /** The page's own URL as the API names it (url, source_url): rel=canonical and og:url. */
  canonical: string;
  /** Absolute image URL for og:image. */
  image?: string | null;
  /** og:type. @default 'website' */
  ogType?: string;
  /** schema.org data, written as JSON-LD. */
  jsonLd?: unknown;
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#57606a;--bg:#fff;--line:#d0d7de;--accent:#8a3a5c}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9da7b3;--bg:#0d1117;--line:#30363d;--accent:#e39ab8}}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:68rem;margin:0 auto;padding:0 1.25rem}
header{padding-top:1rem;font-size:.9rem}
a{color:var(--accent)}
h1{font-size:2rem;line-height:1.2;margin:.5rem 0}
.muted{color:var(--muted)}
.facts{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;padding:0;list-style:none}
.price{font-size:1.25rem;border-left:4px solid var(--accent);padding:.25rem .75rem}
.photos{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.5rem}
.photos img{width:100%;height:auto;aspect-ratio:3/2;object-fit:cover;border-radius:6px;background:var(--line)}
.pills{display:flex;flex-wrap:wrap;gap:.4rem;padding:0;list-style:none}
.pills li{border:1px solid var(--line);border-radius:1rem;padding:.1rem .7rem}
table{border-collapse:collapse}th,td{text-align:left;padding:.3rem .8rem .3rem 0;border-bottom:1px solid var(--line)}
blockquote{margin:1rem 0;padding-left:1rem;border-left:3px solid var(--line)}
footer{margin-top:3rem;padding-bottom:2rem;font-size:.85rem;color:var(--muted)}`;

/**
 * Security headers of every page: nothing runs (the JSON-LD block is data, not a script), styles are the page's own,
 * images come from this service or any https host (a photo URL that is not the demo catalogue's is shown as stored).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; img-src 'self' https:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** A whole page: head, the site's header and footer around `body` (HTML already escaped by its renderer). */
export function renderPage(head: PageHead, body: string): string {
  const meta = [
    `<meta name="description" content="${escapeHtml(head.description)}">`,
    `<link rel="canonical" href="${escapeHtml(head.canonical)}">`,
    `<meta property="og:title" content="${escapeHtml(head.title)}">`,
    `<meta property="og:description" content="${escapeHtml(head.description)}">`,
    `<meta property="og:url" content="${escapeHtml(head.canonical)}">`,
    `<meta property="og:type" content="${escapeHtml(head.ogType ?? 'website')}">`,
    `<meta property="og:site_name" content="Wedding Discovery">`,
    ...(head.image ? [`<meta property="og:image" content="${escapeHtml(head.image)}">`] : []),
    `<meta name="twitter:card" content="${head.image ? 'summary_large_image' : 'summary'}">`,
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(head.title)}</title>
${meta.join('\n')}
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
${head.jsonLd === undefined ? '' : jsonLdScript(head.jsonLd)}
</head>
<body>
<header><a href="/venues">Wedding venues</a> · <a href="/wedding-costs">Wedding costs</a> · <a href="/developers">API</a></header>
<main>
${body}
</main>
<footer>Wedding Discovery · figures and listings from the live catalogue · <a href="/developers">for developers</a></footer>
</body>
</html>
`;
}

/** The page answered for a failure: its status line in words and the catalogue's message (already safe to show). */
export function errorPage(status: number, message: string): string {
  const title = status === 404 ? 'Page not found' : status === 429 ? 'Too many requests' : status < 500 ? 'Bad request' : 'Something went wrong';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<header><a href="/venues">Wedding venues</a> · <a href="/wedding-costs">Wedding costs</a></header>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p><a href="/venues">Browse every venue</a></p>
</main>
</body>
</html>
`;
}
