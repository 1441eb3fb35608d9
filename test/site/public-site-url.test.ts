// PUBLIC_SITE_URL: an operator's own site in every link the API answers with; unset, every link is this service's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestApp, type TestApp } from '../support/app.js';

const SITE = 'https://www.weddings.example/plan';

let site: TestApp;
let plain: TestApp;
beforeAll(async () => {
  site = await createTestApp({ publicSiteUrl: SITE });
  plain = await createTestApp({ database: site.db });
});
afterAll(async () => {
  await plain.close();
  await site.close();
});

/** Every link one app's REST and GraphQL answers carry, by what it is. */
async function links(t: TestApp): Promise<Record<string, string>> {
  const venue = (await t.rest('/api/v1/venues?limit=1')).body.data[0];
  const vendor = (await t.rest('/api/v1/vendors?limit=1')).body.data[0];
  const post = (await t.rest('/api/v1/blog/posts?limit=1')).body.data[0];
  const photo = (await t.rest('/api/v1/inspiration?limit=1')).body.data[0];
  const gql = (
    await t.graphql(`{
      venue(slug: "${venue.slug}") { url }
      vendors(first: 1) { nodes { url } }
      costBenchmarks { sourceUrl }
      covered: regionalCostRange(state: "CA") { sourceUrl }
      uncovered: regionalCostRange(state: "Atlantis") { sourceUrl }
    }`)
  ).body.data;
  return {
    venue: venue.url,
    venueDetail: (await t.rest(`/api/v1/venues/${encodeURIComponent(venue.slug)}`)).body.data.url,
    vendor: vendor.url,
    post: post.url,
    author: post.primary_author.url,
    inspiration: photo.source.url,
    benchmarks: (await t.rest('/api/v1/cost-benchmarks')).body.source_url,
    region: (await t.rest('/api/v1/regional-cost-ranges?state=CA')).body.source_url,
    regions: (await t.rest('/api/v1/regional-cost-ranges?state=Atlantis')).body.source_url,
    gqlVenue: gql.venue.url,
    gqlVendor: gql.vendors.nodes[0].url,
    gqlBenchmarks: gql.costBenchmarks.sourceUrl,
    gqlRegion: gql.covered.sourceUrl,
    gqlRegions: gql.uncovered.sourceUrl,
  };
}

describe('PUBLIC_SITE_URL', () => {
  it('set: every url and source_url on REST and GraphQL names the operator’s site, with the same paths', async () => {
    const mine = await links(plain);
    const theirs = await links(site);
    for (const [what, url] of Object.entries(mine)) {
      expect(url.startsWith(`${BASE_URL}/`), what).toBe(true);
      expect(theirs[what], what).toBe(`${SITE}${url.slice(BASE_URL.length)}`);
    }
    expect(theirs.benchmarks).toBe(`${SITE}/venues`);
    expect(theirs.regions).toBe(`${SITE}/wedding-costs`);
  });

  it('set: doc_url and the developer pages stay on this service, which still serves the pages themselves', async () => {
    const refused = await site.rest('/api/v1/venues', { key: null });
    expect(refused.body.error.doc_url).toBe(`${BASE_URL}/developers/errors#missing_api_key`);
    const venue = (await site.rest('/api/v1/venues?limit=1')).body.data[0];
    const res = await site.app.fetch(new Request(`${BASE_URL}/venues/${venue.slug}`));
    expect(res.status).toBe(200);
    const html = await res.text();
    // The page names the operator's copy as the canonical one; its photos still come from this service.
    expect(html).toContain(`<link rel="canonical" href="${venue.url}">`);
    expect(html).toContain(`<meta property="og:url" content="${venue.url}">`);
    expect(html).toMatch(new RegExp(`<meta property="og:image" content="${BASE_URL}/media/venues/`));
  });
});
