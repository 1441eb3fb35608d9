// Venue generator: one venue with its photos and testimonials per index, from its own random streams, so
// venue N is the same in a 60-venue test catalogue and in the 1,600-venue default (slugs are claimed in
// index order, so the small catalogue is a prefix of the large one).
//
// Pricing (§2.1): amounts are whole units of the stored currency and cover the whole minimum stay.
//   weekdayBase  = nightly × minNights + an exclusive-event fee, rounded to 50
//   weekendBase  = weekdayBase × 1.15–1.6, rounded to 50 (always above weekday)
//   extraNight   = about one weekday night, rounded to 10
//   startingTotal = startingTotalOf(...) in starting-total.ts:
//                   round((weekdayBase + cleaningFee) × (100 + serviceFeePercent + taxPercent) / 100)
// Currency: USD in the US, Mexico and Costa Rica; EUR in Italy and Ireland, stored in euros; AUD in Australia,
// but those amounts are STORED IN USD and converted when read at the day's rate (rounded up to 100).
// About 5% of venues have no price: every price field and startingTotal are null.
import type { Prisma } from '../../generated/prisma/client.js';
import type { CountryKey } from './place-kinds.js';
import { REGIONS, REGION_WEIGHTS, slugRoot, type City, type Region } from './places.js';
import { randomFor, type Random } from './random.js';
import { slugify } from '../../catalogue/slug.js';
import type { SlugRegistry } from './slugs.js';
import { startingTotalOf } from './starting-total.js';
import { amenitiesFor, categoriesFor } from './venue-amenities.js';
import { describeVenue, seoDescriptionOf, type VenueFacts } from './venue-descriptions.js';
import { venueName } from './venue-names.js';
import { eventDate, guestName, rating, review } from './venue-testimonials.js';
import { TYPE_INFO, VENUE_TYPES, labelFitsCountry, typeWeightsFor, type VenueTypeKey } from './venue-types.js';

export const VENUE_CDN = 'https://cdn.wedding-venues.example/venues';
export const PHOTO_CATEGORIES = [
  'exterior',
  'interior',
  'ceremony',
  'reception',
  'bedroom',
  'bathroom',
  'kitchen',
  'pool',
  'grounds',
  'aerial',
  'detail',
] as const;
/** Euro prices are authored in euros at roughly this many dollars per euro. */
const USD_PER_EUR = 1.08;
const CREATED_FROM = Date.UTC(2019, 0, 1);
const CREATED_TO = Date.UTC(2026, 5, 30);
const UPDATED_TO = Date.UTC(2026, 9, 31);

export interface VenueBundle {
  venue: Prisma.VenueCreateManyInput;
  photos: Prisma.VenuePhotoCreateManyInput[];
  testimonials: Prisma.TestimonialCreateManyInput[];
}

const roundTo = (value: number, step: number): number => Math.max(step, Math.round(value / step) * step);
const round6 = (value: number): number => Math.round(value * 1e6) / 1e6;

function pickType(r: Random, region: Region, city: City): VenueTypeKey | null {
  if (r.chance(0.02)) return null;
  return r.weighted(VENUE_TYPES, typeWeightsFor(region.style, city.features));
}

function pickLabel(r: Random, type: VenueTypeKey, city: City, country: CountryKey): string {
  const fitting = TYPE_INFO[type].labels.flatMap((label) => {
    const [text, needs] = typeof label === 'string' ? [label, null] : label;
    return (needs === null || city.features.has(needs)) && labelFitsCountry(text, country) ? [text] : [];
  });
  // The bare label ("Villa") fits everywhere; it is also the fallback.
  return fitting.length > 0 ? r.pick(fitting) : (TYPE_INFO[type].labels[0] as string);
}

// Earliest plausible construction year per country; castles and chateaux outside Europe are revival
// buildings of the Gilded Age rather than medieval ones.
const EARLIEST_BUILT: Record<CountryKey, number> = { us: 1700, mexico: 1560, 'costa-rica': 1800, australia: 1835, italy: 1100, ireland: 1100 };

function builtYearFor(r: Random, type: VenueTypeKey | null, country: CountryKey): number | null {
  if (r.chance(0.3)) return null;
  const [lo, hi] = TYPE_INFO[type ?? 'estate'].built;
  const european = country === 'italy' || country === 'ireland';
  if (!european && (type === 'castle' || type === 'chateau')) return r.int(1885, 1935);
  const from = Math.max(lo, EARLIEST_BUILT[country]);
  return r.int(from, Math.max(hi, from + 20));
}

interface Rooms {
  bedrooms: number;
  beds: number;
  bathrooms: number;
  sleeps: number;
  capacityMin: number;
  gatheringSpaces: number;
}

function roomsFor(r: Random, type: VenueTypeKey | null): Rooms {
  const [lo, hi] = TYPE_INFO[type ?? 'estate'].bedrooms;
  // Skewed towards the small end: most properties are mid-sized, a few are very large.
  const bedrooms = lo + Math.floor((hi - lo + 1) * r.next() ** 1.4);
  const beds = bedrooms + r.int(0, Math.ceil(bedrooms * 0.6));
  const sleeps = Math.max(2, beds * 2 - r.int(0, Math.floor(beds / 4)));
  const bathrooms = Math.max(1, Math.round(bedrooms * r.float(0.6, 1.15) * 2) / 2);
  return {
    bedrooms,
    beds,
    bathrooms,
    sleeps,
    capacityMin: Math.max(2, Math.round(sleeps * r.float(0.25, 0.5))),
    gatheringSpaces: Math.min(8, 1 + Math.floor(bedrooms / 6) + r.int(0, 2)),
  };
}

interface Pricing {
  minNights: number;
  weekdayBase: number | null;
  weekendBase: number | null;
  extraNight: number | null;
  cleaningFee: number | null;
  serviceFeePercent: number | null;
  taxPercent: number | null;
  startingTotal: number | null;
  /** 0 (cheapest) to 1, for the "Luxury" category. */
  level: number | null;
}

function pricingFor(r: Random, region: Region, type: VenueTypeKey | null, rooms: Rooms): Pricing {
  const minNights = r.weighted([1, 2, 3, 4], [8, 50, 34, 8]);
  if (r.chance(0.05)) {
    return {
      minNights,
      weekdayBase: null,
      weekendBase: null,
      extraNight: null,
      cleaningFee: null,
      serviceFeePercent: null,
      taxPercent: null,
      startingTotal: null,
      level: null,
    };
  }
  const typeFactor = TYPE_INFO[type ?? 'estate'].priceFactor;
  const nightlyUsd = 400 * region.priceFactor * typeFactor * r.float(0.75, 1.3) * Math.max(1.5, rooms.bedrooms) ** 0.9;
  const eventFeeUsd = r.int(5, 30) * 100;
  const weekdayUsd = Math.min(60_000, Math.max(2_000, nightlyUsd * minNights + eventFeeUsd));
  const toStored = region.countryInfo.currency === 'EUR' ? 1 / USD_PER_EUR : 1;
  const weekdayBase = roundTo(weekdayUsd * toStored, 50);
  const weekendBase = roundTo(weekdayBase * r.float(1.15, 1.6), 50);
  const extraNight = roundTo((weekdayBase / minNights) * r.float(0.8, 1.05), 10);
  const cleaningFee = roundTo((150 + rooms.bedrooms * r.float(35, 90)) * toStored, 25);
  const serviceFeePercent = r.weighted([0, 3, 5, 6, 8, 10, 12, 14, 15], [22, 8, 14, 8, 14, 16, 8, 5, 5]);
  const taxRoll = r.next();
  const taxPercent = taxRoll < 0.08 ? 0 : taxRoll < 0.85 ? region.taxPercent : Math.max(0, region.taxPercent + r.pick([-1, -0.5, 0.5, 1]));
  const startingTotal = startingTotalOf({ weekdayBase, cleaningFee, serviceFeePercent, taxPercent });
  const level = Math.min(1, Math.max(0, Math.log(weekdayUsd / 2_000) / Math.log(30)));
  return { minNights, weekdayBase, weekendBase, extraNight, cleaningFee, serviceFeePercent, taxPercent, startingTotal, level };
}

function photosFor(venueId: string, index: number, amenities: readonly string[]): Prisma.VenuePhotoCreateManyInput[] {
  const r = randomFor('venue-photos', index);
  const count = r.chance(0.03) ? 0 : r.chance(0.06) ? r.int(1, 7) : r.int(8, 40);
  const categories: Array<(typeof PHOTO_CATEGORIES)[number]> = [...PHOTO_CATEGORIES];
  const weights = [10, 14, 10, 10, 16, 7, 5, amenities.includes('pool') ? 6 : 0, 10, 4, 8];
  const featured = new Set<number>();
  if (count > 0) {
    featured.add(0);
    const extra = Math.min(count - 1, r.int(0, 2));
    for (const p of r.sample(
      Array.from({ length: Math.min(count - 1, 11) }, (_, i) => i + 1),
      extra,
    ))
      featured.add(p);
  }
  return Array.from({ length: count }, (_, position) => {
    const category = r.chance(0.03)
      ? null
      : position === 0
        ? r.weighted(['exterior', 'aerial', 'ceremony', 'grounds'], [60, 25, 10, 5])
        : r.weighted(categories, weights);
    return {
      id: r.uuid(),
      venueId,
      url: `${VENUE_CDN}/${venueId}/${position}-medium.webp`,
      category,
      isFeatured: featured.has(position),
      position,
    };
  });
}

function testimonialsFor(venueId: string, index: number): Prisma.TestimonialCreateManyInput[] {
  const r = randomFor('venue-testimonials', index);
  const count = r.weighted([0, 1, 2, 3, 4, 5, 6, 7, 8], [12, 10, 14, 16, 14, 12, 9, 7, 6]);
  return Array.from({ length: count }, () => {
    const score = rating(r);
    return { id: r.uuid(), venueId, guestName: guestName(r), rating: score, review: review(r, score), eventDate: eventDate(r) };
  });
}

/**
 * The venue at `index` with its photos and testimonials. Call in index order: slugs are claimed as it goes. Long
 * because each field draws from the same random stream in a fixed order, which keeps the seed identical everywhere.
 */
export function generateVenue(index: number, slugs: SlugRegistry): VenueBundle {
  const r = randomFor('venue', index);
  const id = r.uuid();
  const region = r.weighted(REGIONS, REGION_WEIGHTS);
  const city = r.pick(region.cities);
  const country = region.countryInfo;
  const type = pickType(r, region, city);
  const label = type === null ? null : pickLabel(r, type, city, region.country);
  const name = venueName(r, type, country, city.features);
  const rooms = roomsFor(r, type);
  const builtYear = builtYearFor(r, type, region.country);
  const pricing = pricingFor(r, region, type, rooms);
  const amenities = amenitiesFor(r, { features: city.features, type, country: region.country, bedrooms: rooms.bedrooms });
  const categories = categoriesFor(r, {
    features: city.features,
    type,
    country: region.country,
    bedrooms: rooms.bedrooms,
    amenities,
    builtYear,
    sleeps: rooms.sleeps,
    priceLevel: pricing.level,
  });
  const facts: VenueFacts = {
    name,
    label,
    type,
    city: city.name,
    state: region.name,
    countryName: country.name,
    features: city.features,
    bedrooms: rooms.bedrooms,
    bathrooms: rooms.bathrooms,
    sleeps: rooms.sleeps,
    amenities,
    builtYear,
  };
  const jitter = city.features.has('coast') || city.features.has('island') ? 0.02 : 0.07;
  const createdAt = CREATED_FROM + Math.floor(r.next() * (CREATED_TO - CREATED_FROM));
  const updatedAt = createdAt + Math.floor(r.next() * (UPDATED_TO - createdAt));
  const slug = slugs.claim([...slugRoot(region), city.slug, slugify(name)].join('/'));
  const published = !r.chance(0.04);
  const description = r.chance(0.01) ? null : describeVenue(r, facts);
  const seoDescription = r.chance(0.02) ? null : seoDescriptionOf(r, facts);
  const noCoordinates = r.chance(0.01);
  const photos = photosFor(id, index, amenities);

  const venue: Prisma.VenueCreateManyInput = {
    id,
    slug,
    name,
    published,
    city: city.name,
    citySlug: city.slug,
    state: region.name,
    stateSlug: region.slug,
    country: country.name,
    propertyType: label,
    venueType: type,
    latitude: noCoordinates ? null : round6(city.latitude + r.float(-jitter, jitter)),
    longitude: noCoordinates ? null : round6(city.longitude + r.float(-jitter, jitter)),
    capacityMin: rooms.capacityMin,
    capacityMax: rooms.sleeps,
    bedrooms: rooms.bedrooms,
    beds: rooms.beds,
    bathrooms: rooms.bathrooms,
    gatheringSpaces: r.chance(0.04) ? null : rooms.gatheringSpaces,
    accommodates: r.chance(0.02) ? null : rooms.sleeps,
    description,
    seoDescription,
    heroImage: photos.length > 0 ? photos[0].url : null,
    categories,
    amenities,
    currency: country.currency,
    minNights: pricing.minNights,
    weekdayBase: pricing.weekdayBase,
    weekendBase: pricing.weekendBase,
    extraNight: pricing.extraNight,
    cleaningFee: pricing.cleaningFee,
    serviceFeePercent: pricing.serviceFeePercent,
    taxPercent: pricing.taxPercent,
    startingTotal: pricing.startingTotal,
    totalPhotos: photos.length,
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
  };
  return { venue, photos, testimonials: testimonialsFor(id, index) };
}
