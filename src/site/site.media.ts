import { createHash } from 'node:crypto';
import { escapeHtml } from './site.layout.js';

/**
 * The demo catalogue's media. Seeded photo URLs name https://cdn.wedding-venues.example/… (src/db/seed/venues.ts
 * VENUE_CDN, vendors.ts, inspiration.seed.ts, the blog's feature images): `.example` is reserved and never resolves,
 * so the API keeps answering those URLs as stored while the pages show each such photo from this service instead, as
 * a placeholder drawn from its path (GET /media/<kind>/<id>/<name>.svg). A photo URL on any other host is shown as
 * it is: a catalogue with real photos needs nothing from here.
 */
export const DEMO_MEDIA_ORIGIN = 'https://cdn.wedding-venues.example';

/** A demo media path: its kind, the photo's owner (an id or slug) and its name, as the seed writes them. */
const DEMO_PATH = /^\/(venues|vendors|inspiration|blog)\/([a-z0-9-]{1,100})\/([a-z0-9-]{1,40})\.(?:webp|jpg|jpeg|png)$/;
/** The same photo as this service serves it. */
const MEDIA_PATH = /^\/media\/(venues|vendors|inspiration|blog)\/([a-z0-9-]{1,100})\/([a-z0-9-]{1,40})\.svg$/;

/** Where a page shows a stored photo URL: a demo photo from this service (a path), anything else as stored. */
export function shownImageUrl(stored: string): string {
  if (!stored.startsWith(`${DEMO_MEDIA_ORIGIN}/`)) return stored;
  const match = DEMO_PATH.exec(stored.slice(DEMO_MEDIA_ORIGIN.length));
  return match ? `/media/${match[1]}/${match[2]}/${match[3]}.svg` : stored;
}

/** The same as an absolute URL (og:image, JSON-LD), on this service's origin when it serves the photo. */
export function absoluteImageUrl(stored: string, baseUrl: string): string {
  const shown = shownImageUrl(stored);
  return shown.startsWith('/') ? `${baseUrl}${shown}` : shown;
}

export interface MediaAsset {
  body: string;
  etag: string;
}

/** The placeholder of a demo photo path under /media/, or null for any other path. The same path always draws the same picture. */
export function demoMedia(path: string): MediaAsset | null {
  const match = MEDIA_PATH.exec(path);
  if (!match) return null;
  const [, kind, owner, name] = match;
  const digest = createHash('sha256').update(path).digest();
  const hue = (i: number) => Math.round((digest[i] / 255) * 360);
  const sky = [hex(hue(0), 55, 80), hex((hue(0) + 40) % 360, 50, 92)];
  const land = [hex(hue(1), 30, 48), hex(hue(1), 35, 33)];
  const ridge = 420 + (digest[2] % 160);
  const swell = 560 + (digest[3] % 80);
  const sunX = 150 + Math.round((digest[4] / 255) * 900);
  const caption = `Demo photo · ${kind} · ${name}`;
  const body = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800" role="img" aria-label="${escapeHtml(caption)}">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/></linearGradient></defs>
<rect width="1200" height="800" fill="url(#sky)"/>
<circle cx="${sunX}" cy="200" r="64" fill="#ffe9a8"/>
<path d="M0 ${ridge + 120} Q 300 ${ridge} 600 ${ridge + 110} T 1200 ${ridge + 60} V800 H0 Z" fill="${land[0]}"/>
<path d="M0 ${swell + 80} Q 450 ${swell} 900 ${swell + 90} T 1200 ${swell + 40} V800 H0 Z" fill="${land[1]}"/>
<text x="32" y="768" font-family="system-ui, sans-serif" font-size="26" fill="#ffffff" fill-opacity="0.85">${escapeHtml(caption)} · ${escapeHtml(owner.slice(0, 8))}</text>
</svg>
`;
  return { body, etag: `W/"${digest.subarray(0, 12).toString('base64url')}"` };
}

/** An HSL colour (degrees, per cent, per cent) as #rrggbb. */
function hex(h: number, s: number, l: number): string {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const value = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}
