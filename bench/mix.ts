/**
 * The MIX case's request list (issue 13, "a realistic read mix"): pure functions only, so test/bench can check them
 * without a database. bench/mix-generate.ts reads the facts from a freshly seeded catalogue, calls buildMix and writes
 * bench/mix.json; bench/database-run.ts replays that file.
 *
 * GraphQL entries name an operation of MIX_DOCUMENTS and carry their variables, so the file stays small; materialise()
 * turns every entry into the exact request sent.
 */
import { randomFor, type Random } from '../src/db/seed/random.js';
import { ESTIMATOR_EVENT_TYPES, ESTIMATOR_REGION_IDS, ESTIMATOR_SEASONS, ESTIMATOR_VENUE_TYPES } from '../src/pricing/pricing.inputs.js';
import { NAMED_AMENITIES } from '../src/venues/venues.inputs.js';
import { VENDOR_SORTS } from '../src/vendors/vendors.inputs.js';
import {
  INSPIRATION_COLORS,
  INSPIRATION_MOODS,
  INSPIRATION_SEASONS,
  INSPIRATION_SETTINGS,
  INSPIRATION_STYLES,
} from '../src/inspiration/inspiration.inputs.js';
import type { BenchRequest } from './cases.js';

/**
 * The API must run with this cursor secret for the mix's `cursor=` / `after:` pages to verify: cursors are HMAC-signed
 * (src/pagination/cursor.ts) and hold only deterministic keyset positions (venue slugs; vendor sort values and ids).
 * A bench-only value, never a deployment's.
 */
export const MIX_CURSOR_SECRET = 'bench-mix-cursor-secret-not-for-deployments-0001';
export const MIX_SEED = 'bench-mix-v1';
export const MIX_SIZE = 4000;

/** What the generator reads from the seeded catalogue (and hands to buildMix). */
export interface CatalogueFacts {
  venues: Array<{ slug: string; stateSlug: string; citySlug: string; capacityMax: number | null; amenities: string[]; venueType: string | null }>;
  /** US state names and city names of the venues (regional cost ranges). */
  regionStates: string[];
  regionCities: string[];
  vendors: Array<{ slug: string; category: string; state: string | null }>;
  vendorCategories: string[];
  blogPosts: string[];
  blogTags: string[];
  inspirationIds: string[];
  /** Harvested next pages, in the order harvested: REST paths (after /api/v1) with cursor=, GraphQL SearchVenues variables with after. */
  venuePages: string[];
  vendorPages: string[];
  graphqlVenuePages: Array<Record<string, unknown>>;
}

export interface RestEntry {
  kind: string;
  method: 'GET';
  path: string;
}
export interface GraphqlEntry {
  kind: string;
  method: 'POST';
  path: '/graphql';
  operation: keyof typeof MIX_DOCUMENTS;
  variables: Record<string, unknown>;
}
export type MixEntry = RestEntry | GraphqlEntry;

export interface MixFile {
  $comment: string;
  seed: string;
  cursorSecret: string;
  /** Counts of what the catalogue held when generated (a re-seeded catalogue that differs makes entries 404). */
  catalogue: Record<string, number>;
  documents: Record<string, string>;
  entries: MixEntry[];
}

/** Operations a frontend sends: search page, venue page, venue cards, vendor directory, vendor page, tools. */
export const MIX_DOCUMENTS = {
  SearchVenues: /* GraphQL */ `query SearchVenues($state: String, $capacityMin: Int, $priceMin: Float, $priceMax: Float, $amenities: [String!], $first: Int, $after: String) {
  venues(state: $state, capacityMin: $capacityMin, priceMin: $priceMin, priceMax: $priceMax, amenities: $amenities, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor }
    nodes { slug name city state capacityMax heroImage priceRange pricing { currency startingTotal { amount nights } } amenities }
  }
}`,
  VenueCards: /* GraphQL */ `query VenueCards($state: String, $first: Int) {
  venues(state: $state, first: $first) {
    totalCount nodes { slug name pricing { currency startingTotal { amount } } photos { url } testimonials { rating } }
  }
}`,
  VenueDetail: /* GraphQL */ `query VenueDetail($slug: String!) {
  venue(slug: $slug) {
    slug name city state description capacityMax bedrooms bathrooms amenities categories
    pricing { currency minNights weekdayBase weekendBase startingTotal { amount nights includesFees } }
    photos { url category } totalPhotos testimonials { guestName rating review eventDate }
  }
}`,
  SearchVendors: /* GraphQL */ `query SearchVendors($category: String, $state: String, $sortBy: VendorSort, $priceMax: Float, $first: Int) {
  vendors(category: $category, state: $state, sortBy: $sortBy, priceMax: $priceMax, first: $first) {
    totalCount nodes { slug businessName primaryCity primaryState startingPrice priceUnit featuredImageUrl } categoryStats
  }
}`,
  VendorDetail: /* GraphQL */ `query VendorDetail($slug: String!) {
  vendor(slug: $slug) {
    slug businessName serviceCategory tagline bio primaryCity primaryState startingPrice priceUnit specialties
    photos { url altText } website instagram vendorPolicies { booking payment cancellation } averageRating reviewCount
  }
}`,
  Home: /* GraphQL */ `query Home($first: Int, $state: String) {
  vendorCategories { slug name vendorCount }
  blogPosts(limit: 3) { nodes { slug title excerpt featureImage } }
  venues(state: $state, first: $first) { nodes { slug name heroImage priceRange } }
}`,
  Estimate: /* GraphQL */ `query Estimate($region: String, $eventGuests: Int, $nights: Int, $season: EstimatorSeason) {
  pricingEstimate(region: $region, eventGuests: $eventGuests, nights: $nights, season: $season) {
    estimatedTotal priceRange perNightAverage summary savingsVsTraditional { savingsPercent note }
  }
}`,
  Knowledge: /* GraphQL */ `query Knowledge($q: String!, $limit: Int) {
  knowledgeSearch(q: $q, limit: $limit) { data { title heading body score } degraded }
}`,
  Inspiration: /* GraphQL */ `query Inspiration($style: InspirationStyle, $mood: InspirationMood, $first: Int, $offset: Int) {
  inspirationPhotos(style: $style, mood: $mood, first: $first, offset: $offset) {
    totalCount nodes { id: photoId imageUrl alt source { type name slug url } styles moods }
  }
}`,
} as const;

/** Questions couples ask (knowledge search), combined with limits and tags. */
export const KNOWLEDGE_QUESTIONS = [
  'how much deposit do venues ask for',
  'how far ahead should we book a venue',
  'what happens if it rains on the day',
  'can we bring our own caterer',
  'how many nights do we need to book',
  'is a cleaning fee included in the price',
  'what does the service fee cover',
  'can guests stay overnight at the venue',
  'do we need event insurance',
  'what is the cancellation policy',
  'how do we set a wedding budget',
  'are pets allowed at the venue',
  'what time does music have to stop',
  'do we need a wedding planner',
  'how much should we spend on photography',
  'can we have a fire pit or fireworks',
  'what is included in the starting total',
  'how do weekend and weekday prices differ',
  'how many guests can sleep on site',
  'what should the contract include',
  'when is the final payment due',
  'can we visit the venue before booking',
  'how do we choose a florist',
  'what is a micro wedding',
  'how much does a destination wedding cost',
];
const KNOWLEDGE_TAGS = ['budget', 'contracts', 'planning', 'guests', 'venues'];

/** The GraphQL enum value of a wire value (src/graphql/closed-set.ts: upper case, '-' → '_'). */
const enumValue = (wire: string) => wire.toUpperCase().replace(/-/g, '_');

const query = (path: string, params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, String(v));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

const rest = (kind: string, path: string): RestEntry => ({ kind, method: 'GET', path: `/api/v1${path}` });
const gql = (kind: string, operation: keyof typeof MIX_DOCUMENTS, variables: Record<string, unknown>): GraphqlEntry => ({
  kind,
  method: 'POST',
  path: '/graphql',
  operation,
  variables,
});

const PRICE_BANDS: Array<[number | undefined, number | undefined]> = [
  [undefined, 8000],
  [5000, 15000],
  [10000, 25000],
  [20000, undefined],
  [15000, 40000],
];
const CAPACITIES = [10, 16, 20, 24, 30, 40, 60];

type Generator = { weight: number; make: (r: Random) => MixEntry | null };

/**
 * A deterministic list of `size` distinct requests: the same facts and seed always give the same list, in the same
 * order. Weights approximate a browsing frontend: searches and detail pages dominate, tools and content follow.
 */
export function buildMix(facts: CatalogueFacts, options: { seed?: string; size?: number } = {}): MixEntry[] {
  const seed = options.seed ?? MIX_SEED;
  const size = options.size ?? MIX_SIZE;
  const r = randomFor('bench-mix', seed);
  const pages = { venue: [...facts.venuePages], vendor: [...facts.vendorPages], graphqlVenue: [...facts.graphqlVenuePages] };
  const anchor = () => r.pick(facts.venues);
  const named = new Set<string>(NAMED_AMENITIES);

  const venueSearchParams = () => {
    const v = anchor();
    const [priceMin, priceMax] = r.chance(0.3) ? r.pick(PRICE_BANDS) : [undefined, undefined];
    const amenities = r.chance(0.35)
      ? r.sample(v.amenities.filter((a) => named.has(a)).length ? v.amenities.filter((a) => named.has(a)) : v.amenities, r.int(1, 2))
      : [];
    const state = r.chance(0.7) ? v.stateSlug : undefined;
    return {
      state,
      city: state && r.chance(0.15) ? v.citySlug : undefined,
      venue_type: r.chance(0.08) && v.venueType ? v.venueType : undefined,
      capacity_min: r.chance(0.4) ? r.pick(CAPACITIES) : undefined,
      bedrooms_min: r.chance(0.1) ? r.int(3, 10) : undefined,
      price_min: priceMin,
      price_max: priceMax,
      amenities: amenities.length ? amenities.join(',') : undefined,
      limit: r.pick([10, 12, 20, 20, 20, 24, 50]),
    };
  };

  const generators: Generator[] = [
    { weight: 20, make: () => rest('venue-search', query('/venues', venueSearchParams())) },
    { weight: 4, make: () => (pages.venue.length ? rest('venue-search-page', pages.venue.shift()!) : null) },
    { weight: 16, make: () => rest('venue-detail', `/venues/${encodeURIComponent(anchor().slug)}`) },
    {
      weight: 10,
      make: () => {
        const v = r.pick(facts.vendors);
        return rest(
          'vendor-search',
          query('/vendors', {
            category: r.chance(0.7) ? v.category : undefined,
            state: r.chance(0.4) && v.state ? v.state : undefined,
            sort_by: r.chance(0.5) ? r.pick(VENDOR_SORTS) : undefined,
            price_max: r.chance(0.2) ? r.pick([500, 1500, 3000, 8000]) : undefined,
            featured: r.chance(0.1) ? 'true' : undefined,
            limit: r.pick([12, 20, 20, 40]),
          }),
        );
      },
    },
    { weight: 3, make: () => (pages.vendor.length ? rest('vendor-search-page', pages.vendor.shift()!) : null) },
    { weight: 8, make: () => rest('vendor-detail', `/vendors/${encodeURIComponent(r.pick(facts.vendors).slug)}`) },
    { weight: 0.2, make: () => rest('vendor-categories', '/vendors/categories') },
    {
      weight: 5,
      make: () =>
        rest(
          'pricing-estimate',
          query('/venues/pricing', {
            region: r.pick(ESTIMATOR_REGION_IDS),
            event_type: r.chance(0.5) ? r.pick(ESTIMATOR_EVENT_TYPES) : undefined,
            event_guests: r.chance(0.7) ? r.int(4, 30) * 10 : undefined,
            overnight_guests: r.chance(0.4) ? r.int(2, 40) : undefined,
            nights: r.chance(0.6) ? r.int(2, 7) : undefined,
            venue_type: r.chance(0.4) ? r.pick(ESTIMATOR_VENUE_TYPES) : undefined,
            season: r.chance(0.5) ? r.pick(ESTIMATOR_SEASONS) : undefined,
          }),
        ),
    },
    {
      weight: 4,
      make: () => {
        const byCity = r.chance(0.4);
        return rest(
          'regional-range',
          query('/regional-cost-ranges', {
            state: byCity ? undefined : r.pick(facts.regionStates),
            city: byCity ? r.pick(facts.regionCities) : undefined,
            season: r.chance(0.5) ? r.pick(['spring', 'summer', 'fall', 'winter', 'june', 'october', '05']) : undefined,
            guests: r.chance(0.6) ? r.int(2, 30) * 10 : undefined,
          }),
        );
      },
    },
    {
      weight: 1,
      make: () =>
        rest(
          'cost-benchmarks',
          query('/cost-benchmarks', {
            state: r.chance(0.6) ? r.pick(facts.regionStates) : undefined,
            venue_type: r.chance(0.4) ? r.pick(['estate', 'villa', 'ranch', 'mansion']) : undefined,
          }),
        ),
    },
    {
      weight: 3,
      make: () =>
        rest(
          'knowledge-search',
          query('/knowledge/search', {
            q: r.pick(KNOWLEDGE_QUESTIONS),
            limit: r.int(1, 10),
            tags: r.chance(0.3) ? r.pick(KNOWLEDGE_TAGS) : undefined,
          }),
        ),
    },
    {
      weight: 2,
      make: () =>
        rest(
          'blog-list',
          query('/blog/posts', { page: r.int(1, 4), limit: r.pick([3, 6, 10, 20]), tag: r.chance(0.5) ? r.pick(facts.blogTags) : undefined }),
        ),
    },
    { weight: 2, make: () => rest('blog-post', `/blog/posts/${encodeURIComponent(r.pick(facts.blogPosts))}`) },
    { weight: 0.2, make: () => rest('blog-tags', '/blog/tags') },
    {
      weight: 3,
      make: () =>
        rest(
          'inspiration-search',
          query('/inspiration', {
            style: r.chance(0.4) ? r.pick(INSPIRATION_STYLES) : undefined,
            setting: r.chance(0.2) ? r.pick(INSPIRATION_SETTINGS) : undefined,
            color: r.chance(0.2) ? r.pick(INSPIRATION_COLORS) : undefined,
            mood: r.chance(0.2) ? r.pick(INSPIRATION_MOODS) : undefined,
            season: r.chance(0.2) ? r.pick(INSPIRATION_SEASONS) : undefined,
            limit: r.pick([12, 20, 24]),
            offset: r.chance(0.3) ? r.int(1, 5) * 12 : undefined,
          }),
        ),
    },
    { weight: 2, make: () => rest('inspiration-photo', `/inspiration/${r.pick(facts.inspirationIds)}`) },
    {
      weight: 5,
      make: () => {
        const p = venueSearchParams();
        return gql(
          'gql-search-venues',
          'SearchVenues',
          compact({
            state: p.state,
            capacityMin: p.capacity_min,
            priceMin: p.price_min,
            priceMax: p.price_max,
            amenities: p.amenities?.split(','),
            first: p.limit,
          }),
        );
      },
    },
    { weight: 2, make: () => (pages.graphqlVenue.length ? gql('gql-search-venues-page', 'SearchVenues', pages.graphqlVenue.shift()!) : null) },
    {
      weight: 2,
      make: () => gql('gql-venue-cards', 'VenueCards', compact({ state: r.chance(0.8) ? anchor().stateSlug : undefined, first: r.int(4, 24) })),
    },
    { weight: 5, make: () => gql('gql-venue-detail', 'VenueDetail', { slug: anchor().slug }) },
    {
      weight: 3,
      make: () => {
        const v = r.pick(facts.vendors);
        return gql(
          'gql-search-vendors',
          'SearchVendors',
          compact({
            category: r.chance(0.8) ? v.category : undefined,
            state: r.chance(0.3) && v.state ? v.state : undefined,
            sortBy: r.chance(0.5) ? enumValue(r.pick(VENDOR_SORTS)) : undefined,
            priceMax: r.chance(0.2) ? r.pick([500, 1500, 3000]) : undefined,
            first: r.pick([6, 12, 20]),
          }),
        );
      },
    },
    { weight: 3, make: () => gql('gql-vendor-detail', 'VendorDetail', { slug: r.pick(facts.vendors).slug }) },
    { weight: 1, make: () => gql('gql-home', 'Home', compact({ first: r.int(3, 12), state: r.chance(0.5) ? anchor().stateSlug : undefined })) },
    {
      weight: 1.5,
      make: () =>
        gql(
          'gql-estimate',
          'Estimate',
          compact({
            region: r.pick(ESTIMATOR_REGION_IDS),
            eventGuests: r.int(4, 30) * 10,
            nights: r.chance(0.6) ? r.int(2, 7) : undefined,
            // GraphQL takes the enum's names (PEAK); REST the wire values.
            season: r.chance(0.5) ? r.pick(ESTIMATOR_SEASONS).toUpperCase() : undefined,
          }),
        ),
    },
    { weight: 1, make: () => gql('gql-knowledge', 'Knowledge', { q: r.pick(KNOWLEDGE_QUESTIONS), limit: r.int(1, 8) }) },
    {
      weight: 1.5,
      make: () =>
        gql(
          'gql-inspiration',
          'Inspiration',
          compact({
            style: r.chance(0.5) ? enumValue(r.pick(INSPIRATION_STYLES)) : undefined,
            mood: r.chance(0.3) ? enumValue(r.pick(INSPIRATION_MOODS)) : undefined,
            first: r.pick([12, 24]),
            offset: r.chance(0.3) ? r.int(1, 5) * 12 : undefined,
          }),
        ),
    },
  ];

  const weights = generators.map((g) => g.weight);
  const seen = new Set<string>();
  const entries: MixEntry[] = [];
  // Generous bound: a catalogue too small for `size` distinct requests ends the loop instead of spinning.
  for (let attempt = 0; entries.length < size && attempt < size * 50; attempt++) {
    const entry = r.weighted(generators, weights).make(r);
    if (!entry) continue;
    const key = entryKey(entry);
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push(entry);
  }
  if (entries.length < size) throw new Error(`only ${entries.length} distinct requests could be made (wanted ${size})`);
  return entries;
}

function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** What makes two entries the same request. */
export function entryKey(e: MixEntry): string {
  return e.method === 'GET' ? `GET ${e.path}` : `POST ${e.path} ${e.operation} ${JSON.stringify(e.variables)}`;
}

/** The request sent for an entry (the bench adds the key). */
export function materialise(e: MixEntry, documents: Record<string, string> = MIX_DOCUMENTS): BenchRequest {
  if (e.method === 'GET') return { method: 'GET', path: e.path };
  const document = documents[e.operation];
  if (!document) throw new Error(`unknown operation ${e.operation}`);
  return { method: 'POST', path: e.path, body: JSON.stringify({ query: document, operationName: e.operation, variables: e.variables }) };
}

/** null when an entry is well-formed; otherwise what is wrong with it. */
export function entryProblem(e: unknown, documents: Record<string, string> = MIX_DOCUMENTS): string | null {
  if (!e || typeof e !== 'object') return 'not an object';
  const x = e as Record<string, unknown>;
  if (typeof x.kind !== 'string' || !x.kind) return 'kind missing';
  if (x.method === 'GET') {
    if (typeof x.path !== 'string' || !x.path.startsWith('/api/v1/')) return 'GET path is not under /api/v1/';
    try {
      const url = new URL(x.path, 'http://x');
      if (url.pathname + url.search !== x.path) return 'path is not in canonical URL form';
    } catch {
      return 'path is not a URL';
    }
    return null;
  }
  if (x.method === 'POST') {
    if (x.path !== '/graphql') return 'POST path is not /graphql';
    if (typeof x.operation !== 'string' || !(x.operation in documents)) return `unknown operation ${String(x.operation)}`;
    if (!x.variables || typeof x.variables !== 'object' || Array.isArray(x.variables)) return 'variables is not an object';
    const declared = [...documents[x.operation].matchAll(/\$(\w+):/g)].map((m) => m[1]);
    const extra = Object.keys(x.variables).filter((k) => !declared.includes(k));
    if (extra.length) return `variables not declared by ${x.operation}: ${extra.join(', ')}`;
    return null;
  }
  return `method ${String(x.method)}`;
}

/** Entries by kind, for the report. */
export function composition(entries: MixEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of entries) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}
