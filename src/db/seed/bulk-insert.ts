// Bulk inserts for the seed. Prisma's createMany measured about 6,500 rows/s on both PGlite and PostgreSQL
// 15 (the time goes into building and binding tens of thousands of parameters, not into the database). Sending
// each batch as ONE jsonb parameter and expanding it with jsonb_populate_recordset runs 10-15x faster on both
// backends, which is what keeps the first-start seed well under the startup budget. The rows are still typed
// by the generated Prisma input types, so the generators are checked against the schema; only the statement is
// raw, and it names the columns from the row keys (every generated row carries every column).
import type { Prisma } from '../../generated/prisma/client.js';

export type CatalogueTable = 'Venue' | 'VenuePhoto' | 'Testimonial' | 'Vendor' | 'VendorPhoto';

/** Rows per statement: a few MB of JSON at most. */
const BATCH_ROWS = 5_000;

/**
 * Inserts rows whose keys are the table's column names. Dates serialise to ISO-8601 UTC, which PostgreSQL
 * reads into `timestamp(3)` (zone dropped, as Prisma stores UTC) and `date`; arrays become text[]; objects jsonb.
 */
export async function insertRows(db: Prisma.TransactionClient, table: CatalogueTable, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0])
    .map((c) => `"${c}"`)
    .join(', ');
  const sql = `INSERT INTO "${table}" (${columns}) SELECT ${columns} FROM jsonb_populate_recordset(NULL::"${table}", $1::jsonb)`;
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    await db.$executeRawUnsafe(sql, JSON.stringify(rows.slice(i, i + BATCH_ROWS)));
  }
}
