import { ApiError } from '../errors/api-error.js';
import type { RequestContext } from '../graphql/context.js';
import { getVenue, searchVenues } from '../venues/venues.service.js';
import { STORED_AS, venuePricing, type VenuePriceColumns } from '../venues/venue-pricing.js';
import { getVendor } from '../vendors/vendors.service.js';
import { getBlogPost, visibleAuthorsBySlug } from '../blog/blog.service.js';
import { REGIONS, regionalCostRange } from '../pricing/regional-ranges.service.js';
import { venuePage } from './venue.page.js';
import { cataloguePage, type CatalogueEntry } from './catalogue.page.js';
import { vendorPage } from './vendor.page.js';
import { weddingCostsIndexPage, weddingCostsRegionPage } from './wedding-costs.page.js';
import { blogAuthorPage, blogPostPage } from './blog.page.js';

/**
 * The public pages, one entry per kind: every link the API answers with (venue, vendor, blog post and author `url`s,
 * inspiration sources, the `source_url` of benchmarks and regional ranges) names one of them. Each reads the catalogue
 * through its module's service, as the API's resolvers do.
 */
export interface SitePage {
  /** The path template: the metrics' route label and part of the response cache's key. */
  route: string;
  /** The page's one path parameter ('' for a page without one), or null when the path is not this page's. */
  match: (path: string) => string | null;
  /** What of the query string the page reads (part of the response cache's key; everything else is ignored). */
  query?: (search: URLSearchParams) => Record<string, string>;
  /** The page's HTML; an ApiError (not found) when the parameter names nothing shown. */
  render: (param: string, query: Record<string, string>, ctx: RequestContext) => Promise<string>;
}

/** The whole path, or the rest of it after `prefix` (percent-decoded; a bad escape matches nothing). */
const exactly = (path: string) => (p: string) => (p === path ? '' : null);
const under = (prefix: string) => (p: string) => {
  if (!p.startsWith(prefix) || p.length === prefix.length) return null;
  try {
    return decodeURIComponent(p.slice(prefix.length));
  } catch {
    return null;
  }
};

/** Published venues a catalogue page lists. */
const CATALOGUE_PAGE_SIZE = 50;
/** The columns a catalogue page shows of each venue (named as Venue's Prisma fields; venue-rows.ts reads them). */
const CATALOGUE_COLUMNS = [
  'slug',
  'name',
  'city',
  'state',
  'country',
  'capacityMax',
  'currency',
  'minNights',
  'weekdayBase',
  'weekendBase',
  'extraNight',
  'startingTotal',
];
const CATALOGUE_SELECTION = Object.fromEntries(CATALOGUE_COLUMNS.map((column) => [column, true]));
type CatalogueRow = Omit<CatalogueEntry, 'pricing'> & VenuePriceColumns;

/** The pricing object of a venue as the API shows it: stored amounts converted at the day's rate where needed. */
async function pricingOf(v: VenuePriceColumns, ctx: RequestContext) {
  const conversion = STORED_AS[v.currency];
  const dayRate = conversion ? await ctx.loaders.exchangeRate.load(`${conversion.stored}:${v.currency}`) : null;
  return venuePricing(v, dayRate);
}

export const SITE_PAGES: readonly SitePage[] = [
  {
    route: '/venues',
    match: exactly('/venues'),
    query: (search): Record<string, string> => {
      const after = search.get('after');
      return after ? { after } : {};
    },
    render: async (_param, { after }, ctx) => {
      const deps = { readRows: ctx.readRows, cursors: ctx.cursors, dayRate: (pair: string) => ctx.loaders.exchangeRate.load(pair) };
      const page = await searchVenues<CatalogueRow>({ first: CATALOGUE_PAGE_SIZE, after }, CATALOGUE_SELECTION, deps, { countWithPage: true });
      const entries = await Promise.all(page.nodes.map(async (v) => ({ ...v, pricing: await pricingOf(v, ctx) })));
      const last = page.nodes.at(-1);
      return cataloguePage({
        entries,
        total: await page.totalCount(),
        next: page.hasNextPage && last ? page.cursorOf(last) : null,
        after: after ?? null,
        siteUrl: ctx.siteUrl,
      });
    },
  },
  {
    route: '/venues/{slug}',
    match: under('/venues/'),
    render: async (slug, _query, ctx) => {
      const venue = await getVenue(slug, ctx);
      const pricing = await pricingOf(venue, ctx);
      return venuePage({ venue, pricing, canonical: `${ctx.siteUrl}/venues/${venue.slug}`, baseUrl: ctx.baseUrl });
    },
  },
  {
    route: '/vendors/{slug}',
    match: under('/vendors/'),
    render: async (slug, _query, ctx) => {
      const vendor = await getVendor(slug, ctx);
      return vendorPage({ vendor, canonical: `${ctx.siteUrl}/vendors/${vendor.slug}`, baseUrl: ctx.baseUrl });
    },
  },
  {
    route: '/wedding-costs',
    match: exactly('/wedding-costs'),
    render: async (_param, _query, ctx) => weddingCostsIndexPage(ctx.siteUrl),
  },
  {
    route: '/wedding-costs/{slug}',
    match: under('/wedding-costs/'),
    render: async (slug, _query, ctx) => {
      const region = REGIONS.find((r) => r.slug === slug);
      const answer = region && regionalCostRange({ slug: region.slug }, ctx);
      if (!answer?.data) throw new ApiError('route_not_found', { message: 'No region has a wedding cost page at this address.' });
      return weddingCostsRegionPage(answer.data, answer.sourceUrl);
    },
  },
  {
    route: '/blog/authors/{slug}',
    match: under('/blog/authors/'),
    render: async (slug, _query, ctx) => {
      const [author] = await visibleAuthorsBySlug([slug], { select: { slug: true, name: true, bio: true } }, ctx);
      if (!author) throw new ApiError('route_not_found', { message: 'No author of a published post has this address.' });
      return blogAuthorPage({ author, siteUrl: ctx.siteUrl });
    },
  },
  {
    route: '/blog/{slug}',
    match: under('/blog/'),
    render: async (slug, _query, ctx) => blogPostPage({ post: await getBlogPost(slug, ctx), siteUrl: ctx.siteUrl, baseUrl: ctx.baseUrl }),
  },
];
