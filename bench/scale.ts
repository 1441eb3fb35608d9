/**
 * Venue search on a large catalogue (issue: "stays fast on the 100,000-venue catalogue"): runs representative
 * searches in-process against DATABASE_URL and prints median / p95 latency per case, including a deep cursor page.
 * Usage: DATABASE_URL=postgres://… npm run -s seed -- --venues 100000 --vendors 50000 && DATABASE_URL=… npx tsx bench/scale.ts
 */
import { openDatabase } from '../src/db/client.js';
import { createApp } from '../src/app.js';
import { createLogger } from '../src/logging/logger.js';
import { createApiKey } from '../src/auth/api-keys.service.js';
import { UNREACHABLE_POLICY } from '../src/limits/limits.policy.js';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const db = await openDatabase({ databaseUrl: url });
const app = createApp({
  prisma: db.prisma,
  log: createLogger({ level: 'silent' }),
  baseUrl: 'http://bench',
  cursorSecret: 'scale-bench-secret-0123456789abcdef',
  limiter: { policy: UNREACHABLE_POLICY },
});
const { key } = await createApiKey({ tier: 'partner', name: 'scale bench' }, db);
const get = async (path: string) => {
  const res = await app.fetch(new Request(`http://bench${path}`, { headers: { authorization: `Bearer ${key}` } }));
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ data: unknown[]; pagination: { next_cursor: string | null; total_count: number } }>;
};

async function time(label: string, path: () => Promise<string>, runs = 30) {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const p = await path();
    const t0 = performance.now();
    await get(p);
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  console.log(`| ${label} | ${samples[Math.floor(runs / 2)].toFixed(1)} | ${samples[Math.floor(runs * 0.95)].toFixed(1)} |`);
}

const total = (await get('/api/v1/venues?limit=1')).pagination.total_count;
console.log(`published venues: ${total.toLocaleString('en-US')}\n\n| case | median ms | p95 ms |\n|---|--:|--:|`);
await time('page 1, no filter, limit 20', async () => '/api/v1/venues?limit=20');
await time('state=california, limit 20', async () => '/api/v1/venues?state=california&limit=20');
await time('state + capacity + amenities', async () => '/api/v1/venues?state=texas&capacity_min=20&amenities=pool,hot-tub&limit=20');
await time('price_min/price_max (all currencies)', async () => '/api/v1/venues?price_min=5000&price_max=9000&limit=20');
await time('venue_type=villa (substring)', async () => '/api/v1/venues?venue_type=villa&limit=20');
// Page 50 of an unfiltered walk: keyset pagination keeps it as cheap as page 1.
let cursor = '';
for (let page = 1; page < 50; page++)
  cursor = (await get(`/api/v1/venues?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).pagination.next_cursor!;
await time('page 50 via cursor, limit 20', async () => `/api/v1/venues?limit=20&cursor=${encodeURIComponent(cursor)}`);
await time('vendors, sort price_low_to_high', async () => '/api/v1/vendors?sort_by=price_low_to_high&limit=20');
await db.close();
process.exit(0);
