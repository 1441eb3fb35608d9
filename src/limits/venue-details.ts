import { GraphQLError, isObjectType, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ApiError } from '../errors/api-error.js';
import type { RequestContext } from '../graphql/context.js';
import { checkVenueDetail } from './limits.service.js';

/**
 * §8 row 3 counts venue detail lookups, 20 a day for every tier. A lookup is reading a venue's detail (§2.3), whatever
 * the way in: `venue(slug)` (REST's detail route runs it) counts itself before it reads (withVenueDetailLimit); any
 * other venue whose detail-only fields an answer carries (a `venues(first: 100)` page with descriptions, `nodes(ids:)`)
 * counts once here, after execution, all of the answer's venues in one step: an answer that would pass the day's
 * allowance is refused whole, 429 venue_detail_rate_limit_exceeded, as REST's detail route is. The lists note their
 * rows where they read them, by their planned selection (noteDetailRows): a resolver on each detail field would be
 * called per row, which graphql-jit otherwise reads inline.
 */
const DETAIL_ONLY = 'venueDetailOnly';

/** Extensions of a Venue field that §2.3 has and the list item (§2.2) has not. */
export const detailOnly = { [DETAIL_ONLY]: true } as const;

/** Venue rows of this request whose details its answer carries, not counted yet. */
const uncounted = new WeakMap<object, number>();

/** Names of the Venue fields marked detail-only, read off the built schema (noteDetailFields). */
let detailFields: ReadonlySet<string> = new Set();

/**
 * Notes the rows a venue list read (a search page, node/nodes) when its selection holds a detail-only field: each is
 * one lookup, counted after execution. `venue(slug)` counts itself and does not call this.
 */
export function noteDetailRows(ctx: object, selection: Record<string, unknown> | undefined, rows: number): void {
  if (!selection || rows === 0) return;
  for (const name of detailFields) {
    if (selection[name]) {
      uncounted.set(ctx, (uncounted.get(ctx) ?? 0) + rows);
      return;
    }
  }
}

function takeUncounted(ctx: object): number {
  const count = uncounted.get(ctx) ?? 0;
  uncounted.delete(ctx);
  return count;
}

/**
 * Reads which fields of `typeName` are marked detail-only, once, on the built schema. A selection names a field's
 * column or relation by the field's own name (select mode), so the names are what noteDetailRows looks for. None
 * marked would leave detail reads uncounted: that fails the build, not a request.
 */
export function noteDetailFields(schema: GraphQLSchema, typeName = 'Venue'): number {
  const type = schema.getType(typeName);
  const names = isObjectType(type)
    ? Object.values(type.getFields())
        .filter((field) => field.extensions?.[DETAIL_ONLY] === true)
        .map((field) => field.name)
    : [];
  if (names.length === 0) throw new Error(`no field of ${typeName} is marked detailOnly: venue detail lookups would go uncounted`);
  detailFields = new Set(names);
  return names.length;
}

/** The whole answer refused: what REST's detail route answers, as a request-level GraphQL error. */
function refused(error: ApiError): ExecutionResult {
  return {
    errors: [
      new GraphQLError(error.message, {
        originalError: error,
        extensions: { http: { status: error.status, headers: { 'Retry-After': error.headers?.['Retry-After'] ?? '1' } } },
      }),
    ],
  };
}

/**
 * Counts, after execution, the venues whose details the answer carries and `venue(slug)` did not count. Placed before
 * the response cache, which charges a kept answer's lookups again on every hit (answerNotes.venueLookups).
 */
export function useVenueDetailCharge(): Plugin<RequestContext> {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const ctx = args.contextValue as RequestContext;
      setExecuteFn(async (a) => {
        const result = (await executeFn(a)) as ExecutionResult;
        const count = takeUncounted(ctx);
        if (count === 0) return result;
        try {
          await checkVenueDetail(ctx.apiKey, ctx, count);
        } catch (error) {
          if (error instanceof ApiError && error.code === 'venue_detail_rate_limit_exceeded') return refused(error);
          throw error;
        }
        if (ctx.answerNotes) ctx.answerNotes.venueLookups += count;
        return result;
      });
    },
  };
}
