import { Prisma, type Testimonial, type Venue, type VenuePhoto } from '../generated/prisma/client.js';
import { modelColumn } from '../db/row-reader.js';

/**
 * Venue rows are read through the driver, not Prisma's client: a Prisma read cost ~200 µs more CPU per request than
 * the same statement (docs/performance.md, stops 28 and 29). GraphQL still plans each read with plugin-prisma: the
 * plan's `select` names the columns and relations a query asks for, this module reads exactly those, and the fields
 * answer from the row with the plan its query recorded (no relation falls back to another load).
 * test/catalogue/detail-rows.test.ts and test/venues/venue-rows.test.ts hold the rows equal to Prisma's.
 */

/**
 * Columns no Venue field selects today: search filters, fees folded into the stored starts-at total, bookkeeping. A
 * detail row has them only when its plan names one; leaving them out saves parsing two timestamps and six other values.
 */
const UNSHOWN = ['published', 'citySlug', 'stateSlug', 'cleaningFee', 'serviceFeePercent', 'taxPercent', 'createdAt', 'updatedAt'] as const;
type UnshownColumn = (typeof UNSHOWN)[number];

/** A venue with its first 5 photos in gallery order and its testimonials newest event first (the §4.2 detail). */
export type VenueDetailRow = Omit<Venue, UnshownColumn> & Partial<Pick<Venue, UnshownColumn>> & { photos: VenuePhoto[]; testimonials: Testimonial[] };

/** What a GraphQL plan selects of a venue: a column by its Prisma name, or a relation with its query (ignored here). */
export type VenueSelection = Record<string, unknown>;

const UTC_COLUMNS = ['createdAt', 'updatedAt'];
const COLUMNS = new Map<string, string>(
  Object.values(Prisma.VenueScalarFieldEnum).map((column) => [column, modelColumn(column, 'v', UTC_COLUMNS.includes(column))]),
);

/**
 * The relations GraphQL shows, each as JSON in the venue's row, in the order and number its field's query asks Prisma
 * for (Venue.photos and Venue.testimonials in venues.graphql.ts); every column of each related row.
 */
const RELATIONS = new Map([
  [
    'photos',
    `(SELECT COALESCE(json_agg(p ORDER BY p.position, p.id), '[]'::json)
       FROM (SELECT * FROM "VenuePhoto" WHERE "venueId" = v.id ORDER BY position, id LIMIT 5) p) AS photos`,
  ],
  [
    'testimonials',
    `(SELECT COALESCE(json_agg(t ORDER BY t."eventDate" DESC NULLS LAST, t.id), '[]'::json)
       FROM "Testimonial" t WHERE t."venueId" = v.id) AS testimonials`,
  ],
]);

/** Every column and relation, written once. */
const EVERY_COLUMN = [...COLUMNS.values(), ...RELATIONS.values()].join(', ');

const UNSHOWN_COLUMNS = new Set<string>(UNSHOWN);
const SHOWN_COLUMNS = [...[...COLUMNS].filter(([name]) => !UNSHOWN_COLUMNS.has(name)).map(([, sql]) => sql), ...RELATIONS.values()].join(', ');

const detailStatement = (columns: string) => `SELECT ${columns} FROM "Venue" v WHERE v.slug = $1 AND v.published`;
const DETAIL_STATEMENTS = { shown: detailStatement(SHOWN_COLUMNS), every: detailStatement(EVERY_COLUMN) };

/**
 * The statement reading one published venue by slug ($1) for a plan's select list: one of two fixed texts, so it stays
 * a named statement planned once. The columns fields show, unless the plan names one of the others (a field added
 * later) or there is no plan: then every column.
 */
export function venueDetailStatement(selection: VenueSelection | undefined): string {
  if (!selection) return DETAIL_STATEMENTS.every;
  for (const name in selection) if (selection[name] && UNSHOWN_COLUMNS.has(name)) return DETAIL_STATEMENTS.every;
  return DETAIL_STATEMENTS.shown;
}

/**
 * The select list (over `"Venue" v`) of what `selection` names; every column and relation without one. Only names of
 * the model are written into SQL: anything else is a planning error, not input.
 */
export function venueColumns(selection?: VenueSelection): string {
  if (!selection) return EVERY_COLUMN;
  const list: string[] = [];
  for (const [name, selected] of Object.entries(selection)) {
    if (!selected) continue;
    const sql = COLUMNS.get(name) ?? RELATIONS.get(name);
    if (sql === undefined) throw new Error(`A venue read cannot select '${name}'`);
    list.push(sql);
  }
  return list.join(', ');
}

/** A testimonial as JSON carries it: its event day as YYYY-MM-DD. */
type JsonTestimonial = Omit<Testimonial, 'eventDate'> & { eventDate: string | null };

/** A row as Prisma would give it: JSON has no date, and Prisma gives a testimonial's event day as its UTC midnight. */
export function venueRow<T>(row: T): T {
  const { testimonials } = row as { testimonials?: JsonTestimonial[] };
  if (!testimonials) return row;
  return { ...row, testimonials: testimonials.map((t) => ({ ...t, eventDate: t.eventDate === null ? null : new Date(t.eventDate) })) };
}
