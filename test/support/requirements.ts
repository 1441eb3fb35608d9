// What parts of the suite need from the machine, in one place: test files skip a group by these conditions, and the
// run's global setup prints every group that skips and why, so a green run never hides what it did not test.
import { existsSync } from 'node:fs';
import { hasPostgresServer, hasRedisServer } from './processes.js';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Requirement {
  /** What is missing, as the run prints it. */
  missing: string;
  /** How to provide it. */
  remedy: string;
  /** The groups that skip without it. */
  skips: string;
  met: boolean;
}

export const requirements: Requirement[] = [
  {
    missing: `no chromium at ${chromiumPath}`,
    remedy: 'apt-get install -y chromium, or set CHROMIUM_PATH',
    skips: 'browser tests (test/browser)',
    met: existsSync(chromiumPath),
  },
  {
    missing: 'TEST_DATABASE_URL is not set',
    remedy: 'TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test',
    skips: 'PostgreSQL-only groups (prepared statement names, pooled-connection faults, concurrent migrations, two processes)',
    met: Boolean(process.env.TEST_DATABASE_URL),
  },
  {
    missing: 'TEST_REDIS_URL is not set',
    remedy: 'TEST_REDIS_URL=redis://127.0.0.1:6379',
    skips: 'groups on a shared Redis (limiter stores on Redis, two nodes sharing limits and cached answers)',
    met: Boolean(process.env.TEST_REDIS_URL),
  },
  {
    missing: 'redis-server is not on PATH',
    remedy: 'apt-get install -y redis-server',
    skips: 'Redis fault groups (a private Redis paused, killed, unreachable)',
    met: hasRedisServer,
  },
  {
    missing: 'FAULT_TESTS is not 1',
    remedy: `set FAULT_TESTS=1; it needs redis-server and the PostgreSQL server binaries${hasPostgresServer ? '' : ', not found here'}`,
    skips: 'slow fault groups (PostgreSQL restarted mid-traffic, kill -9 of the embedded server)',
    met: process.env.FAULT_TESTS === '1',
  },
];

/** One line per group that skips in this run, or none. */
export function skipReport(): string[] {
  return requirements.filter((r) => !r.met).map((r) => `[skipped] ${r.skips}: ${r.missing} (${r.remedy})`);
}
