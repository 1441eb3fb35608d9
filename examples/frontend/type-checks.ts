/**
 * Compile-time facts about the generated types a frontend relies on (test/graphql/frontend-codegen.test.ts runs
 * `tsc -p examples/frontend`): a regression in the codegen config fails to compile here.
 */
import type {
  BlogListQuery,
  RateLimitStatusQuery,
  SendVenueInquiryMutationVariables,
  VendorCategoriesQuery,
  VendorSort,
  VenueCardFragment,
  PricingEstimateQuery,
} from './generated/graphql';

/** True only when A and B are the same type (not merely assignable one way). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T => true as T;

// Enums are unions of their GraphQL names (enumType: string-literal): no runtime enum object to import.
assert<Equals<VendorSort, 'EXPERIENCE' | 'NEWEST' | 'PRICE_HIGH_TO_LOW' | 'PRICE_LOW_TO_HIGH' | 'WEDDINGS_COMPLETED'>>();
assert<Equals<RateLimitStatusQuery['rateLimit']['tier'], 'FREE' | 'PARTNER' | 'PRO'>>();
// ID is a string on output.
assert<Equals<VenueCardFragment['id'], string>>();
assert<Equals<VendorCategoriesQuery['vendorCategories'][number]['id'], string>>();
// Dates, timestamps and URLs are typed scalars in the schema (DateTime, URL), strings on the wire.
assert<Equals<BlogListQuery['blogPosts']['nodes'][number]['publishedAt'], string>>();
assert<Equals<VenueCardFragment['heroImage'], string | null>>();
// The JSON scalar is mapped (strictScalars: an unmapped scalar would fail generation, not become any).
assert<Equals<PricingEstimateQuery['pricingEstimate']['parameters'], unknown>>();
// Inputs are typed: smsConsent is a required boolean.
assert<Equals<SendVenueInquiryMutationVariables['input']['smsConsent'], boolean>>();
