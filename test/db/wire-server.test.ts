// The embedded database's wire protocol endpoint multiplexes many connections onto PGlite's one session: results must
// never cross connections, and no statement may run inside another connection's transaction.
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketFile } from '../../src/db/embedded/socket-path.js';
import { serveWireProtocol, type WireServer } from '../../src/db/embedded/wire-server.js';

let pglite: PGlite;
let server: WireServer;
let dir: string;
const pools: pg.Pool[] = [];
const pool = (max: number) => {
  const created = new pg.Pool({ host: dir, user: 'postgres', database: 'postgres', max });
  pools.push(created);
  return created;
};

beforeAll(async () => {
  pglite = await PGlite.create();
  dir = await mkdtemp(join(tmpdir(), 'wv-wire-'));
  server = await serveWireProtocol(pglite, socketFile(dir));
  await pglite.exec('CREATE TABLE ledger (id serial PRIMARY KEY, note text)');
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await server.close();
  await pglite.close();
  await rm(dir, { recursive: true, force: true });
});

describe('one PGlite session, many connections', () => {
  it('returns every result to its own sender: 300 statements with ~300 KB parameters on 10 connections', async () => {
    const connections = pool(10);
    const answers = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        // Each parameter spans many socket reads; its own number is inside it, so a crossed result cannot pass.
        const payload = `${i}:${'x'.repeat(300_000 + i)}`;
        const { rows } = await connections.query('SELECT $1::int AS i, split_part($2::text, $3, 1)::int AS echoed, length($2::text) AS n', [
          i,
          payload,
          ':',
        ]);
        return rows[0].i === i && rows[0].echoed === i && rows[0].n === payload.length;
      }),
    );
    expect(answers.filter((ok) => !ok)).toHaveLength(0);
  }, 120_000);

  it('keeps an open transaction to itself: others wait, never run inside it, and see only committed rows', async () => {
    const connections = pool(3);
    const writer = await connections.connect();
    const reader = await connections.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(`INSERT INTO ledger (note) VALUES ('pending')`);
      let readerDone = false;
      const read = reader.query(`SELECT count(*)::int AS n FROM ledger WHERE note = 'pending'`).then((r) => {
        readerDone = true;
        return r.rows[0].n as number;
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(readerDone).toBe(false); // queued behind the transaction, not run inside it
      await writer.query('ROLLBACK');
      expect(await read).toBe(0);
    } finally {
      writer.release();
      reader.release();
    }
  });

  it('rolls back the transaction of a connection that goes away, then serves the others', async () => {
    const dropped = new pg.Client({ host: dir, user: 'postgres', database: 'postgres' });
    dropped.on('error', () => {}); // its own socket cut below
    await dropped.connect();
    await dropped.query('BEGIN');
    await dropped.query(`INSERT INTO ledger (note) VALUES ('abandoned')`);
    // No COMMIT: the socket is cut as a crashed client's would be.
    (dropped as unknown as { connection: { stream: import('node:net').Socket } }).connection.stream.destroy();
    const { rows } = await pool(1).query(`SELECT count(*)::int AS n FROM ledger WHERE note = 'abandoned'`);
    expect(rows[0].n).toBe(0);
    const status = await pool(1).query(`SELECT 'idle' AS state`);
    expect(status.rows[0].state).toBe('idle');
  });

  it('frames messages however the bytes are split: a startup and query sent one byte at a time', async () => {
    const socket = connect(socketFile(dir));
    await new Promise((resolve) => socket.once('connect', resolve));
    const params = Buffer.from('user\0postgres\0database\0postgres\0\0');
    const startup = Buffer.alloc(8 + params.length);
    startup.writeInt32BE(startup.length, 0);
    startup.writeInt32BE(196608, 4);
    params.copy(startup, 8);
    const sql = Buffer.from(`SELECT 'split-ok'\0`);
    const query = Buffer.concat([Buffer.from('Q'), Buffer.alloc(4), sql]);
    query.writeInt32BE(4 + sql.length, 1);
    let received = Buffer.alloc(0);
    socket.on('data', (chunk) => (received = Buffer.concat([received, chunk])));
    for (const byte of Buffer.concat([startup, query])) {
      socket.write(Buffer.from([byte]));
      await new Promise((r) => setImmediate(r));
    }
    const deadline = Date.now() + 5_000;
    while (!received.includes('split-ok') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    socket.destroy();
    expect(received.toString('latin1')).toContain('split-ok');
  });

  it('refuses TLS politely (the socket is local) and still serves the connection in clear', async () => {
    const socket = connect(socketFile(dir));
    await new Promise((resolve) => socket.once('connect', resolve));
    const ssl = Buffer.alloc(8);
    ssl.writeInt32BE(8, 0);
    ssl.writeInt32BE(80877103, 4);
    socket.write(ssl);
    const [answer] = (await new Promise((resolve) => socket.once('data', (d) => resolve([d])))) as Buffer[];
    socket.destroy();
    expect(answer.toString()).toBe('N');
  });

  it('keeps nothing of what it sent: 1,000 answers of 40 rows add under 3 MB to the heap (PGlite kept every row)', async () => {
    // execProtocolRaw parsed each answer into objects and kept them until an execProtocol call; the database
    // process held every row it had sent (docs/performance.md, Levers).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const connections = pool(4);
    const query = 'SELECT g AS n, repeat(md5(g::text), 6) AS filler FROM generate_series(1, 40) AS g';
    await connections.query(query);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 250; i++) {
      const answers = await Promise.all(Array.from({ length: 4 }, () => connections.query(query)));
      expect(answers.every((a) => a.rows.length === 40)).toBe(true);
    }
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(3_000_000);
  }, 60_000);
});
