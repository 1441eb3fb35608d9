import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { freePort, startServer, type ServerProcess } from '../support/processes.js';
import { openRawConnection } from '../support/raw-http.js';

/** "a: 2, b: 1", in first-seen order. */
const countOf = (labels: string[]) => [...new Set(labels)].map((l) => `${l}: ${labels.filter((x) => x === l).length}`).join(', ');

/** The server as `npm start` runs it, on the embedded database whatever the test run's environment. */
const startEmbedded = (env: Record<string, string>) => startServer({ DATABASE_URL: '', REDIS_URL: '', ...env });

/**
 * Restarts of the drain test on one data directory, 20 in a row as the hardening issue asks: a round is a process start
 * and a drain, 8 to 15 s on a 2-core host under load (272 s for 20 there). DRAIN_ROUNDS=N runs another number.
 */
const DRAIN_ROUNDS = Number(process.env.DRAIN_ROUNDS) || 20;

/** The key and the listings a drain round's requests use. */
interface DrainTarget {
  base: string;
  auth: { authorization: string };
  venue: string;
  vendor: string;
}

/** The demo key a first start prints (once: only its hash is stored). */
async function demoKeyOf(server: ServerProcess): Promise<string> {
  await server.waitFor('Demo API key');
  return /Demo API key[^:]*: (wv_live_\w+)/.exec(server.output())![1];
}

async function drainTarget(base: string, key: string): Promise<DrainTarget> {
  const auth = { authorization: `Bearer ${key}` };
  const venue = (await (await fetch(`${base}/api/v1/venues?limit=1`, { headers: auth })).json()).data[0].slug;
  const vendors = (await (await fetch(`${base}/api/v1/vendors?limit=20`, { headers: auth })).json()).data;
  return { base, auth, venue, vendor: vendors.find((v: { is_affiliate_only: boolean }) => !v.is_affiliate_only).slug };
}

interface Outcome {
  i: number;
  kind: 'search' | 'venue' | 'vendor';
  status?: number;
  headers?: IncomingHttpHeaders;
  body?: string;
  complete: boolean;
  error?: string;
}

/**
 * One request on a connection of its own (agent: false): a search of 100 venues, or every fifth a venue or vendor
 * inquiry with an idempotency key. `written` is called once its bytes have been handed to the kernel.
 */
function sendInFlight(target: DrainTarget, round: number, i: number, written: () => void): Promise<Outcome> {
  const kind = i % 10 === 0 ? 'venue' : i % 10 === 5 ? 'vendor' : 'search';
  const guest = { guest_name: `Drain ${round}-${i}`, guest_email: 'ada@example.com' };
  const body =
    kind === 'venue'
      ? { property_slug: target.venue, start_date: '2027-06-10', end_date: '2027-06-13', event_guests: 80, ...guest, sms_consent: false }
      : kind === 'vendor'
        ? { vendor_slug: target.vendor, ...guest, sms_consent: true }
        : undefined;
  const path = body ? `/api/v1/inquiries/${kind}` : `/api/v1/venues?limit=100&capacity_min=${i + round}`;
  const outcome: Outcome = { i, kind, complete: false };
  const failed = (resolve: (o: Outcome) => void) => (e: NodeJS.ErrnoException) => {
    outcome.error = `${e.code ?? ''} ${e.message}`;
    resolve(outcome);
  };
  return new Promise((resolve) => {
    const req = request(`${target.base}${path}`, {
      method: body ? 'POST' : 'GET',
      agent: false,
      headers: { ...target.auth, ...(body ? { 'content-type': 'application/json', 'x-idempotency-key': `drain-${round}-${i}` } : {}) },
    });
    req.on('finish', written);
    req.on('response', (res) => {
      outcome.status = res.statusCode;
      outcome.headers = res.headers;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        outcome.body = text;
        outcome.complete = res.complete;
        resolve(outcome);
      });
      res.on('error', failed(resolve));
    });
    req.on('error', failed(resolve));
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/** GET /healthz on a connection of its own (fetch would reuse a pooled one): its status, or the socket's error code. */
function probeNewConnection(base: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request(`${base}/healthz`, { agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
      res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.end();
  });
}

/** A 503 of the drain: the envelope, its request id, Retry-After and Connection: close. */
function expectRefusedWhileDraining(status: number | undefined, headers: Record<string, string | string[] | undefined>, body: string, what: string) {
  expect(status, `${what}: ${body.slice(0, 300)}`).toBe(503);
  const error = JSON.parse(body).error;
  expect(error, what).toMatchObject({ code: 'service_unavailable', type: 'internal_error' });
  expect(error.request_id, what).toBe(headers['x-request-id']);
  expect(headers['retry-after'], what).toBe('1');
  expect(headers.connection, what).toBe('close');
}

/**
 * One round on a listening server: idle keep-alive connections, a GraphQL request held in flight (its headers read,
 * its body not sent), 50 requests written, SIGTERM. While the held request keeps the drain open: a request on each
 * keep-alive connection is answered 503, and new connections are refused. Then the held request is answered, and the
 * process exits 0. Returns the leads acknowledged (201) and a line for the log.
 */
async function drainRound(server: ServerProcess, target: DrainTarget, port: number, round: number) {
  const healthz = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  const keepAlive = await Promise.all(Array.from({ length: 3 }, () => openRawConnection(port)));
  for (const c of keepAlive) expect((await c.exchange(healthz)).status).toBe(200);
  const query = JSON.stringify({ query: '{ vendorCategories { slug } }' });
  const held = await openRawConnection(port);
  held.write(
    `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${target.auth.authorization}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(query)}\r\nExpect: 100-continue\r\n\r\n`,
  );
  // Node sends 100 Continue as it hands the request to the app: it is in flight from here on.
  await held.waitFor('HTTP/1.1 100 Continue');

  let written = 0;
  let allWritten!: () => void;
  const sent = new Promise<void>((resolve) => (allWritten = resolve));
  const outcomes = Promise.all(Array.from({ length: 50 }, (_v, i) => sendInFlight(target, round, i, () => ++written === 50 && allWritten())));
  await sent;
  // The signal as soon as the last request has left this process: most are still being answered, some not yet read.
  const signalled = performance.now();
  server.child.kill('SIGTERM');
  await server.waitFor('"msg":"draining"', 10_000);

  // An open keep-alive connection is answered while the drain runs, and told it is closed.
  for (const [n, c] of keepAlive.entries()) {
    const answer = await c.exchange(healthz).catch((e: Error) => ({ status: undefined, headers: {}, body: e.message }));
    expectRefusedWhileDraining(answer.status, answer.headers, answer.body, `keep-alive connection ${n}`);
  }
  // A new connection once the listener has closed: refused by the kernel, never accepted and then reset.
  await server.waitFor('drain: no longer accepting connections', 10_000);
  const probes: string[] = [];
  for (let n = 0; n < 3; n++) probes.push(await probeNewConnection(target.base));
  expect(probes, 'new connections while draining').toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);

  const answer = await held.exchange(query);
  expect([answer.status, answer.headers.connection], answer.body.slice(0, 300)).toEqual([200, 'close']);
  expect(JSON.parse(answer.body).data.vendorCategories.length).toBeGreaterThan(0);
  const code = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r('still running'), 20_000))]);
  const exitedAfter = performance.now() - signalled;
  const results = await outcomes;
  const output = server.output();

  // Every request: a whole HTTP response (no reset, no hang-up, the body as long as it said).
  expect(results.filter((r) => r.error || !r.complete).map((r) => `${r.i} ${r.kind}: ${r.error ?? 'incomplete'}`)).toEqual([]);
  for (const r of results) {
    const what = `${r.i} ${r.kind}`;
    const length = r.headers!['content-length'];
    if (length !== undefined) expect(Buffer.byteLength(r.body!), what).toBe(Number(length));
    // Read before the drain began: served. After: refused with nothing done, and told to retry.
    if (r.status === 503) expectRefusedWhileDraining(r.status, r.headers!, r.body!, what);
    else expect(r.status, `${what}: ${r.body?.slice(0, 300)}`).toBe(r.kind === 'search' ? 200 : 201);
  }
  // The server's own count of what it had read when the drain began (the held request among them): all served.
  const inFlight = Number(/"inFlight":(\d+),[^\n]*"msg":"drain: finishing the requests in flight"/.exec(output)?.[1]);
  const served = results.filter((r) => r.status !== 503).length;
  expect(served + 1, 'requests served').toBeGreaterThanOrEqual(inFlight);
  expect(code, output.slice(-2000)).toBe(0);
  expect(output).toContain('"msg":"stopped"');
  expect(output).not.toContain('requests still running');

  const accepting = /"accepted":(\d+),"ms":(\d+),"msg":"drain: no longer accepting connections"/.exec(output);
  return {
    leads: results.filter((r) => r.status === 201).map((r) => JSON.parse(r.body!).data.inquiry_id as string),
    summary:
      `${inFlight} in flight at the signal, answered ${countOf(results.map((r) => `${r.kind} ${r.status}`))}; ` +
      `listener closed after ${accepting?.[1]} more accepted, ${accepting?.[2]} ms; keep-alive 503 x${keepAlive.length}; ` +
      `new connections ${countOf(probes)}; exit ${code} after ${Math.round(exitedAfter)} ms`,
  };
}

/**
 * A data directory the first test's start seeded, and its demo key: the drain test restarts on it rather than seed
 * its own (20 to 45 s), and seeds its own when run alone.
 */
let seeded: { dataDir: string; key: string } | undefined;

describe('the server process (npm start)', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('migrates and seeds an empty DATA_DIR, prints a working demo key, refuses a second server, drains on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wv-server-'));
    dirs.push(dataDir);
    const port = await freePort();
    // Vite puts its own BASE_URL ("/") into the test process's environment; the server needs a real origin.
    const metricsPort = await freePort();
    const first = startEmbedded({
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
      BASE_URL: `http://127.0.0.1:${port}`,
      METRICS_PORT: String(metricsPort),
    });
    children.push(first.child);
    await first.waitFor('Demo API key');
    // stdout and stderr are two pipes: the log line written just before the banner may arrive after it.
    await first.waitFor('"msg":"listening"');
    const key = /Demo API key[^:]*: (wv_live_\w+)/.exec(first.output())![1];
    expect(first.output()).not.toMatch(new RegExp(`"[^"]*":"[^"]*${key}`)); // printed once, never inside a log line
    // stdout is the JSON log stream only; the banner and the key went to stderr.
    // Complete lines only: the last one may still be arriving.
    for (const line of first.stdout().split('\n').slice(0, -1).filter(Boolean)) expect(() => JSON.parse(line), line).not.toThrow();
    expect(first.stdout()).not.toContain(key);
    expect(first.stdout()).toContain('"host":"127.0.0.1"');

    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'up' });
    const venues = await fetch(`http://127.0.0.1:${port}/api/v1/venues?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(venues.status).toBe(200);
    expect((await venues.json()).pagination.total_count).toBeGreaterThanOrEqual(1500);
    // Metrics on their own port, not on the API's.
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/^http_requests_total\{surface="rest",route="\/api\/v1\/venues",method="GET",status="200"\} 1$/m);
    expect(Number(/^db_query_duration_seconds_count (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    expect(metrics).toMatch(/^rate_limit_store_state\{state="memory"\} 1$/m);
    expect(metrics).toMatch(/^db_pool_max_connections 4$/m); // the embedded database's pool
    expect(first.stdout()).toContain('"msg":"metrics on GET /metrics"');
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);

    const second = startEmbedded({ DATA_DIR: dataDir, PORT: String(await freePort()), BASE_URL: 'http://127.0.0.1' });
    children.push(second.child);
    const secondCode = await Promise.race([second.exited, new Promise((r) => setTimeout(() => r('still running'), 30_000))]);
    expect(secondCode, second.output()).not.toBe(0);
    expect(secondCode, second.output()).not.toBe('still running');
    expect(second.output()).toContain('is in use by another process');

    first.child.kill('SIGTERM');
    const firstCode = await Promise.race([first.exited, new Promise((r) => setTimeout(() => r('still running'), 20_000))]);
    expect(firstCode, first.output().slice(-2000)).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');
    // The lock is released and the data is intact: the directory opens again with no migration pending.
    const reopened = await openDatabase({ dataDir });
    expect(await reopened.prisma.venue.count()).toBeGreaterThanOrEqual(1500);
    // The first start vacuumed after its seed: every catalogue page is in the visibility map, so counts read an index.
    const maps = await reopened.readRows<{ table: string; pages: number; visible: number }>(
      `SELECT relname AS table, relpages AS pages, relallvisible AS visible FROM pg_class WHERE relname IN ('Venue', 'Vendor') ORDER BY relname`,
      [],
    );
    expect(maps.map((m) => m.table)).toEqual(['Vendor', 'Venue']);
    for (const m of maps) expect(m.visible, m.table).toBe(m.pages);
    for (const m of maps) expect(m.pages, m.table).toBeGreaterThan(0);
    await reopened.close();
    seeded = { dataDir, key };
  }, 150_000);

  it(`SIGTERM with 50 requests in flight, ${DRAIN_ROUNDS} restarts in a row: every request answered whole, nothing reset, new connections refused, exit 0`, async () => {
    const dataDir = seeded?.dataDir ?? (await mkdtemp(join(tmpdir(), 'wv-server-')));
    if (!seeded) dirs.push(dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let target: DrainTarget | undefined;
    const acknowledged: string[] = [];
    const began = performance.now();
    for (let round = 0; round < DRAIN_ROUNDS; round++) {
      const started = performance.now();
      const server = startEmbedded({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', BASE_URL: base });
      children.push(server.child);
      await server.waitFor('"msg":"listening"');
      // Each process counts the demo key's requests anew: 50 a round and 2 lookups fit its 60 a minute.
      target ??= await drainTarget(base, seeded?.key ?? (await demoKeyOf(server)));
      const result = await drainRound(server, target, port, round);
      acknowledged.push(...result.leads);
      console.log(`[server-process] drain round ${round + 1}/${DRAIN_ROUNDS} (${Math.round(performance.now() - started)} ms): ${result.summary}`);
    }
    console.log(`[server-process] ${DRAIN_ROUNDS} drain rounds in ${Math.round(performance.now() - began)} ms`);

    // Every acknowledged lead of every round is in the data directory, once, under the id its 201 gave.
    const reopened = await openDatabase({ dataDir });
    try {
      const stored = await reopened.prisma.inquiry.findMany({ select: { id: true, guestName: true } });
      expect(stored.map((r) => r.id).sort()).toEqual(acknowledged.sort());
      expect(new Set(stored.map((r) => r.guestName)).size).toBe(acknowledged.length);
    } finally {
      await reopened.close();
    }
  }, 600_000);

  it('fixes the search totals that writes past the triggers left wrong before it listens, and logs what it fixed', async () => {
    expect(seeded, 'the first test seeds the data directory this one starts on').toBeDefined();
    const { dataDir, key } = seeded!;
    // Venues unpublished where no trigger fires, as a restore with --disable-triggers or a replica session writes.
    const db = await openDatabase({ dataDir });
    let published: number;
    try {
      await db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
        await tx.$executeRawUnsafe(`UPDATE "Venue" SET published = false WHERE id IN (SELECT id FROM "Venue" WHERE published ORDER BY slug LIMIT 3)`);
      });
      published = await db.prisma.venue.count({ where: { published: true } });
      const [stale] = await db.readRows<{ venues: number }>(
        `SELECT venues FROM "PublishedVenueCount" WHERE amenity = '' AND "otherAmenity" = ''`,
        [],
      );
      expect(stale.venues).toBe(published + 3);
    } finally {
      await db.close();
    }
    const port = await freePort();
    const server = startEmbedded({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', BASE_URL: `http://127.0.0.1:${port}` });
    children.push(server.child);
    await server.waitFor('"msg":"listening"');
    // The embedded database has one session: the recount runs before the server listens.
    const fixedAt = server.output().indexOf('venue search totals had drifted; fixed');
    expect(fixedAt).toBeGreaterThanOrEqual(0);
    expect(fixedAt).toBeLessThan(server.output().indexOf('"msg":"listening"'));
    const venues = await fetch(`http://127.0.0.1:${port}/api/v1/venues?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect((await venues.json()).pagination.total_count).toBe(published);
    await server.stop();
  }, 120_000);

  it('SIGTERM during the first start (seeding) exits 0 at once; the data directory opens again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wv-server-'));
    dirs.push(dataDir);
    const port = await freePort();
    const server = startEmbedded({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', BASE_URL: `http://127.0.0.1:${port}` });
    children.push(server.child);
    await server.waitFor('seeding the demo catalogue');
    server.child.kill('SIGTERM');
    const code = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r('still running'), 30_000))]);
    expect(code, server.output().slice(-2000)).toBe(0);
    expect(server.output()).toContain('stopping during start-up');
    expect(server.output()).not.toMatch(/ReferenceError|at .+\.js:\d+/);
    // The database process notices its parent is gone, closes PGlite and lets go of the lock within seconds.
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        await (await openDatabase({ dataDir })).close();
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }, 120_000);
});
