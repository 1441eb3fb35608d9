import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLError, buildSchema, execute, parse, validate, type ASTNode } from 'graphql';
import { PrismaPg } from '@prisma/adapter-pg';
import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { z } from 'zod';
import { PrismaClient } from '../../src/generated/prisma/client.js';
import { PrismaClientKnownRequestError, PrismaClientValidationError } from '../../src/generated/prisma/internal/prismaNamespace.js';
import { ApiError } from '../../src/errors/api-error.js';
import {
  classify,
  classifyEmptyAnswer,
  isDeterministicDatabaseFailure,
  markClassified,
  ROUTE_DOCUMENTS,
  type ArgumentFinder,
} from '../../src/errors/classify.js';
import { parseInput } from '../../src/errors/validation.js';
import { DatabaseReadError } from '../../src/db/row-reader.js';
import { parseDocument } from '../../src/graphql/complexity.js';

// The one classifier (src/errors/classify.ts) decides by structured facts only: each case below is built the way its
// library builds it, and the text of a message never decides anything.

const codeOf = (e: unknown) => classify(e).error.code;

/** pg's DatabaseError as pg-protocol builds it from a server's ErrorResponse (name 'error', SQLSTATE in `code`). */
function pgError(code: string, severity = 'ERROR'): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError('server said something', 100, 'error'), { code, severity });
}

/** A Node SystemError for a refused connection, as node:net gives it. */
function refusedConnection(): Promise<NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    const server = createServer();
    // A port just closed again: nothing listens on it.
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => connect(port, '127.0.0.1').on('error', resolve));
    });
  });
}

describe('classify: databases, by class and code', () => {
  it('answers a pg DatabaseError database_error whatever its SQLSTATE; only 22/23/42 classes are deterministic', () => {
    for (const sqlState of ['57P01', '53300', '23505', '40001']) {
      const classified = classify(pgError(sqlState));
      expect(classified, sqlState).toMatchObject({ unexpected: true });
      expect(classified.error.code, sqlState).toBe('database_error');
    }
    expect(isDeterministicDatabaseFailure(pgError('23505'))).toBe(true);
    expect(isDeterministicDatabaseFailure(pgError('57P01'))).toBe(false);
    expect(isDeterministicDatabaseFailure(pgError('53300'))).toBe(false);
  });

  it("answers Node's SystemError ECONNREFUSED database_error by its code", async () => {
    const refused = await refusedConnection();
    expect(refused.code).toBe('ECONNREFUSED');
    expect(codeOf(refused)).toBe('database_error');
    expect(codeOf(Object.assign(new Error('x'), { code: '57P01' }))).toBe('database_error');
  });

  it("answers the driver adapter's DriverAdapterError database_error, deterministic by its cause's originalCode", () => {
    const unreachable = new DriverAdapterError({ kind: 'DatabaseNotReachable', host: 'db', port: 5432 });
    expect(codeOf(unreachable)).toBe('database_error');
    expect(isDeterministicDatabaseFailure(unreachable)).toBe(false);
    const unique = new DriverAdapterError({ kind: 'UniqueConstraintViolation', constraint: { fields: ['slug'] }, originalCode: '23505' });
    expect(codeOf(unique)).toBe('database_error');
    expect(isDeterministicDatabaseFailure(unique)).toBe(true);
  });

  it("answers Prisma's request errors database_error and its validation error (a bug in our query) internal_error", () => {
    expect(codeOf(new PrismaClientKnownRequestError('x', { code: 'P1001', clientVersion: '7' }))).toBe('database_error');
    expect(codeOf(new PrismaClientValidationError('x', { clientVersion: '7' }))).toBe('internal_error');
    expect(codeOf(Object.assign(new Error('x'), { name: 'PrismaClientKnownRequestError' }))).toBe('database_error');
  });

  it('answers a failure Database.readRows wrapped database_error, whatever its cause says', () => {
    expect(codeOf(new DatabaseReadError('a read statement failed', { cause: new Error('anything') }))).toBe('database_error');
  });

  describe("pg's own connection failures (plain Errors, no code) as Prisma hands them on", () => {
    let server: Server;
    let prisma: PrismaClient;
    beforeAll(async () => {
      // A server that takes the connection and closes it: pg fails with "Connection terminated unexpectedly".
      server = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const pool = new pg.Pool({ connectionString: `postgres://u:p@127.0.0.1:${(server.address() as AddressInfo).port}/db`, max: 1 });
      pool.on('error', () => {});
      prisma = new PrismaClient({ adapter: new PrismaPg(pool as unknown as ConstructorParameters<typeof PrismaPg>[0], { onPoolError: () => {} }) });
    });
    afterAll(async () => {
      await prisma?.$disconnect().catch(() => {});
      await new Promise((resolve) => server?.close(resolve));
    });

    it('is database_error by where it came from: Prisma stamps its clientVersion on what its request threw', async () => {
      const failure: unknown = await prisma.venue.findFirst().then(
        () => null,
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).name).toBe('Error');
      expect((failure as { code?: unknown }).code).toBeUndefined();
      expect(typeof (failure as { clientVersion?: unknown }).clientVersion).toBe('string');
      expect(classify(failure)).toMatchObject({ unexpected: true, cause: failure });
      expect(codeOf(failure)).toBe('database_error');
    });
  });

  it('never reads message text: a plain Error that only says ECONNREFUSED or "Connection terminated" is internal_error', () => {
    for (const message of ['connect ECONNREFUSED 127.0.0.1:5432', 'Connection terminated unexpectedly', 'timeout exceeded when trying to connect'])
      expect(codeOf(new Error(message)), message).toBe('internal_error');
    expect(codeOf(new TypeError('57P01'))).toBe('internal_error');
    expect(codeOf('Connection terminated')).toBe('internal_error');
    expect(codeOf(new Error('boom'))).toBe('internal_error');
  });
});

describe('classify: our ApiError, Node parser codes, Yoga empty answers', () => {
  it('keeps an ApiError as it is, not unexpected', () => {
    const refusal = new ApiError('venue_not_found');
    expect(classify(refusal)).toEqual({ error: refusal, unexpected: false, cause: refusal });
  });

  it("names Node's HTTP parser refusals by their codes", () => {
    const parserError = (code: string) => Object.assign(new Error('Parse Error'), { code });
    expect(classify(parserError('HPE_HEADER_OVERFLOW'), { httpParser: true }).error.code).toBe('headers_too_large');
    expect(classify(parserError('ERR_HTTP_REQUEST_TIMEOUT'), { httpParser: true }).error.code).toBe('request_timeout');
    expect(classify(parserError('HPE_INVALID_METHOD'), { httpParser: true }).error.code).toBe('malformed_request');
  });

  it("names Yoga's empty-bodied answers by their status", () => {
    expect(classifyEmptyAnswer(415).code).toBe('unsupported_media_type');
    expect(classifyEmptyAnswer(406).code).toBe('not_acceptable');
    expect(classifyEmptyAnswer(405).code).toBe('malformed_request');
  });
});

describe('classify: zod issues, custom message or ours', () => {
  const Input = z.object({
    // A message of ours that starts as zod's own defaults do: kept, because the schema wrote it.
    name: z.string().min(3, { error: 'Invalid name: give at least 3 characters' }),
    city: z.string().min(3),
    guests: z.int().max(500),
    tier: z.enum(['free', 'pro']),
  });

  it("keeps a message written on the schema and words zod's own issues by their code and bounds", () => {
    let refusal: unknown;
    try {
      parseInput(Input, { name: 'x', city: 'y', guests: 1.5, tier: 'gold' });
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).code).toBe('invalid_parameters');
    expect((refusal as ApiError).problems).toEqual([
      { param: 'name', problem: 'Invalid name: give at least 3 characters' },
      { param: 'city', problem: 'must be at least 3 characters' },
      { param: 'guests', problem: 'must be an integer' },
      { param: 'tier', problem: 'must be one of free, pro' },
    ]);
  });

  it('states a bound from the issue, never from zod’s wording', () => {
    expect(() => parseInput(Input, { name: 'abc', city: 'abc', guests: 501, tier: 'pro' })).toThrow(
      expect.objectContaining({ problems: [{ param: 'guests', problem: 'must be at most 500' }] }),
    );
  });
});

describe('classify: GraphQL errors, by code, node and original error', () => {
  const schema = buildSchema('type Query { venue(slug: String!, first: Int): String }');

  it('tells a syntax error (parseDocument gives it GRAPHQL_PARSE_FAILED) from a validation error', () => {
    let syntax: unknown;
    try {
      parseDocument('{ venue(');
    } catch (e) {
      syntax = e;
    }
    expect(syntax).toBeInstanceOf(GraphQLError);
    expect(classify(syntax).error).toMatchObject({ code: 'graphql_parse_failed', message: (syntax as Error).message });
    const [invalid] = validate(schema, parse('{ nope }'));
    expect(classify(invalid).error).toMatchObject({ code: 'graphql_validation_failed', message: invalid.message });
  });

  it('does not read "Syntax Error" in a message: an error without the code is not a parse failure', () => {
    expect(codeOf(new GraphQLError('Syntax Error: Unexpected Name "x".'))).toBe('graphql_validation_failed');
    expect(codeOf(new Error('Syntax Error: Unexpected <EOF>.'))).toBe('internal_error');
  });

  it("maps Yoga's and the persisted-operations plugin's codes, request-level where nothing ran", () => {
    const yoga = (code: string, http?: object) => new GraphQLError('m', { extensions: { code, ...(http ? { http } : {}) } });
    expect(classify(yoga('BAD_REQUEST', { status: 405 }))).toMatchObject({ error: { code: 'method_not_allowed' }, requestLevel: true });
    expect(classify(yoga('BAD_REQUEST', { status: 400 }))).toMatchObject({ error: { code: 'invalid_graphql_request' }, requestLevel: true });
    expect(classify(yoga('BAD_REQUEST')).requestLevel).toBeUndefined();
    expect(classify(yoga('OPERATION_RESOLUTION_FAILURE')).error).toMatchObject({ code: 'invalid_graphql_request', param: 'operationName' });
    expect(classify(yoga('PERSISTED_QUERY_NOT_IN_LIST'))).toMatchObject({ error: { code: 'persisted_query_not_found' }, requestLevel: true });
    expect(classify(yoga('CANNOT_SEND_PQ_ID_AND_BODY')).error.code).toBe('persisted_query_only');
  });

  it('classifies what a resolver threw as itself, through any number of located errors', () => {
    const refusal = new ApiError('venue_not_found');
    const located = new GraphQLError('x', { path: ['venue'], originalError: new GraphQLError('y', { originalError: refusal }) });
    expect(classify(located)).toMatchObject({ error: refusal, unexpected: false });
    const failure = pgError('57P01');
    expect(classify(new GraphQLError('x', { path: ['venue'], originalError: failure }))).toMatchObject({
      error: { code: 'database_error' },
      unexpected: true,
      cause: failure,
    });
  });

  it("names a variable graphql-js could not coerce by its definition's node, in GraphQL's or REST's words", async () => {
    const document = parse('query ($n: Int) { venue(slug: "a", first: $n) }');
    const result = await execute({ schema, document, variableValues: { n: 'many' } });
    const [error] = result.errors!;
    expect(classify(error).error).toMatchObject({ code: 'invalid_parameters', param: 'n', message: error.message });
    // A REST route's document is the server's: its parameter is named without GraphQL's variable and type.
    expect(classify(error, ROUTE_DOCUMENTS).error).toMatchObject({
      code: 'invalid_parameters',
      problems: [{ param: 'n', problem: 'has an invalid value' }],
    });
    expect(classify(error, { validating: true }).error.code).toBe('graphql_validation_failed');
  });

  it('takes the code an argument names for a value written in the document', () => {
    const [error] = validate(schema, parse('{ venue(slug: 5) }'));
    const finder: ArgumentFinder = { holding: (node: ASTNode) => (node ? { name: 'slug', code: 'invalid_slug' } : null), fedBy: () => null };
    expect(classify(error, { arguments: finder }).error).toMatchObject({ code: 'invalid_slug', param: 'slug' });
    expect(classify(error).error.code).toBe('graphql_validation_failed');
  });

  it("answers GraphQL's own refusal of a REST route's document internal_error: the document is ours", () => {
    const refusal = new GraphQLError('Cannot query field "nope" on type "Query".');
    expect(classify(refusal, ROUTE_DOCUMENTS)).toMatchObject({ error: { code: 'internal_error' }, unexpected: true, cause: refusal });
  });

  it('classifies an error rendered before as the refusal it says (the document cache replays them)', () => {
    const rendered = new GraphQLError('Query exceeds the depth bound.');
    const refusal = new ApiError('query_too_complex');
    markClassified(rendered, refusal);
    expect(classify(rendered).error).toBe(refusal);
  });
});
