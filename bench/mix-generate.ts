/**
 * Writes bench/mix.json, the MIX case's fixed request list (run once; commit the file):
 *
 *   npx tsx bench/mix-generate.ts            seed an in-memory catalogue exactly as a first start does, read its facts,
 *                                            harvest cursor pages, build the list and check every entry answers 200
 *   npx tsx bench/mix-generate.ts --check    only rebuild in memory and compare with the committed file (exit 1 if it differs)
 *
 * The catalogue, the blog and inspiration seeds are deterministic (src/db/seed/random.ts), so the same slugs, ids and
 * cursors exist in every bench run; cursors verify because the bench starts the API with MIX_CURSOR_SECRET.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.js';
import { seedCatalogue, settleAfterBulkLoad } from '../src/db/seed/catalogue.js';
import { seedContent } from '../src/content/content.seed.js';
import { createApp } from '../src/app.js';
import { createApiKey } from '../src/auth/api-keys.service.js';
import { createLogger } from '../src/logging/logger.js';
import { UNREACHABLE_POLICY } from '../src/limits/limits.policy.js';
import { answerOf, type Answer, type BenchRequest } from './cases.js';
import {
  buildMix,
  composition,
  materialise,
  MIX_CURSOR_SECRET,
  MIX_DOCUMENTS,
  MIX_SEED,
  MIX_SIZE,
  type CatalogueFacts,
  type MixFile,
} from './mix.js';
import { mixAnswerProblem } from './mix-replay.js';

const { values: args } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const MIX_FILE = new URL('./mix.json', import.meta.url);
const BASE_URL = 'http://127.0.0.1';
const log = (line: string) => process.stderr.write(`${line}\n`);

const started = performance.now();
log('mix: seeding an in-memory catalogue (as a first start does)…');
const db = await openDatabase({ memory: true, migrate: true });
await seedCatalogue(db.prisma);
await seedContent(db.prisma);
await settleAfterBulkLoad(db.prisma);
log(`mix: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const { key } = await createApiKey({ tier: 'partner', name: 'bench mix' }, db);
const app = createApp({
  prisma: db.prisma,
  readRows: db.readRows,
  log: createLogger({ level: 'silent' }),
  baseUrl: BASE_URL,
  cursorSecret: MIX_CURSOR_SECRET,
  limiter: { policy: UNREACHABLE_POLICY },
});
const send = async (request: BenchRequest): Promise<Answer> => {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (request.body) headers['content-type'] = 'application/json';
  return answerOf(await app.fetch(new Request(`${BASE_URL}${request.path}`, { method: request.method, headers, body: request.body })));
};

const prisma = db.prisma;
const venues = await prisma.venue.findMany({
  where: { published: true },
  orderBy: { slug: 'asc' },
  select: {
    slug: true,
    stateSlug: true,
    citySlug: true,
    capacityMax: true,
    amenities: true,
    venueType: true,
    state: true,
    city: true,
    country: true,
  },
});
const vendors = await prisma.vendor.findMany({
  where: { active: true },
  orderBy: { slug: 'asc' },
  select: { slug: true, serviceCategory: true, primaryState: true },
});
const categories = await prisma.vendorCategory.findMany({ orderBy: { position: 'asc' }, select: { slug: true } });
const posts = await prisma.blogPost.findMany({
  where: { status: 'published', publishedAt: { not: null } },
  orderBy: { slug: 'asc' },
  select: { slug: true },
});
const tags = await prisma.blogTag.findMany({ orderBy: { slug: 'asc' }, select: { slug: true } });
const photos = await prisma.inspirationPhoto.findMany({ orderBy: { position: 'asc' }, select: { id: true } });
const us = venues.filter((v) => v.country === 'United States');

/** Follows next_cursor from `first` for up to `pages` further pages; returns their paths. */
async function nextPages(first: string, pages: number): Promise<string[]> {
  const out: string[] = [];
  let answer = await send({ method: 'GET', path: first });
  for (let i = 0; i < pages; i++) {
    const next = answer.json?.pagination?.next_cursor;
    if (answer.status !== 200 || typeof next !== 'string') break;
    const path = `${first}&cursor=${encodeURIComponent(next)}`;
    out.push(path.slice('/api/v1'.length));
    answer = await send({ method: 'GET', path });
  }
  return out;
}

const states = [...new Set(venues.map((v) => v.stateSlug))].sort();
const venuePages: string[] = [];
for (const filter of [
  '',
  ...states.slice(0, 24).map((s) => `&state=${s}`),
  '&capacity_min=20',
  '&amenities=pool',
  '&state=california&amenities=hot-tub',
])
  venuePages.push(...(await nextPages(`/api/v1/venues?limit=20${filter}`, 6)));
// Vendor pages only for sorts whose keyset positions are seeded values (newest orders by createdAt, the seeding time).
const vendorPages: string[] = [];
for (const sort of ['price_low_to_high', 'price_high_to_low', 'experience', 'weddings_completed'])
  for (const category of ['', ...categories.map((c) => `&category=${c.slug}`)])
    vendorPages.push(...(await nextPages(`/api/v1/vendors?limit=20&sort_by=${sort}${category}`, 3)));
const graphqlVenuePages: Array<Record<string, unknown>> = [];
for (const state of states.slice(0, 30)) {
  let after: string | undefined;
  for (let page = 0; page < 4; page++) {
    const variables: Record<string, unknown> = after ? { state, first: 12, after } : { state, first: 12 };
    const answer = await send(materialise({ kind: 'harvest', method: 'POST', path: '/graphql', operation: 'SearchVenues', variables }));
    if (after) graphqlVenuePages.push(variables);
    const info = answer.json?.data?.venues?.pageInfo;
    if (!info?.hasNextPage) break;
    after = info.endCursor;
  }
}

const facts: CatalogueFacts = {
  venues: venues.map(({ slug, stateSlug, citySlug, capacityMax, amenities, venueType }) => ({
    slug,
    stateSlug,
    citySlug,
    capacityMax,
    amenities,
    venueType,
  })),
  regionStates: [...new Set(us.map((v) => v.state))].sort(),
  regionCities: [...new Set(us.map((v) => v.city))].sort(),
  vendors: vendors.map((v) => ({ slug: v.slug, category: v.serviceCategory, state: v.primaryState })),
  vendorCategories: categories.map((c) => c.slug),
  blogPosts: posts.map((p) => p.slug),
  blogTags: tags.map((t) => t.slug),
  inspirationIds: photos.map((p) => p.id),
  venuePages,
  vendorPages,
  graphqlVenuePages,
};
const entries = buildMix(facts, { seed: MIX_SEED, size: MIX_SIZE });
const mix: MixFile = {
  $comment:
    'Generated by `npx tsx bench/mix-generate.ts` from the deterministic seeded catalogue; replayed by `npm run bench` as MIX-cold. Do not edit by hand. ' +
    'Cursor pages verify only with the API started with cursorSecret (CURSOR_SECRET), which the bench does.',
  seed: MIX_SEED,
  cursorSecret: MIX_CURSOR_SECRET,
  catalogue: {
    venues: venues.length,
    vendors: vendors.length,
    blogPosts: posts.length,
    inspirationPhotos: photos.length,
    venuePages: venuePages.length,
    vendorPages: vendorPages.length,
    graphqlVenuePages: graphqlVenuePages.length,
  },
  documents: { ...MIX_DOCUMENTS },
  entries,
};
const text = `${JSON.stringify(mix, null, 1)}\n`;

let code = 0;
if (args.check) {
  const committed = readFileSync(MIX_FILE, 'utf8');
  code = committed === text ? 0 : 1;
  log(
    code ? 'mix: bench/mix.json differs from what the generator makes now (re-run without --check and commit)' : 'mix: bench/mix.json is up to date',
  );
} else {
  // Every entry must answer 200 with a usable body, or the bench would load error pages.
  log(`mix: checking ${entries.length} requests in-process…`);
  const problems: string[] = [];
  for (const [i, e] of entries.entries()) {
    const problem = mixAnswerProblem(await send(materialise(e)));
    if (problem) problems.push(`#${i} ${e.kind} ${e.path}${e.method === 'POST' ? ` ${JSON.stringify(e.variables)}` : ''}: ${problem}`);
  }
  if (problems.length) {
    log(`mix: ${problems.length} request(s) failed; not written:\n${problems.slice(0, 30).join('\n')}`);
    code = 1;
  } else {
    writeFileSync(MIX_FILE, text);
    log(`mix: wrote bench/mix.json, ${entries.length} distinct requests: ${JSON.stringify(composition(entries))}`);
  }
}
await app.close();
await db.close();
process.exit(code);
