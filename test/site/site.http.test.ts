// The public pages behind every link the API answers with (issue: Discovery, "a page behind every link"): keyless,
// server-rendered, on the client IP's budget, cached like other reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type TestApp } from '../support/app.js';
import { UNREACHABLE_POLICY } from '../../src/limits/limits.policy.js';
import { BENCHMARK_NOTE } from '../../src/pricing/benchmarks.service.js';
import { escapeHtml } from '../../src/site/site.layout.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const raw = (path: string, init: RequestInit = {}) => t.app.fetch(new Request(`${BASE_URL}${path}`, init));
const pathOf = (url: string) => url.slice(BASE_URL.length);

/** A page's answer with the request id and the start of its body, for failure messages. */
async function page(path: string, init: RequestInit = {}) {
  const res = await raw(path, init);
  const html = await res.text();
  return { res, html, context: `${path} (request ${res.headers.get('x-request-id')}): ${html.slice(0, 300)}` };
}

/** The JSON-LD blocks of a page, parsed. */
function jsonLd(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
}

/** The content of an Open Graph property. */
const og = (html: string, property: string) => new RegExp(`<meta property="og:${property}" content="([^"]*)">`).exec(html)?.[1];

/** A published venue with photos, testimonials, amenities, coordinates, every fee and a starting total (the fullest page). */
async function fullVenue(): Promise<{ slug: string; serviceFeePercent: number; taxPercent: number }> {
  const [row] = await t.db.readRows<{ slug: string; serviceFeePercent: number; taxPercent: number }>(
    `SELECT v.slug, v."serviceFeePercent", v."taxPercent" FROM "Venue" v WHERE v.published AND v."startingTotal" IS NOT NULL
       AND v."totalPhotos" >= 5 AND v.latitude IS NOT NULL AND cardinality(v.amenities) > 0 AND v.currency = 'USD'
       AND v."cleaningFee" > 0 AND v."serviceFeePercent" > 0 AND v."taxPercent" > 0
       AND EXISTS (SELECT 1 FROM "Testimonial" x WHERE x."venueId" = v.id AND x.review IS NOT NULL AND x.rating IS NOT NULL)
     ORDER BY v.slug LIMIT 1`,
    [],
  );
  return row;
}
const fullVenueSlug = async () => (await fullVenue()).slug;

describe('a venue page (GET /venues/{slug}: the venue’s url)', () => {
  it('shows the name, place, capacity, starting total and what it includes, amenities, photos and testimonials', async () => {
    const { slug, serviceFeePercent, taxPercent } = await fullVenue();
    const venue = (await t.rest(`/api/v1/venues/${encodeURIComponent(slug)}`)).body.data;
    const { res, html, context } = await page(pathOf(venue.url));
    expect(res.status, context).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain(`<h1>${escapeHtml(venue.name)}</h1>`);
    expect(html).toContain(escapeHtml(venue.city));
    expect(html).toContain(`Sleeps ${venue.capacity_min < venue.capacity_max ? `${venue.capacity_min}–` : ''}${venue.capacity_max} guests`);
    const start = venue.pricing.starting_total;
    expect(html).toContain(`From <strong>$${start.amount.toLocaleString('en-US')}</strong> for ${start.nights} night`);
    expect(html).toContain(`at the weekday rate, with the cleaning fee, a ${serviceFeePercent} % service fee and ${taxPercent} % tax included.`);
    expect(html).toContain(`Base price: ${escapeHtml(venue.price_range)}.`);
    for (const amenity of venue.amenities as string[])
      expect(html).toContain(`<li>${amenity.charAt(0).toUpperCase()}${amenity.slice(1).replace(/-/g, ' ')}</li>`);
    expect(html.match(/<img /g)?.length).toBe(venue.photos.length);
    for (const testimonial of venue.testimonials.filter((x: { review: string | null }) => x.review)) {
      expect(html).toContain(escapeHtml(testimonial.review.split(/\n\s*\n/)[0].trim()));
    }
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });

  it('carries schema.org JSON-LD (event venue and lodging) with geo, amenities, price range, photos and reviews', async () => {
    const slug = await fullVenueSlug();
    const venue = (await t.rest(`/api/v1/venues/${encodeURIComponent(slug)}`)).body.data;
    const [ld] = jsonLd((await page(pathOf(venue.url))).html);
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@type']).toEqual(['EventVenue', 'LodgingBusiness']);
    expect(ld).toMatchObject({
      name: venue.name,
      url: venue.url,
      address: { '@type': 'PostalAddress', addressLocality: venue.city, addressRegion: venue.state },
      geo: { '@type': 'GeoCoordinates', latitude: venue.latitude, longitude: venue.longitude },
      maximumAttendeeCapacity: venue.capacity_max,
      makesOffer: { '@type': 'Offer', price: venue.pricing.starting_total.amount, priceCurrency: venue.pricing.currency },
    });
    expect(ld.priceRange).toMatch(/^From \$[\d,]+ for \d+ nights?, fees included$/);
    expect(ld.amenityFeature).toHaveLength(venue.amenities.length);
    for (const feature of ld.amenityFeature) expect(feature).toMatchObject({ '@type': 'LocationFeatureSpecification', value: true });
    expect(ld.image).toHaveLength(venue.photos.length);
    for (const image of ld.image) expect(image).toMatch(new RegExp(`^${BASE_URL}/media/venues/[0-9a-f-]{36}/\\d+-medium\\.svg$`));
    expect(ld.aggregateRating).toMatchObject({ '@type': 'AggregateRating', bestRating: 5 });
    expect(ld.aggregateRating.reviewCount).toBe(venue.testimonials.filter((x: { rating: number | null }) => x.rating !== null).length);
    expect(ld.review).toHaveLength(venue.testimonials.length);
  });

  it('has Open Graph tags and a canonical link naming the venue’s url', async () => {
    const venue = (await t.rest(`/api/v1/venues/${encodeURIComponent(await fullVenueSlug())}`)).body.data;
    const { html } = await page(pathOf(venue.url));
    expect(og(html, 'title')).toContain(escapeHtml(venue.name));
    expect(og(html, 'description')).toMatch(/^From \$[\d,]+ for \d+ nights?, fees included\. /);
    expect(og(html, 'url')).toBe(venue.url);
    expect(og(html, 'type')).toBe('place');
    expect(og(html, 'image')).toMatch(new RegExp(`^${BASE_URL}/media/venues/`));
    expect(html).toContain(`<link rel="canonical" href="${venue.url}">`);
  });

  it('shows the demo photos from this service; the API still answers the stored photo URLs', async () => {
    const venue = (await t.rest(`/api/v1/venues/${encodeURIComponent(await fullVenueSlug())}`)).body.data;
    const { html } = await page(pathOf(venue.url));
    const sources = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual(
      venue.photos.map((p: { url: string }) => p.url.replace(/^https:\/\/cdn\.wedding-venues\.example(\/.*)\.webp$/, '/media$1.svg')),
    );
    expect(venue.photos[0].url).toMatch(/^https:\/\/cdn\.wedding-venues\.example\/venues\//);
    const first = await raw(sources[0]);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/svg+xml');
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const svg = await first.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1200" height="800"/);
    expect(await (await raw(sources[0])).text()).toBe(svg);
    expect(await (await raw(sources[1])).text()).not.toBe(svg);
  });

  it('escapes everything it shows: a name with </script> breaks out of neither the HTML nor the JSON-LD', async () => {
    const slug = await fullVenueSlug();
    const name = `Villa </script><b>Bold</b> & "Quoted" 'x' <!-- \u2028`;
    const description = `<img src=x onerror=alert(1)>\n\n</p><script>alert(2)</script>`;
    const before = await t.db.prisma.venue.findUniqueOrThrow({ where: { slug }, select: { name: true, description: true } });
    await t.db.prisma.venue.update({ where: { slug }, data: { name, description } });
    try {
      const { res, html } = await page(`/venues/${slug}`);
      expect(res.status).toBe(200);
      expect(html.match(/<\/script>/g)).toHaveLength(1); // the JSON-LD block's own end
      expect(html.match(/<script/g)).toHaveLength(1);
      expect(html).not.toContain('<b>');
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&lt;/script&gt;&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;Quoted&quot; &#39;x&#39; &lt;!--');
      const [ld] = jsonLd(html);
      expect(ld.name).toBe(name);
      expect(ld.description).toBeDefined();
      expect(og(html, 'title')).toContain('&lt;/script&gt;');
    } finally {
      await t.db.prisma.venue.update({ where: { slug }, data: before });
    }
  });

  it('answers a venue that does not exist, or a slug no venue can have, with a 404 page (HEAD too), never a 500', async () => {
    for (const path of [
      '/venues/california/nowhere/no-such-venue',
      '/venues/BAD%24%24slug',
      '/venues/%E0%A4%A',
      '/venues/a//b',
      `/venues/${'x'.repeat(400)}`,
    ]) {
      const { res, html, context } = await page(path);
      expect(res.status, context).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('etag')).toBeNull();
      expect(html).toContain('<h1>Page not found</h1>');
      const head = await raw(path, { method: 'HEAD' });
      expect(head.status).toBe(404);
      expect(await head.text()).toBe('');
    }
  });

  it('HEAD gives the GET headers and no body; other methods are not pages (404 route_not_found as before)', async () => {
    const path = `/venues/${await fullVenueSlug()}`;
    const head = await raw(path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(head.headers.get('etag')).toBe((await raw(path)).headers.get('etag'));
    const post = await raw(path, { method: 'POST' });
    expect(post.status).toBe(404);
    expect((await post.json()).error.code).toBe('route_not_found');
  });
});

describe('pages are keyless reads: the client IP’s budget, conditional GET, the response cache', () => {
  it('answer without a key on the keyless budget (§8.4), as the developer pages do, photos included', async () => {
    const spec = await createTestApp({ database: t.db, limits: 'spec' });
    try {
      const venue = `/venues/${await fullVenueSlug()}`;
      for (const path of [venue, '/venues', '/wedding-costs']) {
        const res = await spec.app.fetch(new Request(`${BASE_URL}${path}`));
        expect(res.status, path).toBe(200);
        expect(res.headers.get('x-ratelimit-limit'), path).toBe('400');
      }
      const html = await (await spec.app.fetch(new Request(`${BASE_URL}${venue}`))).text();
      const photo = /<img src="([^"]+)"/.exec(html)![1];
      expect((await spec.app.fetch(new Request(`${BASE_URL}${photo}`))).headers.get('x-ratelimit-limit')).toBe('400');
    } finally {
      await spec.close();
    }
  });

  it('past the keyless budget a page is a 429 page with Retry-After', async () => {
    const tight = await createTestApp({ database: t.db, limits: { ...UNREACHABLE_POLICY, keylessPerMinute: 2 } });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 3; i++) {
        last = await tight.app.fetch(new Request(`${BASE_URL}/wedding-costs`));
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 429]);
      expect(last!.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await last!.text()).toContain('<h1>Too many requests</h1>');
    } finally {
      await tight.close();
    }
  });

  it('carry public caching for 5 minutes and a weak ETag; If-None-Match gets a 304 with no body', async () => {
    const path = `/venues/${await fullVenueSlug()}`;
    const first = await raw(path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    expect(first.headers.get('content-security-policy')).toContain("default-src 'none'");
    const again = await raw(path, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('public, max-age=300');
    expect((await raw(path, { headers: { 'if-none-match': 'W/"other"' } })).status).toBe(200);
    const photo = /<img src="([^"]+)"/.exec(await first.text())![1];
    const media = await raw(photo);
    expect((await raw(photo, { headers: { 'if-none-match': media.headers.get('etag')! } })).status).toBe(304);
  });

  it('go through the response cache under the catalogue generation: MISS, then HIT with the same bytes and ETag', async () => {
    let generation = 1;
    const cached = await createTestApp({ database: t.db, responseCache: { ttlSeconds: 300 }, catalogueGeneration: () => generation });
    try {
      const path = `/venues/${await fullVenueSlug()}`;
      const get = () => cached.app.fetch(new Request(`${BASE_URL}${path}`));
      const miss = await get();
      expect(miss.headers.get('x-cache')).toBe('MISS');
      const hit = await get();
      expect(hit.headers.get('x-cache')).toBe('HIT');
      expect(hit.headers.get('etag')).toBe(miss.headers.get('etag'));
      expect(await hit.text()).toBe(await miss.text());
      generation = 2; // a catalogue write
      expect((await get()).headers.get('x-cache')).toBe('MISS');
      expect((await cached.app.fetch(new Request(`${BASE_URL}/venues/california/nowhere/none`))).headers.get('x-cache')).toBeNull();
    } finally {
      await cached.close();
    }
  });
});

describe('the other pages the API links to', () => {
  it('/venues, the benchmarks’ source_url: how the figures are made, and every venue a page at a time', async () => {
    const benchmarks = (await t.rest('/api/v1/cost-benchmarks')).body;
    expect(benchmarks.source_url).toBe(`${BASE_URL}/venues`);
    const { res, html } = await page(pathOf(benchmarks.source_url));
    expect(res.status).toBe(200);
    expect(html).toContain(escapeHtml(BENCHMARK_NOTE));
    expect(html).toContain(`<link rel="canonical" href="${benchmarks.source_url}">`);
    const search = (await t.rest('/api/v1/venues?limit=100')).body;
    const listed = [...html.matchAll(/<li><a href="(\/venues\/[^"]+)">/g)].map((m) => m[1]);
    expect(listed).toEqual(search.data.slice(0, 50).map((v: { url: string }) => pathOf(v.url)));
    expect(html).toContain(`50 of ${search.pagination.total_count.toLocaleString('en-US')} published venues`);
    const next = /<a rel="next" href="([^"]+)">/.exec(html)![1].replaceAll('&amp;', '&');
    const second = await page(next);
    expect(second.res.status).toBe(200);
    const secondListed = [...second.html.matchAll(/<li><a href="(\/venues\/[^"]+)">/g)].map((m) => m[1]);
    expect(secondListed).toEqual(search.data.slice(50, 100).map((v: { url: string }) => pathOf(v.url)));
    const refused = await page('/venues?after=not-a-cursor');
    expect(refused.res.status).toBe(400);
    expect(refused.html).toContain('<h1>Bad request</h1>');
  });

  it('a vendor page, with LocalBusiness JSON-LD and the vendor’s url as canonical', async () => {
    const vendor = (await t.rest('/api/v1/vendors?limit=1')).body.data[0];
    const { res, html } = await page(pathOf(vendor.url));
    expect(res.status).toBe(200);
    expect(html).toContain(`<h1>${escapeHtml(vendor.business_name)}</h1>`);
    const [ld] = jsonLd(html);
    expect(ld).toMatchObject({ '@type': 'LocalBusiness', name: vendor.business_name, url: vendor.url });
    expect(og(html, 'url')).toBe(vendor.url);
    expect((await page('/vendors/no-such-vendor')).res.status).toBe(404);
  });

  it('/wedding-costs and a region’s page, the regional ranges’ source_url', async () => {
    const covered = (await t.rest('/api/v1/regional-cost-ranges?state=CA')).body;
    const region = await page(pathOf(covered.source_url));
    expect(region.res.status).toBe(200);
    expect(region.html).toContain(escapeHtml(covered.data.range.display));
    expect(region.html).toContain(`<link rel="canonical" href="${covered.source_url}">`);
    const uncovered = (await t.rest('/api/v1/regional-cost-ranges?state=Atlantis')).body;
    const index = await page(pathOf(uncovered.source_url));
    expect(index.res.status).toBe(200);
    const linked = [...index.html.matchAll(/<a href="\/wedding-costs\/([^"]+)">/g)].map((m) => m[1]).sort();
    expect(linked).toEqual([...uncovered.covered_regions].sort());
    expect((await page('/wedding-costs/atlantis')).res.status).toBe(404);
  });

  it('every link the API answers with serves a page: venues, vendors, blog posts and authors, inspiration sources, source_urls', async () => {
    const links = new Set<string>();
    for (const v of (await t.rest('/api/v1/venues?limit=5')).body.data) links.add(v.url);
    for (const v of (await t.rest('/api/v1/vendors?limit=5')).body.data) links.add(v.url);
    for (const p of (await t.rest('/api/v1/blog/posts?limit=5')).body.data) {
      links.add(p.url);
      if (p.primary_author) links.add(p.primary_author.url);
    }
    for (const p of (await t.rest('/api/v1/inspiration?limit=10')).body.data) links.add(p.source.url);
    links.add((await t.rest('/api/v1/cost-benchmarks')).body.source_url);
    links.add((await t.rest('/api/v1/regional-cost-ranges?city=Nashville')).body.source_url);
    links.add((await t.rest('/api/v1/regional-cost-ranges?state=Atlantis')).body.source_url);
    expect(links.size).toBeGreaterThan(20);
    for (const link of links) {
      expect(link.startsWith(`${BASE_URL}/`), link).toBe(true);
      const { res, context } = await page(pathOf(link));
      expect(res.status, context).toBe(200);
      expect(res.headers.get('content-type'), link).toBe('text/html; charset=utf-8');
    }
  });
});
