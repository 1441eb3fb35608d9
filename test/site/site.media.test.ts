// The demo catalogue's photos: shown from this service (their .example host never resolves), drawn from their path.
import { describe, expect, it } from 'vitest';
import { VENUE_CDN } from '../../src/db/seed/venues.js';
import { VENDOR_CDN } from '../../src/db/seed/vendors.js';
import { INSPIRATION_CDN } from '../../src/inspiration/inspiration.seed.js';
import { absoluteImageUrl, DEMO_MEDIA_ORIGIN, demoMedia, shownImageUrl } from '../../src/site/site.media.js';

const ID = '8eec5db1-18c1-4c23-90ba-8d8129b05beb';

describe('demo media', () => {
  it('every seeded photo host is the demo origin the pages map', () => {
    for (const cdn of [VENUE_CDN, VENDOR_CDN, INSPIRATION_CDN]) expect(cdn.startsWith(`${DEMO_MEDIA_ORIGIN}/`), cdn).toBe(true);
  });

  it('a demo photo is shown from /media/ as SVG; any other URL as stored', () => {
    expect(shownImageUrl(`${VENUE_CDN}/${ID}/0-medium.webp`)).toBe(`/media/venues/${ID}/0-medium.svg`);
    expect(shownImageUrl(`${VENDOR_CDN}/${ID}/3-original.jpg`)).toBe(`/media/vendors/${ID}/3-original.svg`);
    expect(shownImageUrl(`${INSPIRATION_CDN}/${ID}/medium.webp`)).toBe(`/media/inspiration/${ID}/medium.svg`);
    expect(shownImageUrl(`${DEMO_MEDIA_ORIGIN}/blog/a-post/feature.webp`)).toBe('/media/blog/a-post/feature.svg');
    for (const other of [
      'https://images.example.org/v/1.webp',
      `${DEMO_MEDIA_ORIGIN}/elsewhere/x/y.webp`,
      `${DEMO_MEDIA_ORIGIN}/venues/${ID}/../x.webp`,
    ]) {
      expect(shownImageUrl(other)).toBe(other);
    }
    expect(absoluteImageUrl(`${VENUE_CDN}/${ID}/0-medium.webp`, 'http://api.test')).toBe(`http://api.test/media/venues/${ID}/0-medium.svg`);
    expect(absoluteImageUrl('https://images.example.org/v/1.webp', 'http://api.test')).toBe('https://images.example.org/v/1.webp');
  });

  it('draws the same picture for the same path and another for another; nothing for a path of no demo photo', () => {
    const one = demoMedia(`/media/venues/${ID}/0-medium.svg`)!;
    expect(one.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1200" height="800"/);
    expect(one.body).not.toMatch(/<script|href=|url\((?!#)/);
    expect(demoMedia(`/media/venues/${ID}/0-medium.svg`)).toEqual(one);
    expect(demoMedia(`/media/venues/${ID}/1-medium.svg`)!.etag).not.toBe(one.etag);
    for (const path of ['/media/venues/x.svg', `/media/venues/${ID}/0-medium.webp`, `/media/other/${ID}/0.svg`, '/media/venues/A/B.svg', '/media/']) {
      expect(demoMedia(path), path).toBeNull();
    }
  });
});
