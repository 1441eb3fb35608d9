// A captured log must not carry a stack or a path into the code at info: errors are logged as name, code and a
// short text (src/logging/logged-error.ts). run-log.ts scans for personal data; this is the check for code details.
import { expect } from 'vitest';
import type { LoggedError } from '../../src/logging/logged-error.js';

/** A stack frame (`at f (`), a source location (`x.ts:12`), a path into the repository or its dependencies. */
export const STACK_OR_PATH = /\bat .*\(|\.ts:\d+|\.js:\d+|\/src\/|node_modules/;

/** The lines of captured log chunks (a chunk may hold several lines), empty ones dropped. */
export function logLines(chunks: string | string[]): string[] {
  return (Array.isArray(chunks) ? chunks.join('') : chunks).split('\n').filter((line) => line.trim() !== '');
}

/** Every error the lines carry, under `err`, `error` or `cause`, with the line it came from. */
export function loggedErrors(chunks: string | string[]): { error: LoggedError; line: Record<string, unknown> }[] {
  return logLines(chunks).flatMap((text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    return ['err', 'error', 'cause'].filter((key) => line[key] !== undefined).map((key) => ({ error: line[key] as LoggedError, line }));
  });
}

/** Every error below this one: its causes and an AggregateError's members. */
function withNested(error: LoggedError): LoggedError[] {
  return [error, ...(error.cause ? withNested(error.cause) : []), ...(error.errors ?? []).flatMap(withNested)];
}

/**
 * Fails, quoting them, on lines with a stack or a path, and on logged errors (causes included) without a name or
 * with a stack. Returns the number of lines checked, for the caller to assert the log was not empty.
 */
export function expectNoStacksOrPaths(chunks: string | string[]): number {
  const lines = logLines(chunks);
  expect(
    lines.filter((line) => STACK_OR_PATH.test(line)),
    'log lines with a stack or a source path',
  ).toEqual([]);
  for (const { error, line } of loggedErrors(chunks)) {
    for (const nested of withNested(error)) {
      expect(typeof nested.name, JSON.stringify(line)).toBe('string');
      expect(nested.stack, JSON.stringify(line)).toBeUndefined();
    }
  }
  return lines.length;
}
