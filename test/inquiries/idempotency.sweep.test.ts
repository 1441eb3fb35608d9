// Expired idempotency records are swept (§4.12 keys are remembered 24 h); live ones and in-progress claims stay.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEY_TTL_MS, releaseClaim, releaseClaimsOfPreviousRun, sweepExpiredIdempotency } from '../../src/inquiries/idempotency.js';
import { testClock } from '../limits/clock.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ empty: true });
});
afterAll(() => t.close());

describe('idempotency record sweep', () => {
  it('deletes records past their 24 h memory, keeps the rest, with an injected clock', async () => {
    const clock = testClock();
    const apiKeyId = (await t.db.prisma.apiKey.findFirstOrThrow()).id;
    const record = (key: string, createdMs: number, lockedUntilMs: number, state = 'completed') =>
      t.db.prisma.idempotencyRecord.create({
        data: {
          apiKeyId,
          scope: 'venue',
          key,
          bodyHash: 'h',
          state,
          token: randomUUID(),
          lockedUntil: new Date(lockedUntilMs),
          createdAt: new Date(createdMs),
          expiresAt: new Date(createdMs + KEY_TTL_MS),
        },
      });
    const now = clock.ms;
    await record('expired', now - KEY_TTL_MS - 1, now - KEY_TTL_MS + 30_000);
    await record('exactly-24h', now - KEY_TTL_MS, now - KEY_TTL_MS + 30_000);
    await record('fresh', now - 60_000, now - 30_000);
    await record('claim-in-flight', now - KEY_TTL_MS - 1, now + 30_000, 'in_progress');
    expect(await sweepExpiredIdempotency({ prisma: t.db.prisma, now: clock.now })).toBe(2);
    const left = (await t.db.prisma.idempotencyRecord.findMany({ select: { key: true } })).map((r) => r.key).sort();
    expect(left).toEqual(['claim-in-flight', 'fresh']);
    clock.advance(KEY_TTL_MS);
    expect(await sweepExpiredIdempotency({ prisma: t.db.prisma, now: clock.now })).toBe(2);
  });

  it('an embedded server starting again frees the claims its previous run left in progress, and only those', async () => {
    const apiKeyId = (await t.db.prisma.apiKey.findFirstOrThrow()).id;
    const now = Date.now();
    const record = (key: string, state: string) =>
      t.db.prisma.idempotencyRecord.create({
        data: {
          apiKeyId,
          scope: 'vendor',
          key,
          bodyHash: 'h',
          state,
          token: randomUUID(),
          lockedUntil: new Date(now + 30_000),
          createdAt: new Date(now),
          expiresAt: new Date(now + KEY_TTL_MS),
        },
      });
    await record('killed-mid-request', 'in_progress');
    await record('answered', 'completed');
    expect(await releaseClaimsOfPreviousRun({ prisma: t.db.prisma })).toBe(1);
    const left = await t.db.prisma.idempotencyRecord.findMany({ where: { scope: 'vendor' }, select: { key: true } });
    expect(left.map((r) => r.key)).toEqual(['answered']);
  });

  it('a failed request releases its claim only while in progress: a completed one (COMMIT done, acknowledgement lost) stays', async () => {
    const apiKeyId = (await t.db.prisma.apiKey.findFirstOrThrow()).id;
    const now = Date.now();
    const claimOf = async (key: string, state: string) => {
      const token = randomUUID();
      const { id } = await t.db.prisma.idempotencyRecord.create({
        data: {
          apiKeyId,
          scope: 'venue',
          key,
          bodyHash: 'h',
          state,
          token,
          lockedUntil: new Date(now + 30_000),
          createdAt: new Date(now),
          expiresAt: new Date(now + KEY_TTL_MS),
        },
      });
      return { id, token };
    };
    await releaseClaim(await claimOf('failed-before-commit', 'in_progress'), { prisma: t.db.prisma });
    await releaseClaim(await claimOf('committed-ack-lost', 'completed'), { prisma: t.db.prisma });
    const left = await t.db.prisma.idempotencyRecord.findMany({
      where: { scope: 'venue', key: { in: ['failed-before-commit', 'committed-ack-lost'] } },
    });
    expect(left.map((r) => r.key)).toEqual(['committed-ack-lost']);
  });
});
