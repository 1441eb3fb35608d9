import { createRequire } from 'node:module';
import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/** Headers and fields that must never reach a log line (§5: keys are never logged). */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-service-key"]',
  'headers.authorization',
  'headers["x-service-key"]',
  'authorization',
  'apiKey',
  'key',
];

/**
 * Pretty lines for a person at a terminal, when pino-pretty (a development dependency) is installed; JSON otherwise
 * (pipes, files, log collectors, production installs). LOG_FORMAT=json or pretty forces one.
 */
function terminalDestination(): DestinationStream | undefined {
  const format = process.env.LOG_FORMAT;
  if (format === 'json' || (format !== 'pretty' && !process.stdout.isTTY)) return undefined;
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
  } catch {
    return undefined;
  }
  return pino.transport({ target: 'pino-pretty', options: { destination: 1, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } });
}

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? terminalDestination(),
  );
}
