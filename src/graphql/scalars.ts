import { GraphQLError, Kind, type ValueNode } from 'graphql';
import { builder } from './builder.js';
import { parsesAsUrl } from '../catalogue/url-parse.js';

/**
 * Scalars that say what a string means (issue 14), so a client can type and parse dates, links and ids. Each one
 * serializes a string value exactly as given and a JavaScript Date exactly as the resolvers did before (toISOString,
 * or its first 10 characters for a date): REST bodies and the OpenAPI document stay byte-identical.
 *
 * Why not graphql-scalars: its URL re-serializes through `new URL()` (https://x.example becomes https://x.example/),
 * and its DateTime returns a Date and re-renders offsets in UTC; both would change bytes clients already read.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 date-time: an explicit offset is required (Z or ±hh:mm); fractional seconds optional.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A real calendar day: 2026-02-30 matches the pattern but is not one. */
function isCalendarDay(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

export const isDate = (value: string): boolean => {
  const m = DATE.exec(value);
  return !!m && isCalendarDay(m[1], m[2], m[3]);
};

export const isDateTime = (value: string): boolean => {
  const m = DATE_TIME.exec(value);
  return !!m && isCalendarDay(m[1], m[2], m[3]);
};

/**
 * An http(s) URL whose host is plain DNS labels ending in an alphabetic label (one label alone too, as `localhost`),
 * an optional port of up to five digits no greater than 65535, then nothing or printable ASCII after [/?#]: WHATWG
 * parsing accepts every such string (no IPv4 or punycode host to decode, no code point a path can refuse). Nearly
 * every stored link is one, and so is every link the service makes of its own base URL; this test costs a fraction of
 * parsing one, which a detail page did about ten times. Five-digit ports count: with a base URL on one (a container's
 * or a test's port, the bench's), every link of every answer was parsed.
 */
const PLAIN_HTTP_URL =
  /^https?:\/\/(?:[a-z0-9]+(?:[.-][a-z0-9]+)*\.)?[a-z][a-z0-9]*(?::(?:\d{1,4}|[0-5]\d{4}|6[0-4]\d{3}|65[0-4]\d\d|655[0-2]\d|6553[0-5]))?(?:[/?#][\x21-\x7e]*)?$/i;

/** The fast test alone (exported for its test: it must never accept what parsing refuses). */
export const isPlainHttpUrl = (value: string): boolean => PLAIN_HTTP_URL.test(value);

/** Absolute: a scheme and what follows it (WHATWG URL parsing, so `example.com/x` is refused). */
export const isAbsoluteUrl = (value: string): boolean => isPlainHttpUrl(value) || parsesAsUrl(value);

export const isUuid = (value: string): boolean => UUID.test(value);

const validDate = (value: Date) => !Number.isNaN(value.getTime());

/**
 * A string scalar: `accepts` decides, the value is kept as given. Input errors name the scalar, not the value (the
 * GraphQL layer turns them into invalid_parameters naming the variable or argument, src/graphql/errors.ts). `format`
 * is the JSON Schema format the OpenAPI document gives every field of the scalar (src/rest/openapi-schemas.ts reads
 * `extensions.jsonSchema`).
 */
function stringScalar(
  name: string,
  description: string,
  specifiedByURL: string,
  format: 'date' | 'date-time' | 'uri' | 'uuid',
  accepts: (value: string) => boolean,
  fromDate?: (value: Date) => string,
) {
  const parse = (value: unknown): string => {
    if (typeof value === 'string' && accepts(value)) return value;
    throw new GraphQLError(`${name} cannot represent this value.`);
  };
  return {
    description,
    specifiedByURL,
    extensions: { jsonSchema: { type: 'string', format } },
    serialize: (value: unknown): string => {
      if (fromDate && value instanceof Date && validDate(value)) return fromDate(value);
      if (typeof value === 'string' && accepts(value)) return value;
      // A stored value that breaks the scalar's contract is our bug: internal_error, logged, never echoed.
      throw new TypeError(`${name} cannot serialize a value of type ${value === null ? 'null' : typeof value}`);
    },
    parseValue: parse,
    parseLiteral: (ast: ValueNode): string => {
      if (ast.kind !== Kind.STRING) throw new GraphQLError(`${name} must be a string.`);
      return parse(ast.value);
    },
  };
}

builder.scalarType(
  'Date',
  stringScalar(
    'Date',
    'A calendar date, ISO 8601 `YYYY-MM-DD` (RFC 3339 full-date), such as 2026-06-13; no time and no time zone. Sent as a JSON string.',
    'https://www.rfc-editor.org/rfc/rfc3339',
    'date',
    isDate,
    (value) => value.toISOString().slice(0, 10),
  ),
);

builder.scalarType(
  'DateTime',
  stringScalar(
    'DateTime',
    'An instant, ISO 8601 date and time with its UTC offset (RFC 3339 date-time), such as 2026-05-20T09:00:00.000Z. This API sends UTC (`Z`) with milliseconds. Sent as a JSON string.',
    'https://www.rfc-editor.org/rfc/rfc3339',
    'date-time',
    isDateTime,
    (value) => value.toISOString(),
  ),
);

builder.scalarType(
  'URL',
  stringScalar(
    'URL',
    'An absolute URL (RFC 3986), such as https://www.instagram.com/handle/. Sent as a JSON string exactly as stored (never normalised).',
    'https://www.rfc-editor.org/rfc/rfc3986',
    'uri',
    isAbsoluteUrl,
  ),
);

builder.scalarType(
  'UUID',
  stringScalar(
    'UUID',
    'A UUID (RFC 9562) in hex 8-4-4-4-12 form, such as 0001759d-9770-44db-a1b4-1064a171d06d. Sent as a JSON string.',
    'https://www.rfc-editor.org/rfc/rfc9562',
    'uuid',
    isUuid,
  ),
);
