import { describe, expect, it } from 'vitest';
import { apiKeyLeaseMs, parseEnv } from '../../src/config/env.js';

describe('environment', () => {
  it('HOST defaults to 127.0.0.1 (a laptop server stays private); containers set 0.0.0.0', () => {
    expect(parseEnv({}).HOST).toBe('127.0.0.1');
    expect(parseEnv({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('DATABASE_PREPARED_STATEMENTS defaults to true; false (a transaction-mode pooler) runs every statement unnamed', () => {
    expect(parseEnv({}).DATABASE_PREPARED_STATEMENTS).toBe(true);
    expect(parseEnv({ DATABASE_PREPARED_STATEMENTS: 'false' }).DATABASE_PREPARED_STATEMENTS).toBe(false);
    expect(parseEnv({ DATABASE_PREPARED_STATEMENTS: '0' }).DATABASE_PREPARED_STATEMENTS).toBe(false);
    expect(() => parseEnv({ DATABASE_PREPARED_STATEMENTS: 'no' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
  });

  it('MIGRATE_ON_START defaults to true; false leaves migrations to the release step', () => {
    expect(parseEnv({}).MIGRATE_ON_START).toBe(true);
    expect(parseEnv({ MIGRATE_ON_START: 'false' }).MIGRATE_ON_START).toBe(false);
    expect(parseEnv({ MIGRATE_ON_START: '0' }).MIGRATE_ON_START).toBe(false);
    expect(() => parseEnv({ MIGRATE_ON_START: 'maybe' })).toThrow(/MIGRATE_ON_START/);
  });

  it('PUBLIC_SITE_URL: unset by default; an absolute http(s) URL, a path allowed, its trailing slash dropped', () => {
    expect(parseEnv({}).PUBLIC_SITE_URL).toBeUndefined();
    expect(parseEnv({ PUBLIC_SITE_URL: 'https://www.weddings.example/' }).PUBLIC_SITE_URL).toBe('https://www.weddings.example');
    expect(parseEnv({ PUBLIC_SITE_URL: 'http://localhost:3000/plan//' }).PUBLIC_SITE_URL).toBe('http://localhost:3000/plan');
    for (const bad of [
      'www.weddings.example',
      '/venues',
      'ftp://weddings.example',
      'https://weddings.example/?ref=api',
      'https://u:p@weddings.example',
    ]) {
      expect(() => parseEnv({ PUBLIC_SITE_URL: bad }), bad).toThrow(
        'Invalid environment: PUBLIC_SITE_URL: PUBLIC_SITE_URL must be an absolute http:// or https:// URL without credentials, query or fragment',
      );
    }
  });

  it('API_KEY_LEASE_MS defaults to 1000; 0 reads every key; at most 10000; the keys CLI reads it alone', () => {
    expect(parseEnv({}).API_KEY_LEASE_MS).toBe(1000);
    expect(parseEnv({ API_KEY_LEASE_MS: '0' }).API_KEY_LEASE_MS).toBe(0);
    expect(parseEnv({ API_KEY_LEASE_MS: '10000' }).API_KEY_LEASE_MS).toBe(10_000);
    for (const bad of ['10001', '-1', '1.5', 'soon']) expect(() => parseEnv({ API_KEY_LEASE_MS: bad })).toThrow(/API_KEY_LEASE_MS/);
    expect(apiKeyLeaseMs({})).toBe(1000);
    expect(apiKeyLeaseMs({ API_KEY_LEASE_MS: '250' })).toBe(250);
    expect(() => apiKeyLeaseMs({ API_KEY_LEASE_MS: '10001' })).toThrow();
  });
});
