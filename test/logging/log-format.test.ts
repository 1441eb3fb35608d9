// stdout is JSON lines for machines; a person at a terminal gets pino-pretty lines (or asks with LOG_FORMAT=pretty).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/processes.js';

const loggerUrl = new URL('../../src/logging/logger.ts', import.meta.url).href;

function logOneLine(env: Record<string, string>): string {
  const code = `const { createLogger } = await import(${JSON.stringify(loggerUrl)});
    const log = createLogger(); log.info({ venue: 'villa-x' }, 'hello'); await new Promise((r) => setTimeout(r, 300));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('log format', () => {
  it('writes one JSON object per line when stdout is not a terminal', () => {
    const line = JSON.parse(logOneLine({ LOG_FORMAT: '' }).trim());
    expect(line).toMatchObject({ level: 'info', venue: 'villa-x', msg: 'hello' });
  });

  it('writes pretty lines with LOG_FORMAT=pretty (what a terminal gets)', () => {
    const output = logOneLine({ LOG_FORMAT: 'pretty', NO_COLOR: '1' });
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: hello\n {4}venue: "villa-x"/m);
    expect(() => JSON.parse(output)).toThrow();
  });
});
