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

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}
