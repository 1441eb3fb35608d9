import { describe, expect, it } from 'vitest';
import { toApiError } from '../../src/errors/translate.js';

const codeOf = (e: unknown) => toApiError(e).error.code;

describe('toApiError: which unexpected failures are database_error', () => {
  it("counts pg's and pg-pool's own connection failures (plain Errors without a code) as database_error", () => {
    // Seen when PostgreSQL shut down mid-query (test/limits/limits.faults.test.ts): adapter-pg passed it through as is.
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client was closed and is not queryable',
      'Client has encountered a connection error and is not queryable',
    ])
      expect(codeOf(new Error(message)), message).toBe('database_error');
  });

  it('keeps Prisma, driver-adapter and connection-code errors as database_error, and a validation error internal', () => {
    expect(codeOf(Object.assign(new Error('x'), { name: 'PrismaClientKnownRequestError' }))).toBe('database_error');
    expect(codeOf(Object.assign(new Error('x'), { name: 'DriverAdapterError' }))).toBe('database_error');
    expect(codeOf(Object.assign(new Error('x'), { code: '57P01' }))).toBe('database_error');
    expect(codeOf(Object.assign(new Error('x'), { name: 'PrismaClientValidationError' }))).toBe('internal_error');
  });

  it('leaves any other error internal_error, including one that only mentions a connection', () => {
    expect(codeOf(new Error('Connection terminated unexpectedly, said the cache'))).toBe('internal_error');
    expect(codeOf(new TypeError('Connection terminated unexpectedly'))).toBe('internal_error');
    expect(codeOf(new Error('boom'))).toBe('internal_error');
    expect(codeOf('Connection terminated')).toBe('internal_error');
  });
});
