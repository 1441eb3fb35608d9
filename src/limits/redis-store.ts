import type { Redis } from 'ioredis';
import { connectRedis, type RedisConnectionOptions } from '../db/redis.js';
import type { LogOperation, LogResult, SlidingLogStore, WindowState } from './sliding-log.js';

/**
 * One script per check-and-count, so every node sharing this Redis sees exact limits: Redis runs a script alone,
 * nothing can slip between the trim, the count of every window and the append. The same steps as applyToEntries.
 * KEYS[1] log; ARGV: now ms, mode, member, weight (entries a hit appends), then windowMs and limit per window.
 * Returns allowed, then per window: count, oldest entry (−1: none), free-at ms (−1: not full).
 */
const SLIDING_LOG_LUA = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local mode = ARGV[2]
local weight = tonumber(ARGV[4])
local n = (#ARGV - 4) / 2
local longest = 0
for i = 1, n do
  local w = tonumber(ARGV[3 + 2 * i])
  if w > longest then longest = w end
end
redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', now - longest))
if mode == 'refund' then redis.call('ZREM', key, ARGV[3]) end
local counts = {}
local allowed = 1
for i = 1, n do
  local c = redis.call('ZCOUNT', key, '(' .. string.format('%d', now - tonumber(ARGV[3 + 2 * i])), '+inf')
  counts[i] = c
  if c + weight > tonumber(ARGV[4 + 2 * i]) then allowed = 0 end
end
local hit = mode == 'hit' and allowed == 1
if hit then
  local at = string.format('%d', now)
  redis.call('ZADD', key, at, ARGV[3])
  for m = 2, weight do redis.call('ZADD', key, at, ARGV[3] .. '#' .. m) end
  redis.call('PEXPIRE', key, longest)
  for i = 1, n do counts[i] = counts[i] + weight end
end
local out = { allowed }
for i = 1, n do
  local w = tonumber(ARGV[3 + 2 * i])
  local limit = tonumber(ARGV[4 + 2 * i])
  local from = '(' .. string.format('%d', now - w)
  local oldest = -1
  local free_at = -1
  local must_expire = counts[i] + weight - limit
  if hit then must_expire = counts[i] - limit + 1 end
  if counts[i] > 0 then
    oldest = tonumber(redis.call('ZRANGEBYSCORE', key, from, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)[2])
  end
  if must_expire > 0 and must_expire <= counts[i] then
    free_at = tonumber(redis.call('ZRANGEBYSCORE', key, from, '+inf', 'WITHSCORES', 'LIMIT', must_expire - 1, 1)[2]) + w
  end
  out[#out + 1] = counts[i]
  out[#out + 1] = oldest
  out[#out + 1] = free_at
end
return out
`;

export type RedisStoreOptions = Omit<RedisConnectionOptions, 'keyPrefix'> & {
  /** @default 'wv:rl:' */
  keyPrefix?: string;
};

type ScriptedRedis = Redis & { slidingLog(key: string, ...args: (string | number)[]): Promise<number[]> };

/** Limiter state in Redis (one Lua script per check-and-count), on a fail-fast connection (src/db/redis.ts). */
export function createRedisStore(options: RedisStoreOptions): SlidingLogStore & { redis: Redis } {
  const connection = connectRedis({ ...options, keyPrefix: options.keyPrefix ?? 'wv:rl:' });
  const redis = connection.redis as ScriptedRedis;
  redis.defineCommand('slidingLog', { numberOfKeys: 1, lua: SLIDING_LOG_LUA });

  return {
    kind: 'redis',
    redis,
    async apply(op: LogOperation): Promise<LogResult> {
      await connection.firstConnection();
      const args = op.rules.flatMap((r) => [r.windowMs, r.limit]);
      const reply = await redis.slidingLog(op.key, op.nowMs, op.mode, op.member, op.weight ?? 1, ...args);
      const windows = op.rules.map((_r, i): WindowState => {
        const [count, oldest, freeAt] = reply.slice(1 + 3 * i, 4 + 3 * i);
        return { count, oldestMs: oldest < 0 ? null : oldest, freeAtMs: freeAt < 0 ? null : freeAt };
      });
      return { allowed: reply[0] === 1, windows };
    },
    close: connection.close,
  };
}
