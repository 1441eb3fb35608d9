// Every log line any test app or server process writes during a run goes to one directory, so the run's teardown can
// prove no lead contents or key reached a log (issue 11: "a test greps captured logs of a full run").
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Directory of this run's captured logs (test/support/global-setup.ts makes and scans it). */
    runLogDir: string;
  }
}

let file: string | null | undefined;

function runLogFile(): string | null {
  if (file !== undefined) return file;
  try {
    file = join(inject('runLogDir'), `${process.pid}-${threadId}.log`);
  } catch {
    file = null; // outside a vitest worker (scripts importing the helpers): nothing is captured
  }
  return file;
}

/** Adds what a test app or server process logged to the run's captured logs. */
export function captureLog(text: string): void {
  const target = runLogFile();
  if (target) appendFileSync(target, text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * What must never be in a log line: a whole API key, an e-mail address, a phone number, or an inquiry's contact or
 * message field by name (a logged body). Lookup prefixes (`wv_live_` + 8 characters) are safe and are logged.
 */
export const LOG_LEAKS: { what: string; pattern: RegExp }[] = [
  { what: 'an API key', pattern: /wv_live_[0-9A-Za-z]{32}/ },
  { what: 'an e-mail address', pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/ },
  { what: 'a phone number', pattern: /\+\d[\d ().-]{6,}\d/ },
  { what: 'an inquiry field', pattern: /"(?:guest_?(?:name|email|phone)|guest(?:Name|Email|Phone)|sms_?[cC]onsent)"\s*:/ },
];

/** Every captured line that leaks, with what it leaks (at most `max`), and how many lines were scanned. */
export function findLogLeaks(dir: string, max = 20): { leaks: string[]; lines: number } {
  const leaks: string[] = [];
  let lines = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.log'))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      lines++;
      const leak = LOG_LEAKS.find((l) => l.pattern.test(line));
      if (leak && leaks.length < max) leaks.push(`${leak.what}: ${line.slice(0, 300)}`);
    }
  }
  return { leaks, lines };
}
