/** How the bench starts its servers: CPUs, time-outs, the API's ready line, the environment every child starts from. */

/** CPU 0 serves (API server and baselines), CPU 1 generates load (this process). */
export const SERVER_CPU = 0;
/** The load generators' CPU (bench/run.ts pins this process there; OPEN's generator process runs there too). */
export const LOAD_CPU = 1;
/** Seeding the demo catalogue on first start takes a while on this class of machine. */
export const FIRST_START_TIMEOUT_MS = 240_000;
/** A later start (the data directory already seeded). */
export const START_TIMEOUT_MS = 60_000;
/** MIX-warm (and MIXr-warm) compares this many evenly spaced answers with the cold server's. */
export const WARM_SAMPLE = 200;

export const READY = /ready in ([\d.]+) s[^\n]*\n[\s\S]*?(?:Demo API key[^:\n]*:\s*(\S+)|Create a key)/;

/** The environment every child starts from: no database, Redis or URL settings leak in from the caller's shell. */
export function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'BASE_URL', 'CURSOR_SECRET', 'PORT', 'DATA_DIR', 'LOG_LEVEL', 'BENCH']) delete env[name];
  return env;
}
