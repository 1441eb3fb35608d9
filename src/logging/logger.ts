import { createRequire } from 'node:module';
import { pino, type Logger, type DestinationStream, type LogFn } from 'pino';
import { loggedError, type LoggedError } from './logged-error.js';

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

/** Keys whose value is an error whatever it is (a string, a plain `{ message }`): scrubbed like one. */
const ERROR_KEYS = new Set(['err', 'error', 'cause']);

/** Already in log form (by the hook); the serializers pass them through. */
const inLogForm = new WeakSet<LoggedError>();

function asLogged(value: unknown, stack: boolean): LoggedError {
  const out = loggedError(value, { stack });
  inLogForm.add(out);
  return out;
}

/**
 * The merge object of one log call with every error in log form (logged-error.ts): an Error passed alone, under any
 * key, or anything under err/error/cause. Returns the object itself when it holds none (the request line, most lines).
 */
function withErrorsInLogForm(object: object, stack: boolean): object {
  if (object instanceof Error) return { err: asLogged(object, stack) };
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    const value: unknown = (object as Record<string, unknown>)[key];
    if (value === undefined || value === null || !Object.hasOwn(object, key) || inLogForm.has(value as LoggedError)) continue;
    if (value instanceof Error || ERROR_KEYS.has(key)) {
      copy ??= { ...object };
      copy[key] = asLogged(value, stack);
    }
  }
  return copy ?? object;
}

/**
 * JSON lines (pretty ones at a terminal), keys redacted, and every error in log form (logged-error.ts): name, codes
 * and a short text at info and above, stacks too when the logger doing the call is at debug or below.
 */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  // Serializers see bindings (`child({ err })`) and anything the hook has not put in log form; they cannot know which
  // child is logging, so they go by the root's level.
  const serialize = (value: unknown) => (inLogForm.has(value as LoggedError) ? value : asLogged(value, root.isLevelEnabled('debug')));
  const root: Logger = pino(
    {
      level: options.level ?? 'info',
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serialize, error: serialize, cause: serialize },
      hooks: {
        // Before pino reads the call: pino takes a missing msg from err.message, which must be the scrubbed one. The
        // logger doing the call (a child may have its own level) decides whether stacks are wanted.
        logMethod(args: Parameters<LogFn>, method: LogFn) {
          const [first] = args;
          if (first !== null && typeof first === 'object') args[0] = withErrorsInLogForm(first, this.isLevelEnabled('debug'));
          method.apply(this, args);
        },
      },
    },
    options.destination ?? terminalDestination(),
  );
  return root;
}
