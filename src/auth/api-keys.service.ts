import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { RowReader } from '../db/row-reader.js';
import type { KeyLease } from './key-lease.js';
import { countKeys, insertKey, markRevoked, prefixTaken, readKeyByPrefix, readKeys } from './api-keys.queries.js';

/** Every live key starts with this (§5: "fixed live-key prefix format"). */
export const LIVE_KEY_PREFIX = 'wv_live_';
/** Random part: 32 base62 characters ≈ 190 bits. */
const RANDOM_LENGTH = 32;
/** The public lookup prefix is the fixed prefix plus this many random characters; it is safe to show and log. */
const LOOKUP_LENGTH = 8;
const KEY_SHAPE = new RegExp(`^${LIVE_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH}}$`);
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const API_TIERS = ['free', 'pro', 'partner'] as const;
export type ApiTier = (typeof API_TIERS)[number];

/** What a request knows about its caller once the key is verified. */
export interface ApiKeyIdentity {
  id: string;
  prefix: string;
  tier: ApiTier;
  /** The keyless assistant surface (§5.2): `id` is `assistant:<client IP>`, its budgets are the assistant's. */
  keyless?: true;
}

export interface ApiKeySummary extends ApiKeyIdentity {
  name: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above it are dropped so every character is equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

const sha256 = (key: string) => hash('sha256', key, 'buffer');

/** Lookup prefix of a well-formed key; null when the text cannot be one of our keys. */
export function lookupPrefixOf(key: string): string | null {
  return KEY_SHAPE.test(key) ? key.slice(0, LIVE_KEY_PREFIX.length + LOOKUP_LENGTH) : null;
}

/** Issues a key. The whole key is returned once and never stored: only its SHA-256 is kept. */
export async function createApiKey(
  input: { tier: ApiTier; name?: string | null },
  deps: { prisma: PrismaClient },
): Promise<{ key: string; summary: ApiKeySummary }> {
  for (;;) {
    const key = LIVE_KEY_PREFIX + randomBase62(RANDOM_LENGTH);
    const prefix = lookupPrefixOf(key)!;
    if (await prefixTaken(prefix, deps.prisma)) continue; // 8 base62 characters collide rarely; draw again rather than fail.
    const row = await insertKey({ prefix, hash: sha256(key).toString('hex'), tier: input.tier, name: input.name ?? null }, deps.prisma);
    return { key, summary: toSummary(row) };
  }
}

/** What a request's key check reads of the key's row; `hash` decoded once per read, not per request under a lease. */
export interface KeyRow {
  id: string;
  prefix: string;
  hash: Uint8Array;
  tier: ApiTier;
  revoked: boolean;
}

async function readKeyRow(prefix: string, readRows: RowReader): Promise<KeyRow | undefined> {
  const row = await readKeyByPrefix(prefix, readRows);
  // A copy of its own: Buffer.from(hex) slices Node's shared 8 KB pool, and a leased row's 32 bytes would keep a
  // whole slab alive for as long as the lease holds the row.
  return row && { ...row, tier: row.tier as ApiTier, hash: new Uint8Array(Buffer.from(row.hash, 'hex')) };
}

/**
 * The identity behind a presented key, or null for an unknown, malformed or revoked key (all answered alike, §5.4).
 * The stored hash is compared in constant time so response timing reveals nothing about it. With a lease the row may
 * come from an earlier request's read (src/auth/key-lease.ts); the presented key is hashed and compared every time.
 */
export async function verifyApiKey(key: string, deps: { readRows: RowReader; keyLease?: KeyLease<KeyRow> }): Promise<ApiKeyIdentity | null> {
  const prefix = lookupPrefixOf(key);
  if (!prefix) return null;
  const read = () => readKeyRow(prefix, deps.readRows);
  const row = deps.keyLease ? await deps.keyLease.row(prefix, read) : await read();
  if (!row || row.revoked) return null;
  const presented = sha256(key);
  if (row.hash.length !== presented.length || !timingSafeEqual(row.hash, presented)) return null;
  return { id: row.id, prefix: row.prefix, tier: row.tier };
}

export async function listApiKeys(deps: { prisma: PrismaClient }): Promise<ApiKeySummary[]> {
  return (await readKeys(deps.prisma)).map(toSummary);
}

/**
 * Revokes by lookup prefix; returns false when no active key has it. A node holding the key's row under a lease
 * (src/auth/key-lease.ts) refuses it once that lease ends: the keys CLI waits that long before it reports.
 */
export async function revokeApiKey(prefix: string, deps: { prisma: PrismaClient; now?: () => Date }): Promise<boolean> {
  return markRevoked(prefix, (deps.now ?? (() => new Date()))(), deps.prisma);
}

export async function countApiKeys(deps: { prisma: PrismaClient }): Promise<number> {
  return countKeys(deps.prisma);
}

function toSummary(row: { id: string; prefix: string; tier: ApiTier; name: string | null; createdAt: Date; revokedAt: Date | null }): ApiKeySummary {
  return { id: row.id, prefix: row.prefix, tier: row.tier, name: row.name, createdAt: row.createdAt, revokedAt: row.revokedAt };
}
