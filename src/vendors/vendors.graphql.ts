import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../graphql/builder.js';
import { graphqlOnly } from '../graphql/graphql-only.js';
import { connectionOf, selectsConnectionField, toConnection } from '../graphql/connection.js';
import { parsedArguments, type RequestContext } from '../graphql/context.js';
import { getVendor, listVendorCategories, searchVendors, vendorCategoriesBySlug, visibleVendorsById } from './vendors.service.js';
import { VENDOR_DETAIL_READ } from './vendors.queries.js';
import { VENDOR_PHOTOS } from './vendor-relations.js';
import { readBy } from '../graphql/planned-reads.js';
import { asNode, slugKey, uuidKey } from '../graphql/node.js';
import { VENDOR_CATEGORY_SLUGS, VENDOR_SORTS, VendorSearchInput, parseVendorSearch } from './vendors.inputs.js';
import { parsedBy } from '../graphql/input-schema.js';
import { closedSet } from '../graphql/closed-set.js';
import { ownProperty } from '../graphql/own-property.js';

/** The units a vendor's starting price is quoted in (§2.8). */
const VENDOR_PRICE_UNITS = ['per_person', 'per_event', 'per_hour', 'per_item'] as const;

const Category = closedSet('VendorCategorySlug', VENDOR_CATEGORY_SLUGS, 'The slug of a vendor category (§2.9).');
const Sort = closedSet('VendorSort', VENDOR_SORTS, 'The order of a vendor search (§4.7).');
const PriceUnit = closedSet('VendorPriceUnit', VENDOR_PRICE_UNITS, "The unit of a vendor's starting price (§2.8).");

interface VendorPolicies {
  booking: string | null;
  payment: string | null;
  cancellation: string | null;
  timeline: string | null;
  insurance: string | null;
}
const POLICY_KEYS = ['booking', 'payment', 'cancellation', 'timeline', 'insurance'] as const;

const POLICY_DOCS: Record<(typeof POLICY_KEYS)[number], string> = {
  booking: 'How to book (deposit, contract); null when not stated.',
  payment: 'Payment terms and schedule; null when not stated.',
  cancellation: 'Cancellation and refund terms; null when not stated.',
  timeline: 'Lead times and delivery; null when not stated.',
  insurance: 'Insurance the vendor carries; null when not stated.',
};

const VendorPoliciesRef = builder.objectRef<VendorPolicies>('VendorPolicies').implement({
  ...graphqlOnly("The vendor's stated policies, as written."),
  fields: (t) => Object.fromEntries(POLICY_KEYS.map((k) => [k, t.exposeString(k, { nullable: true, ...graphqlOnly(POLICY_DOCS[k]) })])) as never,
});

builder.prismaObject('VendorPhoto', {
  ...graphqlOnly('A portfolio photo of a vendor.'),
  fields: (t) => ({
    url: t.expose('url', { type: 'URL', description: 'Absolute CDN URL.' }),
    category: t.exposeString('category', { nullable: true, ...graphqlOnly('What the photo shows (e.g. cupcakes); free text.') }),
    altText: t.exposeString('altText', { nullable: true, ...graphqlOnly('Alternative text for screen readers.') }),
  }),
});

const LIST_COLUMNS = {
  businessName: true,
  serviceCategory: true,
  tagline: true,
  primaryCity: true,
  primaryState: true,
  bio: true,
  serviceSubcategories: true,
  serviceAreas: true,
  specialties: true,
  startingPrice: true,
  priceUnit: true,
  yearsInBusiness: true,
  weddingsCompleted: true,
  featured: true,
  featuredImageUrl: true,
} as const;

export const Vendor = builder.prismaObject('Vendor', {
  description: 'A wedding vendor (§2.8 list item and §2.9 detail).',
  // Select mode: the detail's columns and photos load only when a query selects them. The list item's columns (§2.8)
  // and the two affiliate columns are part of every row: a field with its own `select` costs a per-row plan lookup in
  // plugin-prisma, more than reading short columns (LIST_COLUMNS in venues.graphql.ts).
  select: { id: true, slug: true, isAffiliateOnly: true, affiliateLink: true, ...LIST_COLUMNS },
  // vendor(slug:) answers from getVendor's fixed row, whatever the plan: checked at schema build to hold every field.
  extensions: readBy(VENDOR_DETAIL_READ),
  fields: (t) => ({
    slug: t.string({ ...graphqlOnly('URL-safe vendor id; what vendor(slug:) takes.'), resolve: ownProperty('slug') }),
    businessName: t.string({ ...graphqlOnly('Trading name.'), resolve: ownProperty('businessName') }),
    serviceCategory: t.field({
      type: Category.ref,
      description: Category.describe('The slug of the vendor category (§2.9).'),
      resolve: ownProperty('serviceCategory'),
    }),
    tagline: t.string({ nullable: true, ...graphqlOnly('One-line pitch.'), resolve: ownProperty('tagline') }),
    primaryCity: t.string({ nullable: true, ...graphqlOnly('City the vendor is based in.'), resolve: ownProperty('primaryCity') }),
    primaryState: t.string({ nullable: true, ...graphqlOnly('State the vendor is based in.'), resolve: ownProperty('primaryState') }),
    bio: t.string({ nullable: true, ...graphqlOnly('About the business, plain text.'), resolve: ownProperty('bio') }),
    serviceSubcategories: t.stringList({
      nullable: true,
      ...graphqlOnly('Narrower services within the category.'),
      resolve: ownProperty('serviceSubcategories'),
    }),
    serviceAreas: t.stringList({ nullable: true, ...graphqlOnly('Places the vendor travels to.'), resolve: ownProperty('serviceAreas') }),
    specialties: t.stringList({ nullable: true, ...graphqlOnly('What the vendor is known for.'), resolve: ownProperty('specialties') }),
    startingPrice: t.float({ nullable: true, ...graphqlOnly('Lowest advertised price, per priceUnit.'), resolve: ownProperty('startingPrice') }),
    priceUnit: t.field({
      type: PriceUnit.ref,
      nullable: true,
      description: PriceUnit.describe('Null for a starting-at price with no unit.'),
      resolve: ownProperty('priceUnit'),
    }),
    yearsInBusiness: t.int({ nullable: true, ...graphqlOnly('Years trading, as stated.'), resolve: ownProperty('yearsInBusiness') }),
    weddingsCompleted: t.int({ nullable: true, ...graphqlOnly('Weddings worked, as stated.'), resolve: ownProperty('weddingsCompleted') }),
    featured: t.boolean({ nullable: true, ...graphqlOnly('True for a featured vendor (the `featured` filter).'), resolve: ownProperty('featured') }),
    featuredImageUrl: t.field({
      type: 'URL',
      nullable: true,
      ...graphqlOnly('Primary photo, absolute URL.'),
      resolve: ownProperty('featuredImageUrl'),
    }),
    logoUrl: t.field({ type: 'URL', nullable: true, description: 'Reserved; currently always null.', resolve: () => null }),
    isAffiliateOnly: t.boolean({
      ...graphqlOnly('True when the vendor is booked through a partner: see affiliateLink.'),
      resolve: ownProperty('isAffiliateOnly'),
    }),
    affiliateLink: t.field({
      type: 'URL',
      nullable: true,
      ...graphqlOnly("The partner's booking link; null unless isAffiliateOnly."),
      resolve: (v) => (v.isAffiliateOnly ? v.affiliateLink : null),
    }),
    url: t.field({ type: 'URL', ...graphqlOnly('Absolute URL of the vendor page.'), resolve: (v, _args, ctx) => `${ctx.siteUrl}/vendors/${v.slug}` }),
    photos: t.relation('photos', {
      description: 'At most 5 photos, primary first.',
      query: VENDOR_PHOTOS,
    }),
    totalPhotos: t.exposeInt('totalPhotos', graphqlOnly('Photos in the full portfolio.')),
    website: t.expose('website', { type: 'URL', nullable: true, ...graphqlOnly("The vendor's own website.") }),
    instagram: t.expose('instagram', { type: 'URL', nullable: true, ...graphqlOnly('Instagram profile URL.') }),
    facebook: t.expose('facebook', { type: 'URL', nullable: true, ...graphqlOnly('Facebook page URL.') }),
    tiktok: t.expose('tiktok', { type: 'URL', nullable: true, ...graphqlOnly('TikTok profile URL.') }),
    pricingStructure: t.exposeString('pricingStructure', { nullable: true, ...graphqlOnly('How prices are built (packages, hourly), as written.') }),
    portfolioDescription: t.exposeString('portfolioDescription', { nullable: true, ...graphqlOnly('About the portfolio, plain text.') }),
    vendorPolicies: t.field({
      type: VendorPoliciesRef,
      nullable: true,
      ...graphqlOnly('Stated policies; null when none are on file.'),
      select: { vendorPolicies: true },
      resolve: (v) => {
        const raw = v.vendorPolicies as Record<string, unknown> | null;
        if (!raw || typeof raw !== 'object') return null;
        return Object.fromEntries(POLICY_KEYS.map((k) => [k, typeof raw[k] === 'string' ? raw[k] : null])) as unknown as VendorPolicies;
      },
    }),
    averageRating: t.exposeFloat('averageRating', { nullable: true, ...graphqlOnly('Mean review rating out of 5.') }),
    reviewCount: t.exposeInt('reviewCount', { nullable: true, ...graphqlOnly('Reviews behind averageRating.') }),
  }),
});

// A global id for client caches; node(id:) shows only listed (active) vendors, as search and detail do.
asNode(Vendor, { key: 'id', parseKey: uuidKey, planned: true, load: (ids, query, ctx) => visibleVendorsById(ids, query, ctx) });

type VendorPage = Awaited<ReturnType<typeof searchVendors>>;

// Vendor search pages add category_stats beside the usual connection fields (§4.7).
const base = connectionOf('Vendor', Vendor);
builder.objectField(base, 'categoryStats', (t) =>
  t.field({
    type: 'JSON',
    description: 'Active vendors matching this search (without its category filter), by category slug.',
    extensions: { jsonSchema: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } } },
    resolve: (c) => (c.page as unknown as VendorPage).categoryStats(),
  }),
);

const VendorCategory = builder.objectRef<{ name: string; slug: string; vendorCount: number }>('VendorCategory');
asNode(VendorCategory, { key: 'slug', parseKey: slugKey, load: (slugs, _query, ctx) => vendorCategoriesBySlug(slugs, ctx) });
VendorCategory.implement({
  ...graphqlOnly('One of the 11 vendor categories.'),
  fields: (t) => ({
    name: t.exposeString('name', graphqlOnly('Display name.')),
    slug: t.exposeString('slug', graphqlOnly('Category slug: the `category` filter of vendors.')),
    vendorCount: t.exposeInt('vendorCount', { description: 'Active vendors in the category.' }),
  }),
});

const vendorDeps = (ctx: RequestContext) => ({ prisma: ctx.prisma, readRows: ctx.readRows, cursors: ctx.cursors });

builder.queryFields((t) => ({
  vendors: t.field({
    type: base,
    description: 'Search active vendors.',
    extensions: parsedBy(VendorSearchInput),
    args: {
      category: t.arg.string({ description: 'Category slug or name (see vendorCategories).' }),
      location: t.arg.string({ description: 'Text contained in the primary city or state (any case), or a service area name.' }),
      state: t.arg.string({ description: 'Primary state: name or slug.' }),
      city: t.arg.string({ description: 'Primary city: name or slug.' }),
      priceMin: t.arg.float({ description: 'Lower bound on startingPrice.' }),
      priceMax: t.arg.float({ description: 'Upper bound on startingPrice.' }),
      search: t.arg.string({ description: 'Text in the business name, tagline or bio (any case), or a specialty.' }),
      featured: t.arg.boolean({ description: 'true: featured only; false: not featured.' }),
      sortBy: t.arg({ type: Sort.ref, description: 'Sort order; nulls sort last.', defaultValue: 'newest' }),
      first: t.arg.int({ description: 'Page size, 1 to 100.', defaultValue: 20 }),
      after: t.arg.string({ description: 'pageInfo.endCursor of the previous page.' }),
    },
    resolve: async (_root, args, ctx, info) =>
      toConnection(
        await searchVendors(
          parsedArguments(ctx, parseVendorSearch, args),
          queryFromInfo({ context: ctx, info, typeName: 'Vendor', paths: [['nodes'], ['edges', 'node']] }),
          vendorDeps(ctx),
          {
            countWithPage: selectsConnectionField(info, 'totalCount'),
            statsWithPage: selectsConnectionField(info, 'categoryStats'),
          },
        ),
      ) as never,
  }),
  vendor: t.prismaField({
    type: 'Vendor',
    nullable: true,
    // REST answers a missing venue/vendor with 404, so its 200 `data` is never null (OpenAPI reads this).
    extensions: { semanticNonNull: true },
    description: 'One listed vendor by slug.',
    args: { slug: t.arg.string({ required: true, ...graphqlOnly('The vendor slug (Vendor.slug).') }) },
    // The planned query is not run, but planning it records what the fields read: they answer from getVendor's row.
    resolve: (_query, _root, args, ctx) => getVendor(args.slug, ctx),
  }),
  vendorCategories: t.field({
    type: [VendorCategory],
    description: 'The 11 vendor categories with active vendor counts.',
    resolve: (_root, _args, ctx) => listVendorCategories(ctx),
  }),
}));
