import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Creates an empty scratch database on the DATABASE_URL server; returns its URL and a function that drops it. */
export async function createScratchDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `wedding_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      // FORCE (PostgreSQL 13+) ends connections a killed server may have left behind.
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/** Only loopback targets (or a Unix socket, empty host): the bench loads whatever it points at. */
export function isLoopback(databaseUrl: string): boolean {
  const host = new URL(databaseUrl).hostname;
  return host === '' || host === '127.0.0.1' || host === 'localhost' || host === '::1' || host === '[::1]';
}
