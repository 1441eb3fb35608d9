import { openDatabase } from '../src/db/client.js';
import { createApp } from '../src/app.js';
import { createApiKey } from '../src/auth/api-keys.service.js';
import { createLogger } from '../src/logging/logger.js';
import { sharedSecret } from '../src/db/secrets.js';
import { UNREACHABLE_POLICY } from '../src/limits/limits.policy.js';
import { mixAnswerProblem } from './mix-replay.js';
import { answerOf, discover, sqlCountCases, type Answer, type BenchRequest, type Discovery, type Send } from './cases.js';

export interface StatementCount {
  /** Statements of the second identical request (the first may warm caches); includes 1 for the API key lookup. */
  statements: number;
  firstRequest: number;
  /** The statements, shortened, to explain a count. */
  sql: string[];
  /** Time the database spent on them (Prisma's query durations) and the whole in-process request, ms. */
  sqlMs: number;
  requestMs: number;
  problem: string | null;
}

/** SQL statements per MIX request over an evenly spaced sample of the list (including 1 for the key lookup). */
export interface MixSql {
  sampled: number;
  statements: number;
  perRequest: number;
  /** Sampled requests that did not answer a usable 200 in-process. */
  failed: string[];
}

const BASE_URL = 'http://127.0.0.1';
const KEY_BATCH = 50;

/**
 * Counts the SQL statements each API case issues, in-process: the app on its own database handle (server stopped,
 * or a scratch PostgreSQL database), one request at a time, every Prisma query event counted.
 * Also creates the partner keys the load runs use (`keyCount`), and returns them.
 */
export async function countStatements(
  target: { dataDir: string; databaseUrl?: string },
  keyCount: number,
  extra: { cursorSecret?: string; mix?: BenchRequest[]; mixSample?: number } = {},
): Promise<{ keys: string[]; counts: Record<string, StatementCount>; discovery: Discovery; mixSql: MixSql | null }> {
  const db = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, migrate: true });
  try {
    const keys: string[] = [];
    for (let made = 0; made < keyCount; made += KEY_BATCH) {
      const batch = Array.from({ length: Math.min(KEY_BATCH, keyCount - made) }, (_, i) =>
        createApiKey({ tier: 'partner', name: `bench ${made + i + 1}` }, db),
      );
      keys.push(...(await Promise.all(batch)).map((k) => k.key));
    }
    const key = keys[0];
    const app = createApp({
      prisma: db.prisma,
      readRows: db.readRows,
      log: createLogger({ level: 'silent' }),
      baseUrl: BASE_URL,
      cursorSecret: extra.cursorSecret ?? (await sharedSecret(db.prisma, 'cursor')),
      // The limiter keeps its logs in memory and issues no SQL; its numbers only must not refuse the bench's requests.
      limiter: { policy: UNREACHABLE_POLICY },
    });
    const send: Send = async (request: BenchRequest): Promise<Answer> => {
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      if (request.body) headers['content-type'] = 'application/json';
      return answerOf(
        await app.fetch(
          new Request(`${BASE_URL}${request.path}`, { method: request.method, headers: { ...headers, ...request.headers }, body: request.body }),
        ),
      );
    };
    const discovery = await discover(send);
    const counts: Record<string, StatementCount> = {};
    for (const c of sqlCountCases(discovery)) {
      const counted = async () => {
        const sql: string[] = [];
        let sqlMs = 0;
        const unsubscribe = db.onQuery((event) => {
          sql.push(event.query.replace(/\s+/g, ' ').slice(0, 160));
          sqlMs += event.durationMs;
        });
        const started = performance.now();
        try {
          const answer = await send(c.request);
          return { answer, sql, sqlMs, requestMs: performance.now() - started };
        } finally {
          unsubscribe();
        }
      };
      const first = await counted();
      const second = await counted();
      counts[c.id] = {
        statements: second.sql.length,
        firstRequest: first.sql.length,
        sql: second.sql,
        sqlMs: Math.round(second.sqlMs * 100) / 100,
        requestMs: Math.round(second.requestMs * 100) / 100,
        problem: c.check(second.answer),
      };
    }
    // MIX: every k-th entry once (cold, as the replay sends it), counted the same way.
    let mixSql: MixSql | null = null;
    if (extra.mix?.length) {
      const step = Math.max(1, Math.floor(extra.mix.length / (extra.mixSample ?? 200)));
      let statements = 0;
      let sampled = 0;
      const failed: string[] = [];
      for (let i = 0; i < extra.mix.length; i += step) {
        let n = 0;
        const unsubscribe = db.onQuery(() => n++);
        try {
          const problem = mixAnswerProblem(await send(extra.mix[i]));
          if (problem) failed.push(`#${i} ${extra.mix[i].path.slice(0, 80)}: ${problem}`);
        } finally {
          unsubscribe();
        }
        statements += n;
        sampled++;
      }
      mixSql = { sampled, statements, perRequest: Math.round((statements / sampled) * 100) / 100, failed };
    }
    await app.close();
    return { keys, counts, discovery, mixSql };
  } finally {
    await db.close();
  }
}
