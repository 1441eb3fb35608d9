import { Prisma, type Testimonial, type Venue, type VenuePhoto } from '../generated/prisma/client.js';
import { modelColumn } from '../db/row-reader.js';
import { orderBySql, relatedRowsSql, type PlannedRead, type RelatedModel, type RelationShape } from '../db/relation-shape.js';
import { VENUE_PHOTOS, VENUE_TESTIMONIALS } from './venue-relations.js';

/**
 * Venue rows are read through the driver, not Prisma's client: a Prisma read cost clearly more CPU per request than
 * the same statement (docs/performance.md, Levers). GraphQL still plans each read with plugin-prisma: the
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

/** What a GraphQL plan selects of a venue: a column by its Prisma name, or a relation with its query (its shape). */
export type VenueSelection = Record<string, unknown>;

const UTC_COLUMNS = ['createdAt', 'updatedAt'];
const COLUMNS = new Map<string, string>(
  Object.values(Prisma.VenueScalarFieldEnum).map((column) => [column, modelColumn(column, 'v', UTC_COLUMNS.includes(column))]),
);

/** A related row's columns as JSON object members (`'name', alias."name"`), each name checked against its model. */
function jsonMembers(alias: string, names: Iterable<string>, model: RelatedModel): string {
  const members: string[] = [];
  for (const name of names) {
    if (!model.columns.has(name)) throw new Error(`A venue read cannot select '${name}' of ${model.name}`);
    members.push(`'${name}', ${modelColumn(name, alias)}`);
  }
  return members.join(', ');
}

const PHOTO: RelatedModel = { name: 'VenuePhoto', columns: new Set<string>(Object.values(Prisma.VenuePhotoScalarFieldEnum)) };
const TESTIMONIAL: RelatedModel = { name: 'Testimonial', columns: new Set<string>(Object.values(Prisma.TestimonialScalarFieldEnum)) };

/** What a relation's plan selects of each related row: its `select` in select mode; every column without one. */
const selectedOf = (plan: unknown): string[] | null => {
  const select = (plan as { select?: Record<string, unknown> } | null)?.select;
  return select ? Object.keys(select).filter((name) => select[name]) : null;
};

/**
 * A relation GraphQL shows, as JSON in the venue's row, in its declared order and number (venue-relations.ts, also
 * the field's query). The shape is written into SQL here, once, as the module loads. A plan that selects columns of
 * the related rows gets those alone: whole rows made a 20-venue page with photos and testimonials decode and parse
 * about four times the JSON its query asks for (docs/performance.md, Levers). Without a select (include mode, or no
 * plan), every column.
 */
function relation(name: string, shape: RelationShape, model: RelatedModel, alias: string) {
  const order = orderBySql(shape, model, alias);
  const rows = relatedRowsSql(shape, model, alias, { foreignKey: 'venueId', parent: 'v.id' });
  const sql = (plan: unknown) => {
    const columns = selectedOf(plan);
    const item = columns ? `json_build_object(${jsonMembers(alias, columns, model)})` : alias;
    return `(SELECT COALESCE(json_agg(${item} ORDER BY ${order}), '[]'::json)
       FROM ${rows}) AS ${name}`;
  };
  return [name, { shape, model, sql }] as const;
}

const RELATIONS = new Map([relation('photos', VENUE_PHOTOS, PHOTO, 'p'), relation('testimonials', VENUE_TESTIMONIALS, TESTIMONIAL, 't')]);

/** What a venue read serves of a plan; every Venue field is checked against it when the schema is built. */
export const VENUE_READ: PlannedRead = { name: 'venue read', columns: COLUMNS, relations: RELATIONS };

const EVERY_RELATION = [...RELATIONS.values()].map(({ sql }) => sql(null));

/** Every column and relation, written once. */
const EVERY_COLUMN = [...COLUMNS.values(), ...EVERY_RELATION].join(', ');

const UNSHOWN_COLUMNS = new Set<string>(UNSHOWN);
const SHOWN_COLUMNS = [...[...COLUMNS].filter(([name]) => !UNSHOWN_COLUMNS.has(name)).map(([, sql]) => sql), ...EVERY_RELATION].join(', ');

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
 * the model are written into SQL: anything else is a planning error, not input. The schema's build checks each Venue
 * field against VENUE_READ, so no plan of the built schema throws here.
 */
export function venueColumns(selection?: VenueSelection): string {
  if (!selection) return EVERY_COLUMN;
  const list: string[] = [];
  for (const [name, selected] of Object.entries(selection)) {
    if (!selected) continue;
    const sql = COLUMNS.get(name) ?? RELATIONS.get(name)?.sql(selected);
    if (sql === undefined) throw new Error(`A venue read cannot select '${name}'`);
    list.push(sql);
  }
  return list.join(', ');
}

/** A testimonial as JSON carries it (its event day as YYYY-MM-DD), with the columns its plan selected. */
type JsonTestimonial = { eventDate?: string | Date | null };

/**
 * A row as Prisma would give it: JSON has no date, and Prisma gives a testimonial's event day as its UTC midnight. The
 * row was just parsed from the statement's answer and is this read's alone, so its testimonials are converted in place
 * (copying each made 60 objects a page); a plan that does not select the day leaves them as they are.
 */
export function venueRow<T>(row: T): T {
  const { testimonials } = row as { testimonials?: JsonTestimonial[] };
  if (testimonials) for (const t of testimonials) if (typeof t.eventDate === 'string') t.eventDate = new Date(t.eventDate);
  return row;
}
