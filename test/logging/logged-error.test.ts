// Errors as the real logger writes them: at info a name, the codes and a short text, never a stack, a source path or
// Prisma's excerpt of our code; at debug the stacks too.
import { Writable } from 'node:stream';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { ApiError } from '../../src/errors/api-error.js';
import { BreakerOpenError } from '../../src/limits/breaker.js';
import { createLogger } from '../../src/logging/logger.js';
import { scrubMessage } from '../../src/logging/logged-error.js';
import { expectNoStacksOrPaths, loggedErrors, logLines, STACK_OR_PATH } from '../support/log-stacks.js';

// What Prisma put in the fault run's log: the call site's path, then an excerpt of the source around it.
const PRISMA_MESSAGE = [
  '',
  'Invalid `prisma.notificationOutbox.findMany()` invocation in',
  '/work/main/src/notify/dispatcher.ts:101:49',
  '',
  '  98 |  async function runOnce(): Promise<number> {',
  '  99 |    const started = now();',
  '→ 101 |    const due = await prisma.notificationOutbox.findMany(',
  "Can't reach database server at 127.0.0.1:5432",
].join('\n');

function captured(level: string) {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { log: createLogger({ level, destination }).child({ requestId: 'req_logtest' }), chunks };
}

/** The faults of a bad hour: the database gone, Redis hung, the breaker open, a constraint with the lead's e-mail. */
function faults() {
  const unreachable = new Prisma.PrismaClientKnownRequestError(PRISMA_MESSAGE, {
    code: 'P1001',
    clientVersion: '7.0.0',
    meta: { modelName: 'NotificationOutbox', driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable' } } },
  });
  const unknown = new Prisma.PrismaClientUnknownRequestError(PRISMA_MESSAGE, { clientVersion: '7.0.0' });
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect' });
  const duplicate = Object.assign(new pg.DatabaseError('duplicate key value violates unique constraint "Inquiry_email_key"', 120, 'error'), {
    code: '23505',
    detail: 'Key (guest_email)=(ada@private-mail.example) already exists.',
  });
  const wrapped = new Prisma.PrismaClientKnownRequestError(PRISMA_MESSAGE, {
    code: 'P2010',
    clientVersion: '7.0.0',
    meta: { code: '57P01', driverAdapterError: { cause: { originalCode: '57P01', originalMessage: 'terminating connection' } } },
  });
  // ApiError → TypeError → the system error under it: three levels, each with its own stack.
  const chain = new ApiError('service_unavailable', { cause: new TypeError('fetch failed', { cause: refused }) });
  return { unreachable, unknown, refused, duplicate, wrapped, chain, breaker: new BreakerOpenError() };
}

function logFaults(log: ReturnType<typeof captured>['log']) {
  const f = faults();
  log.error({ err: f.unreachable }, 'notification dispatcher poll failed');
  log.warn({ error: f.unknown }, 'under another key');
  log.warn({ err: f.refused }, 'limiter: Redis connection error');
  log.error({ err: f.duplicate }, 'inquiry: insert failed');
  log.error({ err: f.wrapped, cause: f.duplicate }, 'raw query failed');
  log.error({ err: f.chain }, 'unexpected error');
  log.warn({ err: f.breaker }, 'limiter store unreachable');
  log.error(f.unreachable); // alone: pino would take the line's msg from Prisma's message
  return f;
}

describe('errors in log lines', () => {
  it('at info: name, codes, a fixed or scrubbed text and the request id; no stack, path, excerpt or stored value', () => {
    const { log, chunks } = captured('info');
    logFaults(log);
    const lines = logLines(chunks);
    expect(lines).toHaveLength(8);
    for (const line of lines) {
      expect(line).not.toMatch(STACK_OR_PATH);
      expect(line).not.toMatch(/Invalid `prisma|→|ada@private-mail|Key \(guest_email\)/);
      expect(JSON.parse(line).requestId).toBe('req_logtest');
    }
    expect(expectNoStacksOrPaths(chunks)).toBe(8);

    const errors = loggedErrors(chunks).map((e) => e.error);
    expect(errors).toEqual([
      { name: 'PrismaClientKnownRequestError', code: 'P1001', message: 'database server unreachable' },
      { name: 'PrismaClientUnknownRequestError', message: 'Prisma request failed (no code)' },
      { name: 'Error', code: 'ECONNREFUSED', errno: -111, message: 'connect ECONNREFUSED 127.0.0.1:6379' },
      { name: 'DatabaseError', code: '23505', message: 'integrity constraint violation' },
      { name: 'PrismaClientKnownRequestError', code: 'P2010', sqlState: '57P01', message: 'raw query failed' },
      { name: 'DatabaseError', code: '23505', message: 'integrity constraint violation' },
      {
        name: 'ApiError',
        code: 'service_unavailable',
        message: expect.any(String),
        cause: {
          name: 'TypeError',
          message: 'fetch failed',
          cause: { name: 'Error', code: 'ECONNREFUSED', errno: -111, message: 'connect ECONNREFUSED 127.0.0.1:6379' },
        },
      },
      { name: 'BreakerOpenError', code: 'BREAKER_OPEN', message: 'Redis circuit breaker is open' },
      { name: 'PrismaClientKnownRequestError', code: 'P1001', message: 'database server unreachable' },
    ]);
    // An error logged alone gets our text as the line's msg, not Prisma's.
    expect(JSON.parse(lines[7]).msg).toBe('database server unreachable');
  });

  it('at debug: every stack, causes included', () => {
    const { log, chunks } = captured('debug');
    const f = logFaults(log);
    const [first, , , , , , chain] = loggedErrors(chunks).map((e) => e.error);
    expect(first.stack).toBe(f.unreachable.stack);
    expect(first.stack).toMatch(/dispatcher\.ts:101:49[\s\S]*\n\s+at /);
    expect(chain.stack).toMatch(/^ApiError/);
    expect(chain.cause?.stack).toMatch(/^TypeError: fetch failed\n\s+at /);
    expect(chain.cause?.cause?.stack).toBe(f.refused.stack);
  });

  it('a child at debug under a root at info gets stacks; bindings and plain objects are logged the same way', () => {
    const { log, chunks } = captured('info');
    const f = faults();
    log.child({}, { level: 'debug' }).warn({ err: f.refused }, 'child at debug');
    log.child({ err: f.unreachable }).warn('bound error');
    log.warn(
      { err: { message: `Command timed out\n    at Socket.<anonymous> (/work/main/node_modules/ioredis/built/Command.js:1:2)` } },
      'plain object',
    );
    log.warn({ error: 'ENOENT: no such file /work/main/src/db/x.ts' }, 'a string');
    const errors = loggedErrors(chunks).map((e) => e.error);
    expect(errors[0].stack).toBe(f.refused.stack);
    expect(logLines(chunks).slice(1).join('\n')).not.toMatch(STACK_OR_PATH);
    expect(errors.slice(1)).toEqual([
      { name: 'PrismaClientKnownRequestError', code: 'P1001', message: 'database server unreachable' },
      { name: 'Error', message: 'Command timed out' },
      { name: 'string', message: 'ENOENT: no such file [path]' },
    ]);
  });
});

describe('scrubMessage', () => {
  it('keeps the first non-empty line, with paths, source locations and URLs replaced; bounded', () => {
    expect(scrubMessage(PRISMA_MESSAGE)).toBe('Invalid `prisma.notificationOutbox.findMany()` invocation in');
    expect(scrubMessage('Cannot find module /work/main/dist/src/x.js')).toBe('Cannot find module [path]');
    expect(scrubMessage('failed in dispatcher.ts:101:49')).toBe('failed in [path]');
    expect(scrubMessage('loading file:///work/main/src/x.ts failed')).toBe('loading [path] failed');
    expect(scrubMessage('C:\\app\\src\\main.ts broke')).toBe('[path] broke');
    expect(scrubMessage('webhook https://hooks.example/t/0123secret timed out')).toBe('webhook [path] timed out');
    expect(scrubMessage('connect ECONNREFUSED 127.0.0.1:6379')).toBe('connect ECONNREFUSED 127.0.0.1:6379');
    expect(scrubMessage('Connection terminated unexpectedly')).toBe('Connection terminated unexpectedly');
    expect(scrubMessage('\n \n')).toBeUndefined();
    expect(scrubMessage('x'.repeat(500))).toHaveLength(200);
  });
});
