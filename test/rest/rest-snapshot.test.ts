import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { targets, validBody } from '../inquiries/support.js';

// A safety net for changes under the REST adapter (GraphQL enums, issue 14): the answers of a representative set of
// requests and the whole OpenAPI document must stay byte-for-byte the same. Values that differ per run (request ids,
// lead ids) are normalised; "now" is fixed. After an intended REST change, update with `npx vitest run -u test/rest/rest-snapshot.test.ts`.

const NOW = new Date('2026-11-20T12:00:00Z');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Response headers that are part of a route's contract (the rest are per-run or covered by the platform tests). */
const KEPT_HEADERS = ['content-type', 'deprecation', 'sunset', 'link'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
});
afterAll(() => t.close());

/** request_id appears in bodies and errors; inquiry ids are generated per request. */
function normalise(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => normalise(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, k)]));
  if (key === 'request_id' && typeof value === 'string') return '<request-id>';
  if (key === 'inquiry_id' && typeof value === 'string') return value.replace(UUID, '<uuid>');
  return value;
}

async function answer(path: string, init?: RequestInit) {
  const res = await t.rest(path, init);
  const headers = Object.fromEntries(KEPT_HEADERS.flatMap((h) => (res.headers.has(h) ? [[h, res.headers.get(h)]] : [])));
  return { status: res.status, headers, body: normalise(res.body ?? res.text) };
}

/** GET requests (path under /api/v1), by a readable case name. Slugs and ids are read from the seeded catalogue. */
async function getCases(): Promise<Record<string, string>> {
  const { prisma } = t.db;
  const venue = await prisma.venue.findFirstOrThrow({ where: { published: true }, orderBy: { slug: 'asc' } });
  const eurVenue = await prisma.venue.findFirstOrThrow({ where: { published: true, currency: 'EUR' }, orderBy: { slug: 'asc' } });
  const vendor = await prisma.vendor.findFirstOrThrow({ where: { active: true, priceUnit: { not: null } }, orderBy: { slug: 'asc' } });
  const photo = await prisma.inspirationPhoto.findFirstOrThrow({ where: { season: { not: null } }, orderBy: { id: 'asc' } });
  const post = await prisma.blogPost.findFirstOrThrow({ where: { status: 'published', publishedAt: { lte: NOW } }, orderBy: { slug: 'asc' } });
  const enc = encodeURIComponent;
  return {
    'venues default': '/venues',
    'venues state + limit': '/venues?state=california&limit=3',
    'venues venue_type + amenities': '/venues?venue_type=estate&amenities=pool,hot-tub&limit=3',
    'venues price bounds': '/venues?price_min=1000&price_max=50000&limit=3',
    'venues bad integer': '/venues?capacity_min=abc',
    'venues unknown param': '/venues?bogus=1',
    'venue detail': `/venues/${enc(venue.slug)}`,
    'venue detail EUR': `/venues/${enc(eurVenue.slug)}`,
    'venue not found': '/venues/nowhere%2Fnone%2Fnothing',
    'vendors default': '/vendors?limit=3',
    'vendors sort newest': '/vendors?sort_by=newest&limit=3',
    'vendors sort price_low_to_high': '/vendors?category=florists&sort_by=price_low_to_high&limit=3',
    'vendors sort price_high_to_low': '/vendors?sort_by=price_high_to_low&limit=3',
    'vendors sort experience': '/vendors?sort_by=experience&limit=3&featured=true',
    'vendors sort weddings_completed': '/vendors?sort_by=weddings_completed&limit=3&state=california',
    'vendors bad sort': '/vendors?sort_by=cheapest',
    'vendors bad sort case': '/vendors?sort_by=NEWEST',
    'vendors bad sort empty': '/vendors?sort_by=',
    'vendors sort twice': '/vendors?sort_by=newest&sort_by=experience',
    'vendors bad sort + bad limit': '/vendors?sort_by=cheapest&limit=0',
    'vendor categories': '/vendors/categories',
    'vendor detail': `/vendors/${enc(vendor.slug)}`,
    'vendor not found': '/vendors/nobody',
    'pricing default': '/venues/pricing',
    'pricing full': '/venues/pricing?region=california&event_type=weekday&event_guests=120&overnight_guests=40&nights=3&venue_type=villa&season=off',
    'pricing bad season': '/venues/pricing?season=monsoon',
    'pricing bad event_type': '/venues/pricing?event_type=holiday',
    'pricing bad venue_type': '/venues/pricing?venue_type=castle',
    'benchmarks all': '/cost-benchmarks',
    'benchmarks venue_type': '/cost-benchmarks?venue_type=estate',
    'benchmarks state': '/cost-benchmarks?state=California',
    'benchmarks country': '/cost-benchmarks?country=Italy',
    'regional range': '/regional-cost-ranges?state=CA&season=fall&guests=120',
    'regional range month': '/regional-cost-ranges?city=Nashville&season=03',
    'regional range uncovered': '/regional-cost-ranges?slug=atlantis',
    'regional range bad season': '/regional-cost-ranges?state=CA&season=monsoon',
    'knowledge search': '/knowledge/search?q=how%20much%20deposit%20do%20venues%20ask%20for&limit=3',
    'knowledge too short': '/knowledge/search?q=ab',
    'inspiration default': '/inspiration?limit=3',
    'inspiration style + season': '/inspiration?style=rustic&season=fall&limit=5',
    'inspiration style any case': '/inspiration?style=RUSTIC&limit=2',
    'inspiration style padded': '/inspiration?style=%20Coastal%20&limit=2',
    'inspiration setting': '/inspiration?setting=beach&limit=2',
    'inspiration color': '/inspiration?color=earth_tones&limit=2&offset=2',
    'inspiration mood': '/inspiration?mood=joyful&limit=2',
    'inspiration season': '/inspiration?season=winter&limit=2',
    'inspiration bad style': '/inspiration?style=plaid',
    'inspiration bad style empty': '/inspiration?style=',
    'inspiration bad style + mood': '/inspiration?style=plaid&mood=grumpy',
    'inspiration bad color + limit': '/inspiration?color=ochre&limit=500',
    'inspiration bad season': '/inspiration?season=monsoon',
    'inspiration detail': `/inspiration/${photo.id}`,
    'inspiration bad id': '/inspiration/not-a-uuid',
    'blog posts': '/blog/posts?limit=2',
    'blog post': `/blog/posts/${enc(post.slug)}`,
    'blog tags': '/blog/tags',
  };
}

describe('REST answers and OpenAPI document (snapshot)', () => {
  it('GET routes answer as recorded', async () => {
    const results: Record<string, unknown> = {};
    for (const [name, path] of Object.entries(await getCases())) results[`GET ${path} (${name})`] = await answer(`/api/v1${path}`);
    await expect(`${JSON.stringify(results, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/rest-get.json');
  });

  it('inquiry POSTs answer as recorded', async () => {
    const tg = await targets(t);
    const post = (kind: 'venue' | 'vendor', body: unknown) =>
      answer(`/api/v1/inquiries/${kind}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const results = {
      'POST /inquiries/venue': await post('venue', validBody('venue', tg)),
      'POST /inquiries/vendor': await post('vendor', validBody('vendor', tg)),
      'POST /inquiries/venue (no consent)': await post('venue', validBody('venue', tg, { sms_consent: 'yes' })),
      'POST /inquiries/vendor (missing email)': await post('vendor', { ...validBody('vendor', tg), guest_email: undefined }),
    };
    await expect(`${JSON.stringify(results, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/rest-inquiries.json');
  });

  it('serves the same OpenAPI document', async () => {
    const res = await t.rest('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    await expect(`${JSON.stringify(res.body, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/openapi.json');
  });
});
