import { randomBytes } from 'node:crypto';
import { Kind, parse, print, type FieldNode } from 'graphql';
import { pricingRoutes } from '../src/pricing/pricing.rest.js';
import { priceRangeText, venuePricing, STORED_AS, type DayRate, type VenuePriceColumns } from '../src/venues/venue-pricing.js';
import { createCursorCodec, filterScope } from '../src/pagination/cursor.js';
import { taggedColumns } from '../src/graphql/model-columns.js';
import { snakeCase } from '../src/rest/route.js';
import { estimatePricing } from '../src/pricing/pricing.service.js';
import { parsePricingEstimate } from '../src/pricing/pricing.inputs.js';
import { regionalCostRange } from '../src/pricing/regional-ranges.service.js';
import { benchmarksOf, listingsOf, type ListingRow } from '../src/pricing/benchmarks.service.js';
import { KNOWLEDGE_NOTE, RRF_K } from '../src/knowledge/knowledge.service.js';
import { bytesToVector, dot } from '../src/knowledge/knowledge.embedder.js';
import { sharedEmbedder } from '../src/knowledge/knowledge.model-host.js';

/**
 * Baseline B1: the best a hand-written query can do for the same bodies the API returns, one SQL statement per
 * request through the same driver (PGlite or pg). The pure pricing helpers and the cursor codec are the app's own,
 * so the bodies are byte-identical apart from request_id (the bench checks this before loading).
 */
export type Query = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
/** Several statements without parameters sent as one simple-protocol message (one round trip): the rows of each. */
export type QueryMany = (sql: string) => Promise<Record<string, unknown>[][]>;

// Only one converted currency exists (AUD stored as USD); a second one would show up as a body mismatch.
const [CONVERTED, { stored: STORED }] = Object.entries(STORED_AS)[0];

const RATE = /* SQL */ `(SELECT json_build_object('rate', rate, 'rateDate', to_char("rateDate", 'YYYY-MM-DD')) FROM "ExchangeRate"
    WHERE base = $2 AND quote = $3 AND "rateDate" <= $1::date ORDER BY "rateDate" DESC LIMIT 1)`;

const PRICE_COLUMNS = `currency, "minNights", "weekdayBase", "weekendBase", "extraNight", "startingTotal"`;

const LIST_COLUMNS = `slug, name, city, state, country, "propertyType", "venueType", latitude, longitude, "capacityMin", "capacityMax",
      bedrooms, beds, bathrooms, "gatheringSpaces", "heroImage", "seoDescription", amenities, ${PRICE_COLUMNS}`;

/** The published venues, as the triggers on Venue keep them counted (migration published_venue_counts), as R1 reads them. */
const PUBLISHED_VENUES = `(SELECT venues FROM "PublishedVenueCount" WHERE amenity = '' AND "otherAmenity" = '')`;

/** R1's page: the limit's rows and one more (it tells has_more), the total and the day's rate in the same statement. */
const SEARCH_SQL = /* SQL */ `
  WITH page AS (
    SELECT ${LIST_COLUMNS}
    FROM "Venue" WHERE published ORDER BY slug LIMIT $4)
  SELECT page.*, ${PUBLISHED_VENUES} AS total, ${RATE} AS rate
  FROM page ORDER BY slug`;

/** R4's data: 20 venues with their first 5 photos and every testimonial as JSON subqueries, total and rate. */
const GRAPH_SQL = /* SQL */ `
  WITH page AS (SELECT id, slug, name, ${PRICE_COLUMNS} FROM "Venue" WHERE published ORDER BY slug LIMIT 20)
  SELECT page.*,
    (SELECT coalesce(json_agg(p.url ORDER BY p.position, p.id), '[]'::json)
       FROM (SELECT url, position, id FROM "VenuePhoto" WHERE "venueId" = page.id ORDER BY position, id LIMIT 5) p) AS photos,
    (SELECT coalesce(json_agg(t.rating ORDER BY t."eventDate" DESC NULLS LAST, t.id), '[]'::json)
       FROM "Testimonial" t WHERE t."venueId" = page.id) AS ratings,
    ${PUBLISHED_VENUES} AS total, ${RATE} AS rate
  FROM page ORDER BY slug`;

/** The detail fields showing a column as stored (prisma/schema.prisma's `@detail` columns), in the route's order. */
const DETAIL_COLUMNS = taggedColumns('Venue', 'detail').map(({ name }) => name);

/** R3's venue: the list columns, the detail columns, 5 photos and every testimonial as JSON, and the day's rate. */
const DETAIL_SQL = /* SQL */ `
  SELECT ${LIST_COLUMNS}, ${DETAIL_COLUMNS.map((name) => `"${name}"`).join(', ')},
    (SELECT coalesce(json_agg(json_build_object('url', p.url, 'category', p.category, 'is_featured', p."isFeatured", 'position', p.position)
        ORDER BY p.position, p.id), '[]'::json)
       FROM (SELECT url, category, "isFeatured", position, id FROM "VenuePhoto" WHERE "venueId" = v.id ORDER BY position, id LIMIT 5) p) AS photos,
    (SELECT coalesce(json_agg(json_build_object('guest_name', t."guestName", 'rating', t.rating, 'review', t.review,
        'event_date', to_char(t."eventDate", 'YYYY-MM-DD')) ORDER BY t."eventDate" DESC NULLS LAST, t.id), '[]'::json)
       FROM "Testimonial" t WHERE t."venueId" = v.id) AS testimonials,
    ${RATE} AS rate
  FROM "Venue" v WHERE slug = $4 AND published`;

const VENDOR_LIST_COLUMNS = `id, slug, "businessName", "serviceCategory", tagline, "primaryCity", "primaryState", bio, "serviceSubcategories",
      "serviceAreas", specialties, "startingPrice", "priceUnit", "yearsInBusiness", "weddingsCompleted", featured, "featuredImageUrl",
      "isAffiliateOnly", "affiliateLink"`;

/**
 * R6's page: the limit's active vendors and one more, newest first, and the category counts, whose sum is the total
 * (as the API reads it: src/vendors/vendors.service.ts), as two plain statements sent in one round trip (so without
 * bind parameters; `rows` is an integer, checked by pageSize). One statement doing all of it (the page as a CTE, the
 * total and facet as JSON subqueries) ran slower than the API's separate statements.
 */
const vendorsSql = (rows: number) => /* SQL */ `
  SELECT ${VENDOR_LIST_COLUMNS}, to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
    FROM "Vendor" WHERE active ORDER BY "createdAt" DESC, id LIMIT ${rows};
  SELECT "serviceCategory" AS c, count(*)::int AS n FROM "Vendor" WHERE active GROUP BY 1`;

/** R8's vendor: the list columns, the detail columns, 5 photos (primary first) as JSON and the policies as stated. */
const VENDOR_DETAIL_SQL = /* SQL */ `
  SELECT ${VENDOR_LIST_COLUMNS},
    (SELECT coalesce(json_agg(json_build_object('url', p.url, 'category', p.category, 'alt_text', p."altText")
        ORDER BY p."isPrimary" DESC, p.position), '[]'::json)
       FROM (SELECT url, category, "altText", "isPrimary", position FROM "VendorPhoto" WHERE "vendorId" = v.id
             ORDER BY "isPrimary" DESC, position LIMIT 5) p) AS photos,
    "totalPhotos", website, instagram, facebook, tiktok, "pricingStructure", "portfolioDescription",
    CASE WHEN jsonb_typeof("vendorPolicies") = 'object' THEN json_build_object(
      'booking', CASE WHEN jsonb_typeof("vendorPolicies"->'booking') = 'string' THEN "vendorPolicies"->>'booking' END,
      'payment', CASE WHEN jsonb_typeof("vendorPolicies"->'payment') = 'string' THEN "vendorPolicies"->>'payment' END,
      'cancellation', CASE WHEN jsonb_typeof("vendorPolicies"->'cancellation') = 'string' THEN "vendorPolicies"->>'cancellation' END,
      'timeline', CASE WHEN jsonb_typeof("vendorPolicies"->'timeline') = 'string' THEN "vendorPolicies"->>'timeline' END,
      'insurance', CASE WHEN jsonb_typeof("vendorPolicies"->'insurance') = 'string' THEN "vendorPolicies"->>'insurance' END) END AS policies,
    "averageRating", "reviewCount"
  FROM "Vendor" v WHERE slug = $1 AND active`;

/** R9: the categories in order with their active vendor counts. */
const CATEGORIES_SQL = /* SQL */ `
  SELECT c.name, c.slug, coalesce(n.n, 0)::int AS vendor_count
  FROM "VendorCategory" c
  LEFT JOIN (SELECT "serviceCategory" AS slug, count(*) AS n FROM "Vendor" WHERE active GROUP BY 1) n ON n.slug = c.slug
  ORDER BY c.position`;

/** R12: the priced published venues (the API's listing columns) and the day's EUR→USD rate. */
const BENCHMARKS_SQL = /* SQL */ `
  SELECT "weekdayBase", currency, country, state, "stateSlug", "venueType",
    (SELECT json_build_object('rate', rate, 'rateDate', to_char("rateDate", 'YYYY-MM-DD')) FROM "ExchangeRate"
      WHERE base = 'EUR' AND quote = 'USD' AND "rateDate" <= $1::date ORDER BY "rateDate" DESC LIMIT 1) AS fx
  FROM "Venue" WHERE published AND "weekdayBase" IS NOT NULL`;

const INSPIRATION_COLUMNS = `id, "imageUrl" AS image_url, alt, "sourceType", "sourceName", "sourceSlug", "sourceCity", "sourceState",
    styles, settings, colors, moods, season`;

/** R13: the first 21 photos in gallery order and the total. */
const INSPIRATION_SQL = /* SQL */ `
  SELECT ${INSPIRATION_COLUMNS}, (SELECT count(*)::int FROM "InspirationPhoto") AS total
  FROM "InspirationPhoto" ORDER BY position LIMIT 21`;

/** R14: one photo with its description and variants. */
const INSPIRATION_PHOTO_SQL = /* SQL */ `
  SELECT ${INSPIRATION_COLUMNS}, description, "smallUrl", "mediumUrl", "largeUrl" FROM "InspirationPhoto" WHERE id = $1::uuid`;

const POST_COLUMNS = `p.slug, p.title, p.excerpt, p."featureImage",
    to_char(coalesce(p."publishedAt", 'epoch'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "publishedAt", p."readingTime",
    (SELECT coalesce(json_agg(json_build_object('slug', t.slug, 'name', t.name) ORDER BY pt.position), '[]'::json)
       FROM "BlogPostTag" pt JOIN "BlogTag" t ON t.slug = pt."tagSlug" WHERE pt."postId" = p.id) AS tags,
    a.name AS "authorName", a.slug AS "authorSlug"`;

/** R15: the newest 21 shown posts (published, dated no later than now) with tags and author. */
const POSTS_SQL = /* SQL */ `
  SELECT ${POST_COLUMNS}
  FROM "BlogPost" p LEFT JOIN "BlogAuthor" a ON a.slug = p."authorSlug"
  WHERE p.status = 'published' AND p."publishedAt" <= $1
  ORDER BY p."publishedAt" DESC, p.slug LIMIT 21`;

/** R16: one shown post with its word count and plain text. */
const POST_SQL = /* SQL */ `
  SELECT ${POST_COLUMNS}, p."wordCount", p."contentPlaintext"
  FROM "BlogPost" p LEFT JOIN "BlogAuthor" a ON a.slug = p."authorSlug"
  WHERE p.slug = $2 AND p.status = 'published' AND p."publishedAt" <= $1`;

/** R17: tags of shown posts with their counts. */
const TAGS_SQL = /* SQL */ `
  SELECT pt."tagSlug" AS slug, t.name, count(*)::int AS post_count
  FROM "BlogPostTag" pt JOIN "BlogPost" p ON p.id = pt."postId" LEFT JOIN "BlogTag" t ON t.slug = pt."tagSlug"
  WHERE p.status = 'published' AND p."publishedAt" <= $1
  GROUP BY pt."tagSlug", t.name`;

/**
 * R18: the words half (the API's BM25 over the sections' lexemes, top 100), fused by reciprocal rank with the meaning
 * half's ranking ($2, computed in JS from the query's embedding), and the fused top sections with their text, plus
 * as_of. A few rows beyond the limit come back so ties at the cut are broken in JS as the API breaks them.
 */
const KNOWLEDGE_SQL = /* SQL */ `
  WITH query AS (
    SELECT DISTINCT lexeme FROM unnest(tsvector_to_array(to_tsvector('english', $1))) AS lexeme
  ),
  docs AS (
    SELECT c."slug",
      setweight(to_tsvector('english', c."title"), 'A')
        || setweight(to_tsvector('english', c."heading" || ' ' || array_to_string(c."tags", ' ')), 'B')
        || setweight(to_tsvector('english', c."body"), 'C') AS doc
    FROM "KnowledgeChunk" c
  ),
  terms AS (
    SELECT d."slug", t.lexeme,
      (SELECT sum(CASE w WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END) FROM unnest(t.weights) AS w)::float8 AS tf
    FROM docs d, unnest(d.doc) AS t
  ),
  lengths AS (SELECT "slug", sum(tf) AS len FROM terms GROUP BY "slug"),
  stats AS (SELECT count(*)::float8 AS n, avg(len) AS avglen FROM lengths),
  df AS (SELECT t.lexeme, count(*)::float8 AS df FROM terms t JOIN query USING (lexeme) GROUP BY t.lexeme),
  words AS (
    SELECT t."slug", row_number() OVER (ORDER BY sum(ln(1 + (s.n - df.df + 0.5) / (df.df + 0.5)) * t.tf * 2.2
        / (t.tf + 1.2 * (0.25 + 0.75 * l.len / s.avglen))) DESC, t."slug") AS rank
    FROM terms t JOIN df USING (lexeme) JOIN lengths l USING ("slug"), stats s
    GROUP BY t."slug"
    ORDER BY rank LIMIT 100
  ),
  meaning AS (SELECT slug, rank FROM unnest($2::text[]) WITH ORDINALITY AS m(slug, rank)),
  fused AS (
    SELECT slug, sum(1::float8 / (${RRF_K} + rank)) AS score
    FROM (SELECT slug, rank FROM words UNION ALL SELECT slug, rank FROM meaning) r GROUP BY slug
  )
  SELECT c.title, c.heading, c.body, c.slug, f.score,
    (SELECT to_char(max("noteUpdated"), 'YYYY-MM-DD') FROM "KnowledgeChunk") AS as_of
  FROM fused f JOIN "KnowledgeChunk" c USING (slug)
  ORDER BY f.score DESC LIMIT $3`;

/*
 * The baselines read their inputs from the request, as any handler of these routes must and the API's routes do: the
 * server parses the query string once per request (URLSearchParams), and each body takes its parameters from it. An
 * absent parameter gets the route's default; a bad one throws (the server answers 500; the bench sends none).
 */
/** A numeric parameter as given (absent → undefined); the route's own parser checks it. */
const numberIn = (query: URLSearchParams, name: string) => {
  const text = query.get(name);
  return text === null ? undefined : Number(text);
};
/** §4's page size: an integer from 1 to `max`, `fallback` when absent. */
function pageSize(query: URLSearchParams, max: number, fallback: number): number {
  const size = numberIn(query, 'limit') ?? fallback;
  if (!Number.isInteger(size) || size < 1 || size > max) throw new Error(`limit must be an integer from 1 to ${max}`);
  return size;
}

type Row = Record<string, unknown> & VenuePriceColumns & { slug: string; total: number; rate: DayRate | null };

const today = () => new Date().toISOString().slice(0, 10);
const pricingOf = (row: Row) => venuePricing(row, row.currency === CONVERTED ? row.rate : null);

/** A venue as the REST list item (and the first fields of the detail), from a row with the list columns. */
function venueListItem(r: Row, baseUrl: string) {
  const p = pricingOf(r);
  return {
    slug: r.slug,
    name: r.name,
    city: r.city,
    state: r.state,
    country: r.country,
    property_type: r.propertyType,
    venue_type: r.venueType,
    latitude: r.latitude,
    longitude: r.longitude,
    capacity_min: r.capacityMin,
    capacity_max: r.capacityMax,
    bedrooms: r.bedrooms,
    beds: r.beds,
    bathrooms: r.bathrooms,
    gathering_spaces: r.gatheringSpaces,
    price_range: priceRangeText(p),
    pricing: {
      price_unit: p.priceUnit,
      currency: p.currency,
      min_nights: p.minNights,
      weekday_base: p.weekdayBase,
      weekend_base: p.weekendBase,
      extra_night: p.extraNight,
      starting_total: p.startingTotal && {
        amount: p.startingTotal.amount,
        nights: p.startingTotal.nights,
        rate: p.startingTotal.rate,
        includes_fees: p.startingTotal.includesFees,
      },
      rate_date: p.rateDate,
    },
    hero_image: r.heroImage,
    seo_description: r.seoDescription,
    amenities: r.amenities,
    url: `${baseUrl}/venues/${r.slug}`,
  };
}

/** A vendor as the REST list item (and the first fields of the detail), from a row with the vendor list columns. */
function vendorListItem(v: Record<string, unknown>, baseUrl: string) {
  return {
    slug: v.slug,
    business_name: v.businessName,
    service_category: v.serviceCategory,
    tagline: v.tagline,
    primary_city: v.primaryCity,
    primary_state: v.primaryState,
    bio: v.bio,
    service_subcategories: v.serviceSubcategories,
    service_areas: v.serviceAreas,
    specialties: v.specialties,
    starting_price: v.startingPrice,
    price_unit: v.priceUnit,
    years_in_business: v.yearsInBusiness,
    weddings_completed: v.weddingsCompleted,
    featured: v.featured,
    featured_image_url: v.featuredImageUrl,
    logo_url: null,
    is_affiliate_only: v.isAffiliateOnly,
    affiliate_link: v.isAffiliateOnly ? v.affiliateLink : null,
    url: `${baseUrl}/vendors/${v.slug}`,
  };
}

const SOURCE_PATH: Record<string, string> = { property: 'venues', vendor: 'vendors' };

/** An inspiration photo as the REST list item, from a row with INSPIRATION_COLUMNS. */
function photoListItem(r: Record<string, unknown>, baseUrl: string) {
  return {
    id: r.id,
    image_url: r.image_url,
    alt: r.alt,
    source: {
      type: r.sourceType,
      name: r.sourceName,
      slug: r.sourceSlug,
      url: `${baseUrl}/${SOURCE_PATH[r.sourceType as string] ?? 'venues'}/${r.sourceSlug}`,
      city: r.sourceCity,
      state: r.sourceState,
    },
    styles: r.styles,
    settings: r.settings,
    colors: r.colors,
    moods: r.moods,
    season: r.season,
  };
}

/** A blog post as the REST list item, from a row with POST_COLUMNS. */
function postListItem(r: Record<string, unknown>, baseUrl: string) {
  return {
    slug: r.slug,
    title: r.title,
    excerpt: r.excerpt,
    feature_image: r.featureImage,
    published_at: r.publishedAt,
    reading_time: r.readingTime,
    tags: r.tags,
    primary_author: r.authorSlug === null ? null : { name: r.authorName, slug: r.authorSlug, url: `${baseUrl}/blog/authors/${r.authorSlug}` },
    url: `${baseUrl}/blog/${r.slug}`,
  };
}

type Projection = (value: unknown) => unknown;

/**
 * Picks fields of a service result in the order a selection names them, under their snake_case names, as the REST
 * adapter's aliases do: `'a bC { d }'` → `{ a, b_c: { d } }` (lists element-wise, null stays null). Compiled once.
 */
export function projection(selection: string): Projection {
  const tokens = selection.match(/[A-Za-z_][A-Za-z0-9_]*|[{}]/g) ?? [];
  let i = 0;
  const fields = (): Array<[string, string, Projection | null]> => {
    const out: Array<[string, string, Projection | null]> = [];
    while (i < tokens.length && tokens[i] !== '}') {
      const name = tokens[i++];
      let inner: Projection | null = null;
      if (tokens[i] === '{') {
        i++;
        inner = objectOf(fields());
        i++; // '}'
      }
      out.push([name, name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), inner]);
    }
    return out;
  };
  const objectOf = (list: Array<[string, string, Projection | null]>): Projection => {
    const one = (value: unknown): unknown => {
      if (value === null || value === undefined) return null;
      if (Array.isArray(value)) return value.map(one);
      const out: Record<string, unknown> = {};
      for (const [name, key, inner] of list) {
        const v = (value as Record<string, unknown>)[name];
        out[key] = inner ? inner(v) : (v ?? null);
      }
      return out;
    };
    return one;
  };
  return objectOf(fields());
}

/** The selection of a pricing route's root field, read from the route's own document: the body's shape, not its data. */
function routeProjection(operationId: string): Projection {
  const route = pricingRoutes.find((r) => r.operationId === operationId)!;
  const operation = parse(route.document).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)!;
  const root = operation.selectionSet.selections[0] as FieldNode;
  return projection(print(root.selectionSet!).slice(1, -1));
}
const PRICING_FIELDS = routeProjection('estimatePricing');
const RANGE_FIELDS = routeProjection('getRegionalCostRange');
const BENCHMARK_FIELDS = routeProjection('getCostBenchmarks');

export interface SqlBodies {
  /** Same body as GET /api/v1/venues?limit=…, with a fresh request_id. */
  search: (query: URLSearchParams) => Promise<string>;
  /** Same body as the R4 GraphQL query. */
  graph: () => Promise<string>;
  /** Same body as GET /api/v1/venues/{slug} (R3); null when no published venue has the slug. */
  detail: (slug: string) => Promise<string | null>;
  /** Same body as GET /api/v1/vendors?limit=… (R6). */
  vendors: (query: URLSearchParams) => Promise<string>;
  /** GET /api/v1/vendors/{slug} (R8); null when no active vendor has the slug. */
  vendor: (slug: string) => Promise<string | null>;
  /** GET /api/v1/vendors/categories (R9). */
  categories: () => Promise<string>;
  /** GET /api/v1/venues/pricing?… (R10): no SQL. */
  pricing: (query: URLSearchParams) => Promise<string>;
  /** GET /api/v1/regional-cost-ranges?… (R11): no SQL. */
  range: (query: URLSearchParams) => Promise<string>;
  /** GET /api/v1/cost-benchmarks (R12). */
  benchmarks: () => Promise<string>;
  /** GET /api/v1/inspiration (R13). */
  inspiration: () => Promise<string>;
  /** GET /api/v1/inspiration/{id} (R14); null when no photo has the id. */
  photo: (id: string) => Promise<string | null>;
  /** GET /api/v1/blog/posts (R15). */
  posts: () => Promise<string>;
  /** GET /api/v1/blog/posts/{slug} (R16); null when no shown post has the slug. */
  post: (slug: string) => Promise<string | null>;
  /** GET /api/v1/blog/tags (R17). */
  tags: () => Promise<string>;
  /** GET /api/v1/knowledge/search?q=… (R18): the API's embedder, then one statement. */
  knowledge: (query: URLSearchParams) => Promise<string>;
}

/** `cursorSecret`: the API's CURSOR_SECRET when it runs with one; otherwise the one it keeps in the database. */
export async function createSqlBodies(query: Query, queryMany: QueryMany, baseUrl: string, cursorSecret?: string): Promise<SqlBodies> {
  const [secret] = cursorSecret ? [{ value: cursorSecret }] : await query(`SELECT value FROM "AppSecret" WHERE name = 'cursor'`, []);
  if (!secret) throw new Error('no cursor secret in the database (start the server once first)');
  const cursors = createCursorCodec(String(secret.value));
  const vendorScope = filterScope('vendors', { sortBy: 'newest' });
  const requestId = () => `req_${randomBytes(12).toString('base64url')}`;
  const searchScope = filterScope('venues', {});
  const params = () => [today(), STORED, CONVERTED];
  // The sections' vectors, read once (the API caches them by content hash too); the model loads before serving.
  const embedder = sharedEmbedder();
  const sections = (await query(`SELECT slug, embedding FROM "KnowledgeChunk" WHERE embedding IS NOT NULL ORDER BY slug`, [])).map((r) => ({
    slug: r.slug as string,
    vector: bytesToVector(r.embedding as Uint8Array),
  }));
  await embedder.embed(['warm up']);

  return {
    async search(request) {
      const limit = pageSize(request, 100, 20);
      const rows = (await query(SEARCH_SQL, [...params(), limit + 1])) as Row[];
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      return JSON.stringify({
        data: page.map((r) => venueListItem(r, baseUrl)),
        pagination: {
          has_more: hasMore,
          next_cursor: hasMore && page.length ? cursors.encode([page[page.length - 1].slug], searchScope) : null,
          total_count: rows[0]?.total ?? 0,
        },
        request_id: requestId(),
      });
    },
    async graph() {
      const rows = (await query(GRAPH_SQL, params())) as Array<Row & { photos: string[]; ratings: Array<number | null> }>;
      return JSON.stringify({
        data: {
          venues: {
            totalCount: rows[0]?.total ?? 0,
            nodes: rows.map((r) => {
              const p = pricingOf(r);
              return {
                slug: r.slug,
                name: r.name,
                pricing: { currency: p.currency, startingTotal: p.startingTotal && { amount: p.startingTotal.amount } },
                photos: r.photos.map((url) => ({ url })),
                testimonials: r.ratings.map((rating) => ({ rating })),
              };
            }),
          },
        },
      });
    },
    async detail(slug) {
      const [r] = (await query(DETAIL_SQL, [...params(), slug])) as Array<
        Row & { photos: unknown[]; testimonials: unknown[] } & Record<string, unknown>
      >;
      if (!r) return null;
      return JSON.stringify({
        data: {
          ...venueListItem(r, baseUrl),
          ...Object.fromEntries(DETAIL_COLUMNS.map((name) => [snakeCase(name), r[name]])),
          photos: r.photos,
          testimonials: r.testimonials,
        },
        request_id: requestId(),
      });
    },
    async vendors(request) {
      const limit = pageSize(request, 100, 20);
      const [rows, stats] = await queryMany(vendorsSql(limit + 1));
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      const last = page[page.length - 1];
      return JSON.stringify({
        data: page.map((v) => vendorListItem(v, baseUrl)),
        pagination: {
          has_more: hasMore,
          next_cursor: hasMore && last ? cursors.encode([last.createdAt, last.id], vendorScope) : null,
          total_count: stats.reduce((sum, r) => sum + (r.n as number), 0),
        },
        // The API sorts the facet by category slug (localeCompare).
        category_stats: Object.fromEntries(stats.map((r) => [r.c as string, r.n]).sort(([a], [b]) => (a as string).localeCompare(b as string))),
        request_id: requestId(),
      });
    },
    async vendor(slug) {
      const [v] = await query(VENDOR_DETAIL_SQL, [slug]);
      if (!v) return null;
      return JSON.stringify({
        data: {
          ...vendorListItem(v, baseUrl),
          photos: v.photos,
          total_photos: v.totalPhotos,
          website: v.website,
          instagram: v.instagram,
          facebook: v.facebook,
          tiktok: v.tiktok,
          pricing_structure: v.pricingStructure,
          portfolio_description: v.portfolioDescription,
          vendor_policies: v.policies,
          average_rating: v.averageRating,
          review_count: v.reviewCount,
        },
        request_id: requestId(),
      });
    },
    async categories() {
      const rows = await query(CATEGORIES_SQL, []);
      return JSON.stringify({ data: rows, request_id: requestId() });
    },
    async pricing(request) {
      const estimate = parsePricingEstimate({
        region: request.get('region'),
        eventType: request.get('event_type'),
        eventGuests: numberIn(request, 'event_guests'),
        overnightGuests: numberIn(request, 'overnight_guests'),
        nights: numberIn(request, 'nights'),
        venueType: request.get('venue_type'),
        season: request.get('season'),
      });
      return JSON.stringify({ data: PRICING_FIELDS(estimatePricing(estimate)), request_id: requestId() });
    },
    async range(request) {
      const asked = {
        slug: request.get('slug'),
        state: request.get('state'),
        city: request.get('city'),
        season: request.get('season'),
        guests: numberIn(request, 'guests'),
      };
      return JSON.stringify({ ...(RANGE_FIELDS(regionalCostRange(asked, { siteUrl: baseUrl })) as object), request_id: requestId() });
    },
    async benchmarks() {
      const rows = (await query(BENCHMARKS_SQL, [today()])) as unknown as Array<ListingRow & { fx: DayRate | null }>;
      const fx = rows[0]?.fx ?? null;
      const answer = benchmarksOf({}, listingsOf(rows, fx), fx, new Date(), baseUrl);
      return JSON.stringify({ ...(BENCHMARK_FIELDS(answer) as object), request_id: requestId() });
    },
    async inspiration() {
      const rows = await query(INSPIRATION_SQL, []);
      const hasMore = rows.length > 20;
      return JSON.stringify({
        data: rows.slice(0, 20).map((r) => photoListItem(r, baseUrl)),
        pagination: { limit: 20, offset: 0, total: rows[0]?.total ?? 0, has_more: hasMore },
        request_id: requestId(),
      });
    },
    async photo(id) {
      const [r] = await query(INSPIRATION_PHOTO_SQL, [id]);
      if (!r) return null;
      return JSON.stringify({
        data: { ...photoListItem(r, baseUrl), description: r.description, variants: { small: r.smallUrl, medium: r.mediumUrl, large: r.largeUrl } },
        request_id: requestId(),
      });
    },
    async posts() {
      const rows = await query(POSTS_SQL, [new Date().toISOString()]);
      return JSON.stringify({
        data: rows.slice(0, 20).map((r) => postListItem(r, baseUrl)),
        pagination: { limit: 20, page: 1, has_more: rows.length > 20 },
        request_id: requestId(),
      });
    },
    async post(slug) {
      const [r] = await query(POST_SQL, [new Date().toISOString(), slug]);
      if (!r) return null;
      return JSON.stringify({
        data: { ...postListItem(r, baseUrl), word_count: r.wordCount, content_plaintext: r.contentPlaintext },
        request_id: requestId(),
      });
    },
    async tags() {
      const rows = (await query(TAGS_SQL, [new Date().toISOString()])) as Array<{ slug: string; name: string | null; post_count: number }>;
      const data = rows
        .map((r) => ({ slug: r.slug, name: r.name ?? r.slug, post_count: r.post_count }))
        .sort((a, b) => b.post_count - a.post_count || a.slug.localeCompare(b.slug));
      return JSON.stringify({ data, request_id: requestId() });
    },
    async knowledge(request) {
      const question = request.get('q');
      if (!question?.trim()) throw new Error('q is required');
      const limit = pageSize(request, 10, 5);
      const [q] = await embedder.embed([question]);
      const meaning = sections
        .map((e) => ({ slug: e.slug, similarity: dot(q, e.vector) }))
        .sort((a, b) => b.similarity - a.similarity || a.slug.localeCompare(b.slug))
        .map((e) => e.slug);
      const rows = (await query(KNOWLEDGE_SQL, [question, meaning, limit + 10])) as Array<{
        title: string;
        heading: string;
        body: string;
        slug: string;
        score: number;
        as_of: string;
      }>;
      const top = rows.sort((a, b) => b.score - a.score || a.slug.localeCompare(b.slug)).slice(0, limit);
      return JSON.stringify({
        data: top.map((r) => ({
          title: r.title,
          heading: r.heading,
          body: r.body,
          kind: 'knowledge',
          slug: r.slug,
          score: Number(r.score.toFixed(6)),
        })),
        query: question,
        as_of: rows[0]?.as_of ?? '',
        note: KNOWLEDGE_NOTE,
        request_id: requestId(),
      });
    },
  };
}
