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

/** R1's page: 21 rows (one more tells has_more), the total and the day's rate in the same statement. */
const SEARCH_SQL = /* SQL */ `
  WITH page AS (
    SELECT slug, name, city, state, country, "propertyType", "venueType", latitude, longitude, "capacityMin", "capacityMax",
      bedrooms, beds, bathrooms, "gatheringSpaces", "heroImage", "seoDescription", amenities, ${PRICE_COLUMNS}
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

type Row = Record<string, unknown> & VenuePriceColumns & { slug: string; total: number; rate: DayRate | null };

const today = () => new Date().toISOString().slice(0, 10);
const pricingOf = (row: Row) => venuePricing(row, row.currency === CONVERTED ? row.rate : null);

export interface SqlBodies {
  /** Same body as GET /api/v1/venues?limit=20, with a fresh request_id. */
  search: () => Promise<string>;
  /** Same body as the R4 GraphQL query. */
  graph: () => Promise<string>;
}

export async function createSqlBodies(query: Query, baseUrl: string): Promise<SqlBodies> {
  const [secret] = await query(`SELECT value FROM "AppSecret" WHERE name = 'cursor'`, []);
  if (!secret) throw new Error('no cursor secret in the database (start the server once first)');
  const cursors = createCursorCodec(String(secret.value));
  const searchScope = filterScope('venues', {});
  const params = () => [today(), STORED, CONVERTED];

  return {
    async search() {
      const rows = (await query(SEARCH_SQL, params())) as Row[];
      const page = rows.slice(0, 20);
      const hasMore = rows.length > 20;
      return JSON.stringify({
        data: page.map((r) => {
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
        }),
        pagination: {
          has_more: hasMore,
          next_cursor: hasMore && page.length ? cursors.encode([page[page.length - 1].slug], searchScope) : null,
          total_count: rows[0]?.total ?? 0,
        },
        request_id: `req_${randomBytes(12).toString('base64url')}`,
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
  };
}
