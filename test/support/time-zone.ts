import { afterAll, beforeAll } from 'vitest';

/**
 * Runs this file's tests in a process at UTC+14 (Pacific/Kiritimati): a bare timestamp or a date read as local time
 * would be 14 hours off. Call it before the file's other hooks: its zone is set first and restored last.
 */
export function runFarFromUtc(): void {
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Pacific/Kiritimati';
  });
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });
}
