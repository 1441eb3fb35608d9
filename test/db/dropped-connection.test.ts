// A connection the server drops while it is checked out between two statements (a transaction waiting on the app, a
// restart's fast shutdown) must not end the process: pg emits `error` on it, and pg-pool listens only while it is
// idle or running pool.query. Without a listener the event is an uncaught exception, which vitest reports as a
// failed run — the way it surfaced in CI, during the PostgreSQL restart fault test.
import { afterAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { createPgPool } from '../../src/db/client.js';
import { adminQuery } from '../support/database.js';

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) console.warn('[db.dropped-connection] skipped: needs TEST_DATABASE_URL (pg_terminate_backend on real PostgreSQL)');

describe.skipIf(!adminUrl)('a pooled connection the server terminates while checked out', () => {
  let pool: pg.Pool | undefined;
  afterAll(async () => {
    await pool?.end();
  });

  it('is dropped without an uncaught error; its next statement fails, and the pool answers on a new connection', async () => {
    pool = createPgPool(adminUrl!, 2);
    const held = await pool.connect();
    const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // The server's FATAL 57P01 and then the socket's end both reach `held` while no statement runs on it.
    const ended = new Promise((resolve) => (held as unknown as { connection: NodeJS.EventEmitter }).connection.once('end', resolve));
    const terminated = await adminQuery(adminUrl!, `SELECT pg_terminate_backend(${Number(rows[0].pid)}) AS ok`);
    expect(terminated.rows[0].ok).toBe(true);
    await ended;
    await new Promise((resolve) => setImmediate(resolve)); // the events the end queued

    await expect(held.query('SELECT 1')).rejects.toThrow(/not queryable|terminat/i);
    held.release();
    expect(pool.totalCount, 'the broken connection left the pool').toBe(0);
    const again = await pool.query<{ one: number }>('SELECT 1 AS one');
    expect(again.rows).toEqual([{ one: 1 }]);
  });
});
