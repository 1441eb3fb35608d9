// Fills an empty catalogue (venues, photos, testimonials, vendor categories, vendors, vendor photos and the
// exchange-rate calendar) deterministically: the same options give byte-identical rows, ids included, on any
// machine. The app calls this on first start, so it must stay fast on embedded PGlite; `npm run seed` uses it
// for large scale-test catalogues too, so memory stays bounded by generating and inserting chunk by chunk.
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { insertRows } from './bulk-insert.js';
import { exchangeRateRows } from './exchange-rates.js';
import { thousands } from './format.js';
import { SlugRegistry } from './slugs.js';
import { generateVendor, vendorCategoryRows } from './vendors.js';
import { generateVenue } from './venues.js';

export interface SeedOptions {
  /** Venues to create (about 4% unpublished). @default 1600 */
  venues?: number;
  /** Vendors to create (about 5% inactive). @default 1300 */
  vendors?: number;
  /** Progress lines such as "venues 25,000/100,000 (12.3 s)", every 5,000 rows and at the end of each kind. */
  onProgress?: (message: string) => void;
}

export interface SeedSummary {
  venues: number;
  publishedVenues: number;
  venuePhotos: number;
  testimonials: number;
  vendorCategories: number;
  vendors: number;
  activeVendors: number;
  vendorPhotos: number;
  /** Rate rows inserted; dates already present are kept as they are. */
  exchangeRates: number;
  /** Whether everything was written in one transaction (small catalogues) or chunk by chunk. */
  atomic: boolean;
  elapsedMs: number;
}

export const DEFAULT_CATALOGUE = { venues: 1600, vendors: 1300 } as const;

/** Thrown by seedCatalogue when venues or vendors already exist: seeding never mixes with existing rows. */
export class CatalogueNotEmptyError extends Error {
  constructor() {
    super('The catalogue already has venues or vendors; seeding only fills an empty catalogue (clear it first, e.g. npm run seed -- --reset).');
    this.name = 'CatalogueNotEmptyError';
  }
}

type Db = Prisma.TransactionClient;

// Up to this many venues + vendors go in one transaction, so an interrupted first-start seed leaves nothing
// behind and the next start seeds again. Larger scale-test catalogues commit chunk by chunk instead.
const ATOMIC_LIMIT = 20_000;
const CHUNK = 500;
const PROGRESS_EVERY = 5_000;
const TX_OPTIONS = { maxWait: 60_000, timeout: 30 * 60_000 } as const;

export async function catalogueIsEmpty(prisma: PrismaClient | Db): Promise<boolean> {
  const venue = await prisma.venue.findFirst({ select: { id: true } });
  if (venue) return false;
  const vendor = await prisma.vendor.findFirst({ select: { id: true } });
  return vendor === null;
}

/**
 * Deletes every venue, vendor and vendor category with their photos and testimonials (`npm run seed -- --reset`).
 * Exchange rates stay: they are reference data, and reseeding skips dates that already exist. Like every catalogue
 * write, it raises the catalogue generation in its transaction (src/cache/catalogue-generation.ts).
 */
export async function clearCatalogue(prisma: PrismaClient): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await tx.venuePhoto.deleteMany();
    await tx.testimonial.deleteMany();
    await tx.venue.deleteMany();
    await tx.vendorPhoto.deleteMany();
    await tx.vendor.deleteMany();
    await tx.vendorCategory.deleteMany();
  }, TX_OPTIONS);
}

/** Runs `work` in its own transaction, or inside the one already open for an atomic seed. */
type Unit = (work: (db: Db) => Promise<void>) => Promise<void>;

class Progress {
  private readonly started = Date.now();
  private lastReported = 0;

  constructor(
    private readonly kind: string,
    private readonly total: number,
    private readonly report: ((message: string) => void) | undefined,
  ) {}

  update(done: number): void {
    if (!this.report) return;
    if (done < this.total && done - this.lastReported < PROGRESS_EVERY) return;
    this.lastReported = done - (done % PROGRESS_EVERY);
    const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
    this.report(`${this.kind} ${thousands(done)}/${thousands(this.total)} (${seconds} s)`);
  }
}

async function seedVenues(unit: Unit, total: number, summary: SeedSummary, report?: (m: string) => void): Promise<void> {
  const slugs = new SlugRegistry();
  const progress = new Progress('venues', total, report);
  for (let start = 0; start < total; start += CHUNK) {
    const bundles = Array.from({ length: Math.min(CHUNK, total - start) }, (_, i) => generateVenue(start + i, slugs));
    const venues = bundles.map((b) => b.venue);
    const photos = bundles.flatMap((b) => b.photos);
    const testimonials = bundles.flatMap((b) => b.testimonials);
    await unit(async (db) => {
      await insertRows(db, 'Venue', venues);
      await insertRows(db, 'VenuePhoto', photos);
      await insertRows(db, 'Testimonial', testimonials);
    });
    summary.venues += venues.length;
    summary.publishedVenues += venues.filter((v) => v.published).length;
    summary.venuePhotos += photos.length;
    summary.testimonials += testimonials.length;
    progress.update(summary.venues);
  }
}

async function seedVendors(unit: Unit, total: number, summary: SeedSummary, report?: (m: string) => void): Promise<void> {
  const slugs = new SlugRegistry();
  const progress = new Progress('vendors', total, report);
  for (let start = 0; start < total; start += CHUNK) {
    const bundles = Array.from({ length: Math.min(CHUNK, total - start) }, (_, i) => generateVendor(start + i, total, slugs));
    const vendors = bundles.map((b) => b.vendor);
    const photos = bundles.flatMap((b) => b.photos);
    await unit(async (db) => {
      await insertRows(db, 'Vendor', vendors);
      await insertRows(db, 'VendorPhoto', photos);
    });
    summary.vendors += vendors.length;
    summary.activeVendors += vendors.filter((v) => v.active !== false).length;
    summary.vendorPhotos += photos.length;
    progress.update(summary.vendors);
  }
}

async function seedReferenceData(db: Db, summary: SeedSummary): Promise<void> {
  summary.exchangeRates = (await db.exchangeRate.createMany({ data: exchangeRateRows(), skipDuplicates: true })).count;
  summary.vendorCategories = (await db.vendorCategory.createMany({ data: vendorCategoryRows(), skipDuplicates: true })).count;
}

/**
 * Fills an EMPTY catalogue deterministically from the fixed seed: the same options give byte-identical rows,
 * ids included, and a smaller catalogue is a prefix of a larger one (venue N is always the same venue).
 * Throws CatalogueNotEmptyError when any venue or vendor exists; it never merges with or replaces rows
 * (clear first with clearCatalogue). Catalogues up to 20,000 venues + vendors are written in one
 * transaction, so a failure leaves the database empty; larger ones commit every 500 rows of each kind.
 */
export async function seedCatalogue(prisma: PrismaClient, options: SeedOptions = {}): Promise<SeedSummary> {
  const venues = options.venues ?? DEFAULT_CATALOGUE.venues;
  const vendors = options.vendors ?? DEFAULT_CATALOGUE.vendors;
  if (!Number.isInteger(venues) || venues < 0 || !Number.isInteger(vendors) || vendors < 0) {
    throw new RangeError(`venues and vendors must be whole numbers >= 0 (got ${venues} and ${vendors})`);
  }
  const started = Date.now();
  const atomic = venues + vendors <= ATOMIC_LIMIT;
  const summary: SeedSummary = {
    venues: 0,
    publishedVenues: 0,
    venuePhotos: 0,
    testimonials: 0,
    vendorCategories: 0,
    vendors: 0,
    activeVendors: 0,
    vendorPhotos: 0,
    exchangeRates: 0,
    atomic,
    elapsedMs: 0,
  };
  if (atomic) {
    await prisma.$transaction(async (tx) => {
      if (!(await catalogueIsEmpty(tx))) throw new CatalogueNotEmptyError();
      const unit: Unit = (work) => work(tx);
      await seedReferenceData(tx, summary);
      await seedVenues(unit, venues, summary, options.onProgress);
      await seedVendors(unit, vendors, summary, options.onProgress);
    }, TX_OPTIONS);
  } else {
    if (!(await catalogueIsEmpty(prisma))) throw new CatalogueNotEmptyError();
    const unit: Unit = (work) => prisma.$transaction(work, TX_OPTIONS);
    await prisma.$transaction((tx) => seedReferenceData(tx, summary), TX_OPTIONS);
    await seedVenues(unit, venues, summary, options.onProgress);
    await seedVendors(unit, vendors, summary, options.onProgress);
  }
  summary.elapsedMs = Date.now() - started;
  return summary;
}

/**
 * After a bulk load (a seed): planner statistics, and the visibility map that lets a count read an index alone. Without
 * the map every total_count and facet count reads each heap page to check each row's visibility until a VACUUM sets
 * it, and none may come: PGlite runs no autovacuum, and a PostgreSQL server's may be off (it is off on the machine CI
 * runs on) or not have come round yet (docs/performance.md, Levers). Runs outside any transaction, as VACUUM must.
 */
export async function settleAfterBulkLoad(prisma: PrismaClient): Promise<void> {
  await prisma.$executeRawUnsafe('VACUUM ANALYZE');
}
