import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../graphql/builder.js';
import { graphqlOnly, REST_DESCRIPTION } from '../graphql/graphql-only.js';
import { connectionOf, selectsConnectionField, toConnection } from '../graphql/connection.js';
import type { RequestContext } from '../graphql/context.js';
import type { Venue as VenueRow } from '../generated/prisma/client.js';
import { getVenue, searchVenues, visibleVenuesById, type VenueDeps, type VenueSearchPage } from './venues.service.js';
import { asNode, uuidKey } from '../graphql/node.js';
import { priceRangeText, venuePricing, STORED_AS, VENUE_CURRENCIES, type StartingTotal, type VenuePricing as Pricing } from './venue-pricing.js';
import { NAMED_AMENITIES, NAMED_VENUE_TYPES, VENUE_FACETS, VENUE_SORTS, VenueSearchInput, VenueSlug } from './venues.inputs.js';
import type { CapacityBandCount, FacetCount, PriceBandCount, StateFacetCount, VenueFacets as Facets } from './venue-facets.js';
import { parsedBy } from '../graphql/input-schema.js';
import { z } from 'zod';
import { withVenueDetailLimit } from '../limits/limits.graphql.js';
import { detailOnly, noteDetailRows } from '../limits/venue-details.js';
import { closedSet, closedSetOf } from '../graphql/closed-set.js';
import { fromPlannedRow, ownProperty } from '../graphql/own-property.js';
import { readBy } from '../graphql/planned-reads.js';
import { VENUE_READ } from './venue-rows.js';
import { VENUE_PHOTOS, VENUE_TESTIMONIALS } from './venue-relations.js';
import { taggedColumns } from '../graphql/model-columns.js';

const venueDeps = (ctx: RequestContext): VenueDeps => ({
  readRows: ctx.readRows,
  cursors: ctx.cursors,
  dayRate: (pair) => ctx.loaders.exchangeRate.load(pair),
  generation: ctx.generation,
});

const StartingRate = closedSetOf<StartingTotal['rate']>(
  'VenueStartingRate',
  { weekday: true, weekend: true },
  'The nightly rate a starts-at total is figured at.',
);

const StartingTotalRef = builder.objectRef<StartingTotal>('VenueStartingTotal').implement({
  description: "The venue page's starts-at figure: minimum stay at the weekday rate, cleaning, service fee and tax included.",
  fields: (t) => ({
    amount: t.exposeFloat('amount', graphqlOnly('The starts-at total, in the venue currency (pricing.currency).')),
    nights: t.exposeInt('nights', graphqlOnly('Nights the total covers: the minimum stay.')),
    rate: t.expose('rate', { type: StartingRate.ref, description: 'weekday or weekend' }),
    includesFees: t.exposeBoolean('includesFees', graphqlOnly('True: cleaning, service fee and tax are included.')),
  }),
});

const PriceUnit = closedSet('VenuePriceUnit', ['per_stay'], 'The unit of venue prices (§2.1).');
const Currency = closedSet('VenueCurrency', VENUE_CURRENCIES, 'The currency a venue page shows its prices in (§2.1).');

const VenuePricingRef = builder.objectRef<Pricing>('VenuePricing').implement({
  description: 'Base prices for the whole minimum stay (§2.1), in the currency the venue page shows.',
  fields: (t) => ({
    priceUnit: t.expose('priceUnit', { type: PriceUnit.ref, description: PriceUnit.describe() }),
    currency: t.expose('currency', { type: Currency.ref, description: Currency.describe('EUR prices are never converted.') }),
    minNights: t.exposeInt('minNights', graphqlOnly('Minimum stay, in nights.')),
    weekdayBase: t.exposeFloat('weekdayBase', { nullable: true, ...graphqlOnly('Base price of the minimum stay on weekdays, before fees.') }),
    weekendBase: t.exposeFloat('weekendBase', { nullable: true, ...graphqlOnly('Base price of the minimum stay over a weekend, before fees.') }),
    extraNight: t.exposeFloat('extraNight', { nullable: true, ...graphqlOnly('Price of each night beyond the minimum stay.') }),
    startingTotal: t.expose('startingTotal', {
      type: StartingTotalRef,
      nullable: true,
      ...graphqlOnly('The starts-at figure with fees; null when the venue has none.'),
    }),
    rateDate: t.expose('rateDate', {
      type: 'Date',
      nullable: true,
      description: 'Exchange-rate date when an AUD amount was converted from stored USD (rounded up to the nearest 100).',
    }),
  }),
});

// Select mode, each field selecting its own column: a venue's read builds its photos' and testimonials' JSON of the
// columns a query asks for (venue-rows.ts). Whole rows made a 20-venue search with photos and testimonials parse 53 KB
// of JSON to show 12 KB. Every row of these types comes in its venue's row, read with the plan, so the fields and the
// relations above them read the row without the plugin's per-row plan lookup (fromPlannedRow).
builder.prismaObject('VenuePhoto', {
  ...graphqlOnly('A photo of a venue.'),
  select: {},
  fields: (t) => ({
    url: t.expose('url', { type: 'URL', ...fromPlannedRow({ description: 'Medium WebP, absolute URL.' }) }),
    category: t.exposeString('category', {
      nullable: true,
      ...fromPlannedRow(graphqlOnly('What the photo shows (e.g. exterior, bedroom); free text.')),
    }),
    isFeatured: t.exposeBoolean('isFeatured', fromPlannedRow(graphqlOnly('True for a photo the venue features.'))),
    position: t.exposeInt('position', { nullable: true, ...fromPlannedRow(graphqlOnly('Place in the gallery, from 0.')) }),
  }),
});

builder.prismaObject('Testimonial', {
  ...graphqlOnly("A couple's review of a venue."),
  select: {},
  fields: (t) => ({
    guestName: t.exposeString('guestName', { nullable: true, ...fromPlannedRow(graphqlOnly('Name the reviewer gave.')) }),
    rating: t.exposeFloat('rating', { nullable: true, ...fromPlannedRow(graphqlOnly('Stars out of 5, in halves.')) }),
    review: t.exposeString('review', { nullable: true, ...fromPlannedRow(graphqlOnly('The review text.')) }),
    eventDate: t.expose('eventDate', { type: 'Date', nullable: true, ...fromPlannedRow(graphqlOnly('Day of the event reviewed.')) }),
  }),
});

/** The pricing object of a venue row, converting stored amounts at the day's rate where its currency needs it. */
async function pricingOf(v: Parameters<typeof venuePricing>[0], ctx: RequestContext) {
  const conversion = STORED_AS[v.currency];
  const dayRate = conversion ? await ctx.loaders.exchangeRate.load(`${conversion.stored}:${v.currency}`) : null;
  return venuePricing(v, dayRate);
}

/**
 * Columns the pricing object is computed from. They are part of every venue row (six numbers): a field with its own
 * `select` is wrapped by plugin-prisma in a per-row lookup of the query plan (about 3 % of a 20-venue search's CPU for
 * priceRange and pricing), which costs more than reading the columns every time.
 */
const PRICE_COLUMNS = { currency: true, minNights: true, weekdayBase: true, weekendBase: true, extraNight: true, startingTotal: true } as const;

/**
 * The short columns of a list item (§2.2), part of every venue row like the price columns. plugin-prisma wraps each
 * field that has its own `select` (every `expose` in select mode) in a per-row lookup of its query plan, whose path key
 * is rebuilt for every row and field: 16 % of a 20-venue search's CPU, more than reading ~20 short columns each time.
 * These fields read the row directly; the long ones (description, categories, photos, testimonials) keep their own
 * select, so a list page still leaves them on disk.
 */
const LIST_COLUMNS = {
  name: true,
  city: true,
  state: true,
  country: true,
  propertyType: true,
  venueType: true,
  latitude: true,
  longitude: true,
  capacityMin: true,
  capacityMax: true,
  bedrooms: true,
  beds: true,
  bathrooms: true,
  gatheringSpaces: true,
  heroImage: true,
  seoDescription: true,
  amenities: true,
} as const;

/**
 * A field of the venue detail (§2.3) that the list item (§2.2) has not: a venue whose answer carries one costs a venue
 * detail lookup of the key's day, whichever field or list it comes through (src/limits/venue-details.ts).
 */
function detail<O extends { description: string; extensions?: Record<string, unknown> }>(options: O) {
  return {
    ...options,
    description: `${options.description} Detail field: each venue answered with one counts as a venue detail lookup (20 a day).`,
    extensions: { ...options.extensions, ...detailOnly, [REST_DESCRIPTION]: options.description },
  };
}

/**
 * The detail fields that show a column as stored: those whose documentation in prisma/schema.prisma begins with
 * `@detail`, under its text. A new one is its column and migration; REST's detail route selects them too.
 */
const VENUE_DETAIL_COLUMNS = taggedColumns('Venue', 'detail');

export const Venue = builder.prismaObject('Venue', {
  description: 'A whole-property wedding venue, priced per stay (§2.2 list item and §2.3 detail).',
  // Select mode: the detail's long columns and relations load only when a query selects them (descriptions stay on
  // disk for list pages); the price and list-item columns are part of every row.
  select: { id: true, slug: true, ...PRICE_COLUMNS, ...LIST_COLUMNS },
  // Rows come from venue-rows.ts, which serves plans of known columns and relation shapes: checked at schema build.
  extensions: readBy(VENUE_READ),
  fields: (t) => ({
    slug: t.string({ description: 'Full path-like slug with slashes.', resolve: ownProperty('slug') }),
    name: t.string({ ...graphqlOnly('Venue name.'), resolve: ownProperty('name') }),
    city: t.string({ ...graphqlOnly('City name.'), resolve: ownProperty('city') }),
    state: t.string({ ...graphqlOnly('State or region name.'), resolve: ownProperty('state') }),
    country: t.string({ nullable: true, ...graphqlOnly('Country name.'), resolve: ownProperty('country') }),
    propertyType: t.string({ nullable: true, ...graphqlOnly('Property type as listed (e.g. Estate, Villa).'), resolve: ownProperty('propertyType') }),
    venueType: t.string({ nullable: true, ...graphqlOnly('Venue type slug (e.g. estate, villa).'), resolve: ownProperty('venueType') }),
    latitude: t.float({ nullable: true, ...graphqlOnly('WGS 84 latitude, degrees.'), resolve: ownProperty('latitude') }),
    longitude: t.float({ nullable: true, ...graphqlOnly('WGS 84 longitude, degrees.'), resolve: ownProperty('longitude') }),
    capacityMin: t.int({ nullable: true, ...graphqlOnly('Smallest party the venue takes.'), resolve: ownProperty('capacityMin') }),
    capacityMax: t.int({ nullable: true, description: 'Sleeping capacity.', resolve: ownProperty('capacityMax') }),
    bedrooms: t.int({ nullable: true, ...graphqlOnly('Bedrooms.'), resolve: ownProperty('bedrooms') }),
    beds: t.int({ nullable: true, ...graphqlOnly('Beds.'), resolve: ownProperty('beds') }),
    bathrooms: t.float({ nullable: true, ...graphqlOnly('Bathrooms; a half bath counts 0.5.'), resolve: ownProperty('bathrooms') }),
    gatheringSpaces: t.int({ nullable: true, ...graphqlOnly('Spaces for the ceremony or reception.'), resolve: ownProperty('gatheringSpaces') }),
    priceRange: t.string({
      nullable: true,
      description: 'Base price for the whole minimum stay, before fees, in the venue currency; pricing.startingTotal is authoritative.',
      resolve: async (v, _args, ctx) => priceRangeText(await pricingOf(v, ctx)),
    }),
    pricing: t.field({
      type: VenuePricingRef,
      ...graphqlOnly('Base prices and the starts-at figure.'),
      resolve: (v, _args, ctx) => pricingOf(v, ctx),
    }),
    heroImage: t.field({ type: 'URL', nullable: true, ...graphqlOnly('Main photo, absolute URL.'), resolve: ownProperty('heroImage') }),
    seoDescription: t.string({ nullable: true, ...graphqlOnly('One-paragraph summary for search results.'), resolve: ownProperty('seoDescription') }),
    amenities: t.stringList({ ...graphqlOnly('Amenity slugs (e.g. pool, hot-tub).'), resolve: ownProperty('amenities') }),
    url: t.field({ type: 'URL', description: 'Absolute page URL.', resolve: (v, _args, ctx) => `${ctx.siteUrl}/venues/${v.slug}` }),
    distanceKm: t.float({
      nullable: true,
      description: "Kilometres from the search's point (near or near_city), great-circle, to 1 decimal; null in any other answer.",
      resolve: (v) => distanceOf(v),
    }),
    ...Object.fromEntries(
      VENUE_DETAIL_COLUMNS.map(({ name, type, list, nullable, description }) => [
        name,
        // A scalar column of Venue (taggedColumns checked it): Pothos types `expose` by literal column names alone.
        t.expose(name as 'description', { type: list ? [type] : type, nullable, ...detail({ description }) } as never),
      ]),
    ),
    photos: t.relation('photos', {
      ...detail(fromPlannedRow({ description: 'At most 5 preview photos in gallery order.' })),
      query: VENUE_PHOTOS,
    }),
    testimonials: t.relation('testimonials', {
      ...detail(fromPlannedRow(graphqlOnly('Reviews, newest event first.'))),
      query: VENUE_TESTIMONIALS,
    }),
  }),
});

// A global id for client caches; node(id:) shows only what search and detail show (published venues).
asNode(Venue, {
  key: 'id',
  parseKey: uuidKey,
  planned: true,
  load: async (ids, query, ctx) => {
    const rows = (await visibleVenuesById(ids, query.select, ctx)) as VenueRow[];
    noteDetailRows(ctx, query.select, rows.length);
    return rows;
  },
});

/** The distance a search near a point read with the venue's row (venues.queries.ts), to 1 decimal. */
function distanceOf(v: object): number | null {
  const km = (v as { distanceKm?: number | null }).distanceKm;
  return typeof km === 'number' ? Math.round(km * 10) / 10 : null;
}

const VenueConnection = connectionOf('Venue', Venue, (t) => ({
  distanceKm: t.float({
    nullable: true,
    description: "Kilometres from the search's point (near or nearCity), great-circle, to 1 decimal; null without one.",
    resolve: (edge) => distanceOf(edge.node as object),
  }),
}));

const Sort = closedSet('VenueSort', VENUE_SORTS, 'The order of a venue search.');
const FacetName = closedSet('VenueFacet', VENUE_FACETS, 'A count venue search can add to its answer (facets).');

const FacetCountRef = builder.objectRef<FacetCount>('VenueFacetCount').implement({
  description: "A value of a filter and the venues the search would find with it (the filter's other values aside).",
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The value, as the filter takes it.' }),
    count: t.exposeInt('count', { description: 'Venues.' }),
  }),
});
const StateCountRef = builder.objectRef<StateFacetCount>('VenueStateCount').implement({
  description: 'A state or region and the venues the search would find in it.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'State slug, as the state filter takes it.' }),
    name: t.exposeString('name', { description: 'State or region name.' }),
    count: t.exposeInt('count', { description: 'Venues.' }),
  }),
});
const PriceBandRef = builder.objectRef<PriceBandCount>('VenuePriceBandCount').implement({
  description: "A band of starting totals in one currency and the venues in it (price_min/price_max compare each venue's own currency).",
  fields: (t) => ({
    currency: t.exposeString('currency', { description: 'The currency the venues show their prices in.' }),
    min: t.exposeInt('min', { description: 'Lowest starting total of the band.' }),
    max: t.exposeInt('max', { nullable: true, description: 'Highest starting total of the band; null for the top band.' }),
    count: t.exposeInt('count', { description: 'Venues.' }),
  }),
});
const CapacityBandRef = builder.objectRef<CapacityBandCount>('VenueCapacityBandCount').implement({
  description: 'A band of sleeping capacity (capacity_min/capacity_max compare it) and the venues in it.',
  fields: (t) => ({
    min: t.exposeInt('min', { description: 'Fewest guests the band sleeps.' }),
    max: t.exposeInt('max', { nullable: true, description: 'Most guests the band sleeps; null for the top band.' }),
    count: t.exposeInt('count', { description: 'Venues.' }),
  }),
});
const FacetsRef = builder.objectRef<Facets>('VenueFacets').implement({
  description: 'Counts for the facets a search named: each counts its values under every other filter of the search, its own filter left out.',
  fields: (t) => ({
    venueType: t.expose('venueType', { type: [FacetCountRef], nullable: true, description: 'Venue types (venue_type); null unless asked for.' }),
    amenities: t.expose('amenities', { type: [FacetCountRef], nullable: true, description: 'Amenities; null unless asked for.' }),
    state: t.expose('state', { type: [StateCountRef], nullable: true, description: 'States and regions; null unless asked for.' }),
    priceBand: t.expose('priceBand', { type: [PriceBandRef], nullable: true, description: 'Price bands per currency; null unless asked for.' }),
    capacityBand: t.expose('capacityBand', {
      type: [CapacityBandRef],
      nullable: true,
      description: 'Sleeping-capacity bands; null unless asked for.',
    }),
  }),
});

builder.objectField(VenueConnection, 'facets', (t) =>
  t.field({
    type: FacetsRef,
    nullable: true,
    description: "The counts named by the search's facets argument; null when it names none.",
    extensions: { [REST_DESCRIPTION]: 'The counts named by `facets`, each under every other filter of the search; left out when it names none.' },
    resolve: (c) => (c.page as unknown as VenueSearchPage<unknown>).facets(),
  }),
);

builder.queryFields((t) => ({
  venues: t.field({
    type: VenueConnection,
    description: `Search published venues, in slug order unless sort names another (every order is stable across pages). Named venue types: ${NAMED_VENUE_TYPES.join(', ')}. Named amenities: ${NAMED_AMENITIES.join(', ')}.`,
    extensions: parsedBy(VenueSearchInput),
    args: {
      state: t.arg.string({ description: 'State or region slug (e.g. california, tuscany).' }),
      city: t.arg.string({ description: 'City slug (e.g. napa).' }),
      venueType: t.arg.string({ description: 'Case-insensitive substring of the property type (e.g. estate, villa).' }),
      capacityMin: t.arg.int({ description: 'Venues sleeping at least this many guests.' }),
      capacityMax: t.arg.int({ description: 'Venues sleeping at most this many guests.' }),
      priceMin: t.arg.float({ description: "Lower bound on pricing.startingTotal.amount, in each venue's own currency." }),
      priceMax: t.arg.float({ description: "Upper bound on pricing.startingTotal.amount, in each venue's own currency." }),
      bedroomsMin: t.arg.int({ description: 'Minimum bedrooms.' }),
      amenities: t.arg.stringList({ description: 'Every listed amenity must be present.' }),
      near: t.arg.floatList({ description: 'A point [latitude, longitude]: venues within radiusKm of it, each with distanceKm.' }),
      nearCity: t.arg.string({ description: 'A city of the catalogue by slug or name (any case), as the point of near.' }),
      radiusKm: t.arg.float({ description: `Kilometres around near or nearCity, 1 to 500 (default 50).` }),
      bbox: t.arg.floatList({ description: 'A box [minLng, minLat, maxLng, maxLat]; not with near or nearCity.' }),
      q: t.arg.string({
        description:
          'Words in the name, place, type, amenities or description, 2 to 100 characters; a one-letter slip in a word of 5 letters or more still matches.',
      }),
      sort: t.arg({
        type: Sort.ref,
        description: Sort.describe('recommended (slug order) unless given; distance needs a point, relevance needs q.'),
      }),
      facets: t.arg({ type: [FacetName.ref], description: FacetName.describe('Each adds its counts to facets.') }),
      first: t.arg.int({ description: 'Page size, 1 to 100.', defaultValue: 20 }),
      after: t.arg.string({ description: 'pageInfo.endCursor of the previous page.' }),
    },
    resolve: async (_root, args, ctx, info) => {
      const { select } = queryFromInfo({ context: ctx, info, typeName: 'Venue', paths: [['nodes'], ['edges', 'node']] });
      const page = await searchVenues<Pick<VenueRow, 'id' | 'slug' | keyof typeof PRICE_COLUMNS | keyof typeof LIST_COLUMNS>>(
        args,
        select,
        venueDeps(ctx),
        { countWithPage: selectsConnectionField(info, 'totalCount') },
      );
      noteDetailRows(ctx, select, page.nodes.length);
      return toConnection(page);
    },
  }),
  venue: t.prismaField({
    type: 'Venue',
    nullable: true,
    // REST answers a missing venue/vendor with 404, so its 200 `data` is never null (OpenAPI reads this).
    extensions: {
      semanticNonNull: true,
      ...parsedBy(z.object({ slug: VenueSlug })),
      // REST answers a spent budget with 429, never a null field.
      [REST_DESCRIPTION]: 'One published venue by its full slug; each read counts as a venue detail lookup.',
    },
    description:
      'One published venue by its full slug (counts as a venue detail lookup). When the daily lookups are used up the field is null with an error (code venue_detail_rate_limit_exceeded, extensions.retryAfter); the other fields keep their data and the HTTP status is 200.',
    args: { slug: t.arg.string({ required: true, ...graphqlOnly('The full slug (Venue.slug), slashes included.') }) },
    // The planned query is not run: its select picks getVenue's statement, and planning it records what the fields
    // read, so they answer from getVenue's row (which holds every column the plan selects, hence the cast).
    resolve: (query, parent, args, ctx, info) =>
      withVenueDetailLimit({ parent, args, ctx, info }, () => getVenue(args.slug, ctx, query.select) as Promise<VenueRow>),
  }),
}));
