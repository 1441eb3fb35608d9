import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationTargetOf, type Database } from '../../src/db/client.js';
import { applyMigrations } from '../../src/db/migrate.js';
import { createUnmigratedTestDatabase, testDatabaseKind } from '../support/database.js';

// The search indexes of docs/performance.md "Scale" (migrations 20261124235442_search_indexes and
// 20261125063056_search_lookup_tables, 20261125094904_price_band_count_indexes, 20261125095045_listed_amenity_prices,
// 20261128224454_amenities_in_state_and_type_indexes, 20261128230948_covering_slug_index): one set of migrations for both backends, so the embedded database (PGlite,
// which must load pg_trgm itself: src/db/pglite.ts) has to apply them too.
const SEARCH_INDEXES: Record<string, string> = {
  Venue_published_startingTotal_currency_capacityMax_bedrooms_idx: '(published, "startingTotal", currency, "capacityMax", bedrooms, slug)',
  Venue_stateSlug_published_startingTotal_currency_capacityMa_idx:
    '("stateSlug", published, "startingTotal", currency, "capacityMax", bedrooms, slug, amenities)',
  Venue_propertyType_published_startingTotal_currency_capacit_idx:
    '("propertyType", published, "startingTotal", currency, "capacityMax", bedrooms, "stateSlug", slug, amenities)',
  Venue_published_slug_propertyType_capacityMax_bedrooms_star_idx:
    '(published, slug, "propertyType", "capacityMax", bedrooms, "startingTotal", currency, amenities)',
  Venue_published_capacityMax_idx: '(published, "capacityMax")',
  Venue_published_bedrooms_idx: '(published, bedrooms)',
  Venue_published_startingTotal_idx: '(published, "startingTotal")',
  Venue_published_currency_startingTotal_idx: '(published, currency, "startingTotal")',
  ListedVenueAmenity_pkey: '(amenity, slug)',
  ListedVenueAmenity_amenity_startingTotal_idx: '(amenity, "startingTotal")',
  ListedVenueAmenity_amenity_currency_startingTotal_idx: '(amenity, currency, "startingTotal")',
  VenuePropertyType_pkey: '(name)',
  Vendor_businessName_trgm_idx: 'USING gin ("businessName" gin_trgm_ops)',
  Vendor_tagline_trgm_idx: 'USING gin (tagline gin_trgm_ops)',
  Vendor_bio_trgm_idx: 'USING gin (bio gin_trgm_ops)',
  Vendor_primaryCity_trgm_idx: 'USING gin ("primaryCity" gin_trgm_ops)',
  Vendor_primaryState_trgm_idx: 'USING gin ("primaryState" gin_trgm_ops)',
  Vendor_specialties_idx: 'USING gin (specialties)',
  Vendor_serviceAreas_idx: 'USING gin ("serviceAreas")',
  Vendor_active_featured_serviceCategory_idx: '(active, featured, "serviceCategory")',
  Vendor_active_startingPrice_serviceCategory_idx: '(active, "startingPrice", "serviceCategory")',
  Vendor_active_startingPrice_desc_id_idx: '(active, "startingPrice" DESC NULLS LAST, id)',
  Vendor_active_yearsInBusiness_desc_id_idx: '(active, "yearsInBusiness" DESC NULLS LAST, id)',
  Vendor_active_weddingsCompleted_desc_id_idx: '(active, "weddingsCompleted" DESC NULLS LAST, id)',
};

describe(`search indexes (${testDatabaseKind()})`, () => {
  let db: Database;
  beforeAll(async () => {
    db = await createUnmigratedTestDatabase();
    await applyMigrations(migrationTargetOf(db));
  });
  afterAll(async () => {
    await db?.close();
  });

  it('creates pg_trgm and every search index', async () => {
    const extensions = await db.prisma.$queryRawUnsafe<{ extname: string }[]>(`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`);
    expect(extensions).toEqual([{ extname: 'pg_trgm' }]);
    const rows = await db.prisma.$queryRawUnsafe<{ indexname: string; indexdef: string }[]>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND indexname = ANY($1)`,
      Object.keys(SEARCH_INDEXES),
    );
    const defs = Object.fromEntries(rows.map((r) => [r.indexname, r.indexdef]));
    for (const [name, columns] of Object.entries(SEARCH_INDEXES)) expect(defs[name], name).toContain(columns);
  });

  it('answers the substring and amenity filters from indexes, as Prisma words them', async () => {
    // Empty tables: forbid the sequential scan so the plan shows whether the index can serve the query at all.
    const plans = await db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      const plan = async (sql: string, ...params: unknown[]) =>
        (await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${sql}`, ...params)).map((r) => r['QUERY PLAN']).join('\n');
      const bio = await plan(`SELECT count(*) FROM "Vendor" WHERE bio ILIKE ('%' || $1::text || '%')`, 'garden');
      // The counts below must come from the index alone (a GIN trigram index can only be read as a bitmap, bio above).
      await tx.$executeRawUnsafe('SET LOCAL enable_bitmapscan = off');
      return {
        bio,
        // venue_type: the substring is matched against the distinct property types (VenuePropertyType, ~120 rows); the
        // venues of each matching name are then counted from an index alone.
        venueType: await plan(`SELECT count(*) FROM "Venue" WHERE "propertyType" = $1 AND published`, 'Historic Villa'),
        amenity: await plan(`SELECT count(*) FROM "ListedVenueAmenity" WHERE amenity = $1`, 'pool'),
        // A price band's count (venues.queries.ts priceBandCount): each term one range of a narrow index.
        band: await plan(`SELECT count(*) FROM "Venue" WHERE published AND "startingTotal" >= $1 AND "startingTotal" <= $2`, 3000, 9000),
        bandConverted: await plan(
          `SELECT count(*) FROM "Venue" WHERE published AND currency = $1 AND "startingTotal" >= $2 AND "startingTotal" <= $3`,
          'AUD',
          3000,
          9000,
        ),
        amenityBand: await plan(
          `SELECT count(*) FROM "ListedVenueAmenity" WHERE amenity = $1 AND "startingTotal" >= $2 AND "startingTotal" <= $3`,
          'pool',
          3000,
          9000,
        ),
        amenityBandConverted: await plan(
          `SELECT count(*) FROM "ListedVenueAmenity" WHERE amenity = $1 AND currency = $2 AND "startingTotal" >= $3 AND "startingTotal" <= $4`,
          'pool',
          'AUD',
          3000,
          9000,
        ),
      };
    });
    expect(plans.venueType).toContain('Index Only Scan using "Venue_propertyType_published_startingTotal_currency_capacit_idx"');
    // The key or an index of the amenity's prices, as the planner costs them: each counts one amenity from an index alone.
    expect(plans.amenity).toMatch(/Index Only Scan using "ListedVenueAmenity_(pkey|amenity_\w+_idx)"/);
    expect(plans.band).toContain('Index Only Scan using "Venue_published_startingTotal_idx"');
    // This database is empty: PostgreSQL may cost the older (currency, startingTotal) as cheap here; on the 100,000-venue
    // catalogue it reads (published, currency, startingTotal) alone (docs/performance.md, Scale).
    expect(plans.bandConverted).toMatch(/Index (Only )?Scan using "Venue_(published_)?currency_startingTotal_idx"/);
    expect(plans.amenityBand).toContain('Index Only Scan using "ListedVenueAmenity_amenity_startingTotal_idx"');
    expect(plans.amenityBandConverted).toContain('Index Only Scan using "ListedVenueAmenity_amenity_currency_startingTotal_idx"');
    expect(plans.bio).toContain('Vendor_bio_trgm_idx');
  });

  it('counts amenities beside a state or a venue type, and finds a filtered page, from indexes alone', async () => {
    // On empty tables the planner would rather take the narrower (stateSlug, slug) or sort a few entries of another
    // index, reading each row; PostgreSQL 18 (PGlite's) no longer leaves index-only scans on under enable_indexscan =
    // off. So those paths are closed in a transaction that is rolled back.
    class RolledBack extends Error {
      constructor(readonly plans: string[]) {
        super('rolled back');
      }
    }
    const plans = await db.prisma
      .$transaction(async (tx) => {
        for (const sql of ['SET LOCAL enable_seqscan = off', 'SET LOCAL enable_bitmapscan = off', 'DROP INDEX "Venue_stateSlug_slug_idx"'])
          await tx.$executeRawUnsafe(sql);
        const plan = async (sql: string, ...params: unknown[]) =>
          (await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${sql}`, ...params)).map((r) => r['QUERY PLAN']).join('\n');
        // The amenities are the last column of the state and venue type indexes: the count tests them in the entries.
        const state = await plan(
          `SELECT count(*) FROM "Venue" v WHERE v.published AND v."stateSlug" = $1 AND v.bedrooms >= $2 AND v.amenities @> $3::text[]`,
          'california',
          6,
          ['pool'],
        );
        const venueType = await plan(
          `SELECT count(*) FROM "Venue" v WHERE v.published AND v."propertyType" = $1 AND v."capacityMax" >= $2 AND v.amenities @> $3::text[]`,
          'Historic Villa',
          20,
          ['pool', 'hot-tub'],
        );
        // A filtered page's slugs (venues.queries.ts generalSearch), in slug order from the covering index's entries.
        await tx.$executeRawUnsafe('SET LOCAL enable_sort = off');
        const pageSlugs = await plan(
          `SELECT v.slug FROM "Venue" v WHERE v.published AND v."propertyType" IN (SELECT name FROM "VenuePropertyType" WHERE name ILIKE $1)
             AND v."capacityMax" >= $2 AND v.bedrooms >= $3 AND v."startingTotal" <= $4 AND v.amenities @> $5::text[] ORDER BY v.slug LIMIT 21`,
          '%castle%',
          20,
          4,
          9000,
          ['pool'],
        );
        throw new RolledBack([state, venueType, pageSlugs]);
      })
      .catch((e: unknown) => (e instanceof RolledBack ? e.plans : Promise.reject(e)));
    const [state, venueType, pageSlugs] = plans;
    expect(state).toMatch(
      /Index Only Scan using "Venue_stateSlug_published_startingTotal_currency_capacityMa_idx"[^\n]*\n(.*\n)*.*Filter: \(amenities @>/,
    );
    expect(venueType).toMatch(
      /Index Only Scan using "Venue_propertyType_published_startingTotal_currency_capacit_idx"[^\n]*\n(.*\n)*.*Filter: \(amenities @>/,
    );
    expect(pageSlugs).toContain('Index Only Scan using "Venue_published_slug_propertyType_capacityMax_bedrooms_star_idx"');
    expect(plans.join('\n')).not.toMatch(/Disabled|Heap|Seq Scan|Sort/);
    // The rollback left the dropped index in place.
    const [{ n }] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'Venue_stateSlug_slug_idx'`,
    );
    expect(n).toBe(1);
  });
});
