import { GraphQLError, isObjectType, type ExecutionResult, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ApiError } from '../errors/api-error.js';
import type { RequestContext } from '../http/context.js';
import { checkVenueDetail } from './limits.service.js';

/**
 * §8 row 3 counts venue detail lookups, 20 a day for every tier. A lookup is reading a venue's detail (§2.3), whatever
 * the way in: `venue(slug)` (REST's detail route runs it) counts itself before it reads (withVenueDetailLimit); any
 * other venue whose detail-only fields an answer carries (a `venues(first: 100)` page with descriptions, `nodes(ids:)`)
 * counts once here, after execution, all of the answer's venues in one step: an answer that would pass the day's
 * allowance is refused whole, 429 venue_detail_rate_limit_exceeded, as REST's detail route is.
 */
const DETAIL_ONLY = 'venueDetailOnly';

/** Extensions of a Venue field that §2.3 has and the list item (§2.2) has not. */
export const detailOnly = { [DETAIL_ONLY]: true } as const;

interface Noted {
  /** Venue rows whose detail-only fields were resolved in this request. */
  venues: Set<object>;
  /** Rows `venue(slug)` answered: counted already, by the field itself. */
  counted: Set<object>;
}

const notes = new WeakMap<object, Noted>();

function notesOf(ctx: object): Noted {
  let noted = notes.get(ctx);
  if (!noted) notes.set(ctx, (noted = { venues: new Set(), counted: new Set() }));
  return noted;
}

/** A row `venue(slug)` answered after counting its own lookup. */
export function countedAlready(ctx: RequestContext, venue: unknown): void {
  if (venue && typeof venue === 'object') notesOf(ctx).counted.add(venue);
}

/** Venues of this request whose details were read and not yet counted; forgets them. */
function takeUncounted(ctx: object): number {
  const noted = notes.get(ctx);
  if (!noted) return 0;
  notes.delete(ctx);
  let uncounted = 0;
  for (const venue of noted.venues) if (!noted.counted.has(venue)) uncounted++;
  return uncounted;
}

/**
 * Gives every detail-only field a resolver that notes its row, reading what it read before (its resolver, or the
 * row's property of its name where graphql-jit read it inline). Runs once on the built schema, after the inline reads
 * are set up; a field marked detail-only on a type without rows of its own would be a mistake, and fails here.
 */
export function noteDetailReads(schema: GraphQLSchema): number {
  let wrapped = 0;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.extensions?.[DETAIL_ONLY] !== true) continue;
      const read: GraphQLFieldResolver<Record<string, unknown>, object> = field.resolve ?? ((parent: Record<string, unknown>) => parent[field.name]);
      field.resolve = (parent: Record<string, unknown>, args, ctx: object, info) => {
        notesOf(ctx).venues.add(parent);
        return read(parent, args, ctx, info);
      };
      wrapped++;
    }
  }
  if (wrapped === 0) throw new Error('no field is marked detailOnly: venue detail lookups would go uncounted');
  return wrapped;
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
