import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';

describe('ApiError: an answer, not a bug', () => {
  it('captures no stack frames, and leaves the process-wide stack depth as it found it', () => {
    const before = Error.stackTraceLimit;
    const error = new ApiError('invalid_parameters', { problems: [{ param: 'limit', problem: 'must be at most 100' }] });
    expect(error.stack).toBe(`ApiError: ${error.message}`);
    expect(error.stack).not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(before);
    // Every other error still records where it came from.
    expect(new Error('x').stack).toMatch(/\n\s+at /);
  });

  it('keeps its message, code, status and cause', () => {
    const cause = new Error('socket closed');
    const error = new ApiError('database_error', { cause });
    expect(error).toBeInstanceOf(Error);
    expect([error.code, error.status, error.cause]).toEqual(['database_error', 500, cause]);
    expect(error.message.length).toBeGreaterThan(0);
  });
});
