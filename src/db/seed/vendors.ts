// Vendor generator: one vendor with its photos per index, from its own random streams, so vendor N has the
// same name, slug and profile whatever the catalogue size (only createdAt, spread over the whole catalogue,
// depends on the total). Vendors sit in the same towns as venues, mostly in the US; destination vendors
// abroad quote in US dollars (vendors have no currency field) and say so in their pricing structure.
import type { Prisma } from '../../generated/prisma/client.js';
import { REGIONS, type Region } from './places.js';
import { FIRST_NAMES } from './venue-testimonials.js';
import { randomFor, type Random } from './random.js';
import { slugify } from '../../catalogue/slug.js';
import type { SlugRegistry } from './slugs.js';
import { NAME_WORDS, VENDOR_CATEGORIES, type PriceUnit, type VendorCategoryInfo } from './vendor-categories.js';
import { bioOf, policiesOf, portfolioDescriptionOf, pricingStructureOf, type VendorFacts, type VendorPolicies } from './vendor-texts.js';

export const VENDOR_CDN = 'https://cdn.wedding-venues.example/vendors';
const AFFILIATE_BASE = 'https://partners.wedding-venues.example/go';
// Listings were created between 2019 and late 2026; each vendor gets its own slot in that span, so
// createdAt values are distinct and "newest" sorting is total even before the id tie-break.
const CREATED_FROM = Date.UTC(2019, 0, 1);
const CREATED_TO = Date.UTC(2026, 8, 30);
const SURNAMES = [
  'Whitfield',
  'Moreno',
  'Callahan',
  'Nguyen',
  'Rossi',
  'Patel',
  'Brennan',
  'Okafor',
  'Lindqvist',
  'Carter',
  'Delgado',
  'Hayes',
  'Kowalski',
  'Bianchi',
  'Fitzgerald',
  'Tanaka',
  'Reyes',
  'Sullivan',
  'Hart',
  'Mercer',
  'Quinn',
  'Ellis',
  'Navarro',
  'Byrne',
  'Castillo',
  'Laurent',
  'Abbott',
  'Greer',
  'Vance',
  'Holt',
];

const CATEGORY_WEIGHTS = VENDOR_CATEGORIES.map((c) => c.weight);
// Mostly US vendors: destinations keep a presence, at 40% of their venue share.
const VENDOR_REGION_WEIGHTS = REGIONS.map((r) => (r.country === 'us' ? r.weight : r.weight * 0.4));

/** A vendor row as inserted: JSON null (not Prisma's DbNull marker) for a vendor without policies. */
export type VendorRow = Omit<Prisma.VendorCreateManyInput, 'vendorPolicies'> & { vendorPolicies: VendorPolicies | null };

export interface VendorBundle {
  vendor: VendorRow;
  photos: Prisma.VendorPhotoCreateManyInput[];
}

function businessNameOf(r: Random, category: VendorCategoryInfo, city: string | null, region: Region): string {
  const noun = r.pick(category.nouns);
  const roll = r.next();
  if (roll < 0.3) return `${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)} ${noun}`;
  if (roll < 0.7) return `${r.pick(NAME_WORDS)} ${noun}`;
  if (roll < 0.82) return `${city ?? region.name} ${noun}`;
  if (roll < 0.92) return `${r.pick(SURNAMES)} & Co. ${noun.endsWith('Co.') ? category.nouns[0] : noun}`;
  return `The ${r.pick(NAME_WORDS)} ${noun}`;
}

function priceOf(r: Random, category: VendorCategoryInfo): { startingPrice: number | null; priceUnit: PriceUnit } {
  if (r.chance(0.06)) return { startingPrice: null, priceUnit: null };
  const [unit, lo, hi, step] = r.weighted(
    category.prices,
    category.prices.map((p) => p[4]),
  );
  // Skewed low: most vendors start near the bottom of their market.
  const steps = Math.floor((hi - lo) / step);
  return { startingPrice: lo + Math.floor(r.next() ** 1.6 * (steps + 1)) * step, priceUnit: unit };
}

function handleOf(name: string): string {
  return slugify(name).replace(/-/g, '').slice(0, 28);
}

function photosFor(r: Random, vendorId: string, facts: VendorFacts, medium: boolean): Prisma.VendorPhotoCreateManyInput[] {
  const count = r.chance(0.08) ? 0 : r.int(1, 15);
  return Array.from({ length: count }, (_, position) => {
    const category = r.chance(0.05) ? null : r.pick(facts.category.photoCategories);
    const what = category ? category.replace(/-/g, ' ') : 'wedding';
    return {
      id: r.uuid(),
      vendorId,
      url: `${VENDOR_CDN}/${vendorId}/${position}-${medium ? 'medium.webp' : 'original.jpg'}`,
      category,
      altText: r.chance(0.1) ? null : `${what[0].toUpperCase()}${what.slice(1)} by ${facts.businessName}${facts.city ? ` in ${facts.city}` : ''}`,
      isPrimary: position === 0,
      position,
    };
  });
}

/** The vendor at `index` of `total`. Call in index order: slugs are claimed as it goes. */
export function generateVendor(index: number, total: number, slugs: SlugRegistry): VendorBundle {
  const r = randomFor('vendor', index);
  const id = r.uuid();
  const category = r.weighted(VENDOR_CATEGORIES, CATEGORY_WEIGHTS);
  const region = r.weighted(REGIONS, VENDOR_REGION_WEIGHTS);
  const home = r.pick(region.cities);
  const city = r.chance(0.02) ? null : home;
  const businessName = businessNameOf(r, category, city?.name ?? null, region);
  const { startingPrice, priceUnit } = priceOf(r, category);
  const yearsInBusiness = r.chance(0.03) ? null : 1 + Math.floor(r.next() ** 1.5 * 35);
  const weddingsCompleted = r.chance(0.05) ? null : Math.round((yearsInBusiness ?? 5) * r.float(6, 45));
  const others = r
    .sample(
      region.cities.filter((c) => c !== home),
      r.int(0, 4),
    )
    .map((c) => c.name);
  const serviceAreas = [home.name, ...others, region.name];
  if (r.chance(0.1)) serviceAreas.push('Destination weddings');
  const facts: VendorFacts = {
    businessName,
    category,
    city: city?.name ?? null,
    state: region.name,
    usBased: region.country === 'us',
    yearsInBusiness,
    weddingsCompleted,
    specialties: r.sample(category.specialties, r.int(1, 4)),
    serviceAreas,
    startingPrice,
    priceUnit,
  };
  const handle = handleOf(businessName);
  const isAffiliateOnly = r.chance(0.08);
  const medium = r.chance(0.93);
  const photos = photosFor(randomFor('vendor-photos', index), id, facts, medium);
  const hasRating = r.chance(0.88);
  const slotMs = (CREATED_TO - CREATED_FROM) / total;
  const createdAt = CREATED_FROM + Math.floor((index + r.next()) * slotMs);

  const vendor: VendorRow = {
    id,
    slug: slugs.claim(`${category.slug}/${region.slug}/${slugify(businessName)}`),
    businessName,
    active: !r.chance(0.05),
    serviceCategory: category.slug,
    tagline: r.chance(0.05) ? null : r.pick(category.taglines),
    primaryCity: city?.name ?? null,
    primaryCitySlug: city?.slug ?? null,
    primaryState: region.name,
    primaryStateSlug: region.slug,
    bio: r.chance(0.03) ? null : bioOf(r, facts),
    serviceSubcategories: r.sample(category.subcategories, r.int(1, 3)),
    serviceAreas,
    specialties: [...facts.specialties],
    startingPrice,
    priceUnit,
    yearsInBusiness,
    weddingsCompleted,
    featured: r.chance(0.05) ? null : r.chance(0.105),
    featuredImageUrl: photos.length > 0 ? photos[0].url : null,
    isAffiliateOnly,
    affiliateLink: isAffiliateOnly ? `${AFFILIATE_BASE}/${handle}?utm_source=wedding-discovery&utm_medium=affiliate` : null,
    website: r.chance(0.12) ? null : `https://www.${handle}.example`,
    instagram: r.chance(0.2) ? null : `https://www.instagram.com/${handle}/`,
    facebook: r.chance(0.4) ? null : `https://www.facebook.com/${handle}`,
    tiktok: r.chance(0.7) ? null : `https://www.tiktok.com/@${handle}`,
    pricingStructure: r.chance(0.04) ? null : pricingStructureOf(r, facts),
    portfolioDescription: r.chance(0.06) ? null : portfolioDescriptionOf(r, facts),
    vendorPolicies: policiesOf(r),
    averageRating: hasRating ? Math.round(r.float(3.8, 5.0001) * 10) / 10 : null,
    reviewCount: hasRating ? 1 + Math.floor(r.next() ** 2 * 320) : r.chance(0.5) ? 0 : null,
    totalPhotos: photos.length,
    createdAt: new Date(createdAt),
  };
  return { vendor, photos };
}

/** The 11 categories with their display order (§2.9). */
export function vendorCategoryRows(): Prisma.VendorCategoryCreateManyInput[] {
  return VENDOR_CATEGORIES.map((c, i) => ({ slug: c.slug, name: c.name, position: i + 1 }));
}
