import { randomBytes } from 'node:crypto';
import { priceRangeText, venuePricing, STORED_AS, type DayRate, type VenuePriceColumns } from '../src/venues/venue-pricing.js';
import { createCursorCodec, filterScope } from '../src/pagination/cursor.js';

/**
 * Baseline B1: the best a hand-written query can do for the same bodies the API returns, one SQL statement per
 * request through the same driver (PGlite or pg). The pure pricing helpers and the cursor codec are the app's own,
 * so the bodies are byte-identical apart from request_id (the bench checks this before loading).
 */
export type Query = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

// Only one converted currency exists (AUD stored as USD); a second one would show up as a body mismatch.
const [CONVERTED, { stored: STORED }] = Object.entries(STORED_AS)[0];

const RATE = /* SQL */ `(SELECT json_build_object('rate', rate, 'rateDate', to_char("rateDate", 'YYYY-MM-DD')) FROM "ExchangeRate"
    WHERE base = $2 AND quote = $3 AND "rateDate" <= $1::date ORDER BY "rateDate" DESC LIMIT 1)`;

const PRICE_COLUMNS = `currency, "minNights", "weekdayBase", "weekendBase", "extraNight", "startingTotal"`;

const LIST_COLUMNS = `slug, name, city, state, country, "propertyType", "venueType", latitude, longitude, "capacityMin", "capacityMax",
      bedrooms, beds, bathrooms, "gatheringSpaces", "heroImage", "seoDescription", amenities, ${PRICE_COLUMNS}`;

/** R1's page: 21 rows (one more tells has_more), the total and the day's rate in the same statement. */
const SEARCH_SQL = /* SQL */ `
  WITH page AS (
    SELECT ${LIST_COLUMNS}
    FROM "Venue" WHERE published ORDER BY slug LIMIT 21)
  SELECT page.*, (SELECT count(*)::int FROM "Venue" WHERE published) AS total, ${RATE} AS rate
  FROM page ORDER BY slug`;

/** R4's data: 20 venues with their first 5 photos and every testimonial as JSON subqueries, total and rate. */
const GRAPH_SQL = /* SQL */ `
  WITH page AS (SELECT id, slug, name, ${PRICE_COLUMNS} FROM "Venue" WHERE published ORDER BY slug LIMIT 20)
  SELECT page.*,
    (SELECT coalesce(json_agg(p.url ORDER BY p.position, p.id), '[]'::json)
       FROM (SELECT url, position, id FROM "VenuePhoto" WHERE "venueId" = page.id ORDER BY position, id LIMIT 5) p) AS photos,
    (SELECT coalesce(json_agg(t.rating ORDER BY t."eventDate" DESC NULLS LAST, t.id), '[]'::json)
       FROM "Testimonial" t WHERE t."venueId" = page.id) AS ratings,
    (SELECT count(*)::int FROM "Venue" WHERE published) AS total, ${RATE} AS rate
  FROM page ORDER BY slug`;

/** R3's venue: the list columns, the detail columns, 5 photos and every testimonial as JSON, and the day's rate. */
const DETAIL_SQL = /* SQL */ `
  SELECT ${LIST_COLUMNS}, description, accommodates, categories, "totalPhotos",
    (SELECT coalesce(json_agg(json_build_object('url', p.url, 'category', p.category, 'is_featured', p."isFeatured", 'position', p.position)
        ORDER BY p.position, p.id), '[]'::json)
       FROM (SELECT url, category, "isFeatured", position, id FROM "VenuePhoto" WHERE "venueId" = v.id ORDER BY position, id LIMIT 5) p) AS photos,
    (SELECT coalesce(json_agg(json_build_object('guest_name', t."guestName", 'rating', t.rating, 'review', t.review,
        'event_date', to_char(t."eventDate", 'YYYY-MM-DD')) ORDER BY t."eventDate" DESC NULLS LAST, t.id), '[]'::json)
       FROM "Testimonial" t WHERE t."venueId" = v.id) AS testimonials,
    ${RATE} AS rate
  FROM "Venue" v WHERE slug = $4 AND published`;

/** R6's page: 21 active vendors newest first, the total and the category counts in the same statement. */
const VENDORS_SQL = /* SQL */ `
  WITH page AS (
    SELECT id, slug, "businessName", "serviceCategory", tagline, "primaryCity", "primaryState", bio, "serviceSubcategories",
      "serviceAreas", specialties, "startingPrice", "priceUnit", "yearsInBusiness", "weddingsCompleted", featured, "featuredImageUrl",
      "isAffiliateOnly", "affiliateLink", to_char("createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
    FROM "Vendor" WHERE active ORDER BY "createdAt" DESC, id LIMIT 21)
  SELECT page.*, (SELECT count(*)::int FROM "Vendor" WHERE active) AS total,
    (SELECT json_object_agg(c, n) FROM (SELECT "serviceCategory" AS c, count(*)::int AS n FROM "Vendor" WHERE active GROUP BY 1) s) AS stats
  FROM page ORDER BY "createdAt" DESC, id`;

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

export interface SqlBodies {
  /** Same body as GET /api/v1/venues?limit=20, with a fresh request_id. */
  search: () => Promise<string>;
  /** Same body as the R4 GraphQL query. */
  graph: () => Promise<string>;
  /** Same body as GET /api/v1/venues/{slug} (R3); null when no published venue has the slug. */
  detail: (slug: string) => Promise<string | null>;
  /** Same body as GET /api/v1/vendors?limit=20 (R6). */
  vendors: () => Promise<string>;
}

/** `cursorSecret`: the API's CURSOR_SECRET when it runs with one; otherwise the one it keeps in the database. */
export async function createSqlBodies(query: Query, baseUrl: string, cursorSecret?: string): Promise<SqlBodies> {
  const [secret] = cursorSecret ? [{ value: cursorSecret }] : await query(`SELECT value FROM "AppSecret" WHERE name = 'cursor'`, []);
  if (!secret) throw new Error('no cursor secret in the database (start the server once first)');
  const cursors = createCursorCodec(String(secret.value));
  const vendorScope = filterScope('vendors', { sortBy: 'newest' });
  const requestId = () => `req_${randomBytes(12).toString('base64url')}`;
  const searchScope = filterScope('venues', {});
  const params = () => [today(), STORED, CONVERTED];

  return {
    async search() {
      const rows = (await query(SEARCH_SQL, params())) as Row[];
      const page = rows.slice(0, 20);
      const hasMore = rows.length > 20;
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
        Row & { photos: unknown[]; testimonials: unknown[]; description: unknown; accommodates: unknown; categories: unknown; totalPhotos: number }
      >;
      if (!r) return null;
      return JSON.stringify({
        data: {
          ...venueListItem(r, baseUrl),
          description: r.description,
          accommodates: r.accommodates,
          categories: r.categories,
          photos: r.photos,
          total_photos: r.totalPhotos,
          testimonials: r.testimonials,
        },
        request_id: requestId(),
      });
    },
    async vendors() {
      const rows = await query(VENDORS_SQL, []);
      const page = rows.slice(0, 20);
      const hasMore = rows.length > 20;
      const last = page[page.length - 1];
      const stats = (rows[0]?.stats ?? {}) as Record<string, number>;
      return JSON.stringify({
        data: page.map((v) => ({
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
        })),
        pagination: {
          has_more: hasMore,
          next_cursor: hasMore && last ? cursors.encode([last.createdAt, last.id], vendorScope) : null,
          total_count: rows[0]?.total ?? 0,
        },
        // The API sorts the facet by category slug (localeCompare).
        category_stats: Object.fromEntries(Object.entries(stats).sort(([a], [b]) => a.localeCompare(b))),
        request_id: requestId(),
      });
    },
  };
}
