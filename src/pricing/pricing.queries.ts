import type { RowReader } from '../db/row-reader.js';

/**
 * The pricing module's data access: the listings the cost benchmarks (§4.4) are computed from. The estimate (§4.3) and
 * the regional ranges (§4.5) read authored data under ./data, not the database.
 */

/** The columns a listing is read from (one row per published venue with a weekday base). */
export interface ListingRow {
  weekdayBase: number | null;
  currency: string;
  country: string | null;
  state: string;
  stateSlug: string;
  venueType: string | null;
}

const LISTINGS_SQL = `SELECT "weekdayBase", currency, country, state, "stateSlug", "venueType" FROM "Venue" WHERE published AND "weekdayBase" IS NOT NULL`;

/** Every published venue with a weekday base, in its stored currency. */
export function readPricedListings(readRows: RowReader): Promise<ListingRow[]> {
  // Through the driver: this reads every priced published venue, and Prisma's client cost CPU on every row
  // (docs/performance.md, Levers).
  return readRows<ListingRow>(LISTINGS_SQL, []);
}
