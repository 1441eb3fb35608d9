/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** The tier of an API key (§8). */
export type ApiTier =
  /** REST value: free. */
  | 'FREE'
  /** REST value: partner. */
  | 'PARTNER'
  /** REST value: pro. */
  | 'PRO';

/** Day of the week the event falls on (§4.3). */
export type EstimatorEventType =
  /** REST value: weekday. */
  | 'WEEKDAY'
  /** REST value: weekend. */
  | 'WEEKEND';

/** Demand season of the event date (§4.3). */
export type EstimatorSeason =
  /** REST value: off. */
  | 'OFF'
  /** REST value: peak. */
  | 'PEAK'
  /** REST value: shoulder. */
  | 'SHOULDER';

/** Kind of venue the estimator prices (§4.3). */
export type EstimatorVenueType =
  /** REST value: barn. */
  | 'BARN'
  /** REST value: estate. */
  | 'ESTATE'
  /** REST value: garden. */
  | 'GARDEN'
  /** REST value: historic. */
  | 'HISTORIC'
  /** REST value: ranch. */
  | 'RANCH'
  /** REST value: resort. */
  | 'RESORT'
  /** REST value: villa. */
  | 'VILLA'
  /** REST value: winery. */
  | 'WINERY';

/** The state of a created inquiry (§2.10). */
export type InquiryStatus =
  /** REST value: submitted. */
  | 'SUBMITTED';

/** An inspiration photo color palette (§2.12). */
export type InspirationColor =
  /** REST value: cool. */
  | 'COOL'
  /** REST value: earth_tones. */
  | 'EARTH_TONES'
  /** REST value: jewel_tones. */
  | 'JEWEL_TONES'
  /** REST value: monochrome. */
  | 'MONOCHROME'
  /** REST value: moody_dark. */
  | 'MOODY_DARK'
  /** REST value: neutral_white. */
  | 'NEUTRAL_WHITE'
  /** REST value: pastel. */
  | 'PASTEL'
  /** REST value: vibrant. */
  | 'VIBRANT'
  /** REST value: warm. */
  | 'WARM';

/** An inspiration photo mood (§2.12). */
export type InspirationMood =
  /** REST value: celebratory. */
  | 'CELEBRATORY'
  /** REST value: dramatic. */
  | 'DRAMATIC'
  /** REST value: elegant. */
  | 'ELEGANT'
  /** REST value: grand. */
  | 'GRAND'
  /** REST value: intimate. */
  | 'INTIMATE'
  /** REST value: joyful. */
  | 'JOYFUL'
  /** REST value: romantic. */
  | 'ROMANTIC'
  /** REST value: serene. */
  | 'SERENE';

/** The season an inspiration photo shows (§2.12). */
export type InspirationSeason =
  /** REST value: fall. */
  | 'FALL'
  /** REST value: spring. */
  | 'SPRING'
  /** REST value: summer. */
  | 'SUMMER'
  /** REST value: winter. */
  | 'WINTER';

/** An inspiration photo setting (§2.12). */
export type InspirationSetting =
  /** REST value: ballroom. */
  | 'BALLROOM'
  /** REST value: beach. */
  | 'BEACH'
  /** REST value: desert. */
  | 'DESERT'
  /** REST value: forest. */
  | 'FOREST'
  /** REST value: garden. */
  | 'GARDEN'
  /** REST value: indoor. */
  | 'INDOOR'
  /** REST value: lakefront. */
  | 'LAKEFRONT'
  /** REST value: mountain. */
  | 'MOUNTAIN'
  /** REST value: outdoor. */
  | 'OUTDOOR'
  /** REST value: poolside. */
  | 'POOLSIDE'
  /** REST value: tent. */
  | 'TENT'
  /** REST value: vineyard. */
  | 'VINEYARD';

/** An inspiration photo style (§2.12). */
export type InspirationStyle =
  /** REST value: bohemian. */
  | 'BOHEMIAN'
  /** REST value: classic. */
  | 'CLASSIC'
  /** REST value: coastal. */
  | 'COASTAL'
  /** REST value: luxury. */
  | 'LUXURY'
  /** REST value: minimalist. */
  | 'MINIMALIST'
  /** REST value: modern. */
  | 'MODERN'
  /** REST value: romantic. */
  | 'ROMANTIC'
  /** REST value: rustic. */
  | 'RUSTIC';

/** How a knowledge search answered with less than both halves (§4.6). */
export type KnowledgeDegradation =
  /** REST value: text_only. */
  | 'TEXT_ONLY';

/** The slug of a vendor category (§2.9). */
export type VendorCategorySlug =
  /** REST value: cakes-and-desserts. */
  | 'CAKES_AND_DESSERTS'
  /** REST value: catering. */
  | 'CATERING'
  /** REST value: florists. */
  | 'FLORISTS'
  /** REST value: hair-and-makeup. */
  | 'HAIR_AND_MAKEUP'
  /** REST value: music-and-entertainment. */
  | 'MUSIC_AND_ENTERTAINMENT'
  /** REST value: officiants. */
  | 'OFFICIANTS'
  /** REST value: photography. */
  | 'PHOTOGRAPHY'
  /** REST value: rentals-and-decor. */
  | 'RENTALS_AND_DECOR'
  /** REST value: transportation. */
  | 'TRANSPORTATION'
  /** REST value: videography. */
  | 'VIDEOGRAPHY'
  /** REST value: wedding-planners. */
  | 'WEDDING_PLANNERS';

/** Vendor inquiry (§2.11). */
export type VendorInquiryInput = {
  /** At most 100 characters. */
  budgetRange?: string | null | undefined;
  /** ISO 8601 date (YYYY-MM-DD), in the years 2000 to 2100. */
  eventDate?: string | null | undefined;
  /** Whole number, 0 to 10000. */
  eventGuests?: number | null | undefined;
  /** At most 500 characters. */
  eventLocation?: string | null | undefined;
  /** Email address. At most 500 characters. */
  guestEmail: string;
  /** 1 to 500 characters. */
  guestName: string;
  /** At most 100 characters. */
  guestPhone?: string | null | undefined;
  /** At most 5000 characters. */
  message?: string | null | undefined;
  /** At most 500 characters. */
  serviceNeeded?: string | null | undefined;
  /** True only if the end user agreed to be texted. Any value that is not a boolean is answered with sms_consent_required before any other field is looked at (§4.10 rule 1). */
  smsConsent: boolean;
  /** Vendor slug. 1 to 500 characters. */
  vendorSlug: string;
};

/** The unit of a vendor's starting price (§2.8). */
export type VendorPriceUnit =
  /** REST value: per_event. */
  | 'PER_EVENT'
  /** REST value: per_hour. */
  | 'PER_HOUR'
  /** REST value: per_item. */
  | 'PER_ITEM'
  /** REST value: per_person. */
  | 'PER_PERSON';

/** The order of a vendor search (§4.7). */
export type VendorSort =
  /** REST value: experience. */
  | 'EXPERIENCE'
  /** REST value: newest. */
  | 'NEWEST'
  /** REST value: price_high_to_low. */
  | 'PRICE_HIGH_TO_LOW'
  /** REST value: price_low_to_high. */
  | 'PRICE_LOW_TO_HIGH'
  /** REST value: weddings_completed. */
  | 'WEDDINGS_COMPLETED';

/** The currency a venue page shows its prices in (§2.1). */
export type VenueCurrency =
  /** REST value: AUD. */
  | 'AUD'
  /** REST value: EUR. */
  | 'EUR'
  /** REST value: USD. */
  | 'USD';

/** Venue inquiry (§2.11). */
export type VenueInquiryInput = {
  /** Check-out, after startDate. ISO 8601 date (YYYY-MM-DD), in the years 2000 to 2100. */
  endDate: string;
  /** Whole number, 0 to 100000. The estimate the client displayed to the couple, stored as given (never recomputed). */
  estimatedPrice?: number | null | undefined;
  /** Whole number, 1 to 10000. */
  eventGuests: number;
  /** Email address. At most 500 characters. */
  guestEmail: string;
  /** 1 to 500 characters. */
  guestName: string;
  /** At most 100 characters. */
  guestPhone?: string | null | undefined;
  /** At most 5000 characters. */
  message?: string | null | undefined;
  /** Whole number, 0 to 10000. */
  overnightGuests?: number | null | undefined;
  /** Venue slug. 1 to 500 characters. */
  propertySlug: string;
  /** True only if the end user agreed to be texted. Any value that is not a boolean is answered with sms_consent_required before any other field is looked at (§4.10 rule 1). */
  smsConsent: boolean;
  /** Check-in. ISO 8601 date (YYYY-MM-DD), in the years 2000 to 2100. */
  startDate: string;
};

/** The unit of venue prices (§2.1). */
export type VenuePriceUnit =
  /** REST value: per_stay. */
  | 'PER_STAY';

/** The nightly rate a starts-at total is figured at. */
export type VenueStartingRate =
  /** REST value: weekday. */
  | 'WEEKDAY'
  /** REST value: weekend. */
  | 'WEEKEND';

export type BlogListQueryVariables = Exact<{
  page?: number | null | undefined;
  limit?: number | null | undefined;
  tag?: string | null | undefined;
}>;


export type BlogListQuery = { blogPosts: { page: number, hasMore: boolean, totalCount: number, nodes: Array<{ id: string, slug: string, title: string, excerpt: string | null, featureImage: string | null, publishedAt: string, readingTime: number | null, tags: Array<{ slug: string, name: string }> }> } };

export type BlogPostQueryVariables = Exact<{
  slug: string;
}>;


export type BlogPostQuery = { blogPost: { id: string, slug: string, title: string, url: string, publishedAt: string, readingTime: number | null, featureImage: string | null, contentPlaintext: string | null, primaryAuthor: { name: string, slug: string } | null, tags: Array<{ slug: string, name: string }> } | null };

export type SendVenueInquiryMutationVariables = Exact<{
  input: VenueInquiryInput;
  idempotencyKey?: string | null | undefined;
}>;


export type SendVenueInquiryMutation = { createVenueInquiry: { inquiryId: string, status: InquiryStatus, message: string } };

export type SendVendorInquiryMutationVariables = Exact<{
  input: VendorInquiryInput;
  idempotencyKey?: string | null | undefined;
}>;


export type SendVendorInquiryMutation = { createVendorInquiry: { inquiryId: string, status: InquiryStatus, message: string } };

export type InspirationFeedQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  style?: InspirationStyle | null | undefined;
  mood?: InspirationMood | null | undefined;
  color?: InspirationColor | null | undefined;
  setting?: InspirationSetting | null | undefined;
  season?: InspirationSeason | null | undefined;
}>;


export type InspirationFeedQuery = { inspirationPhotos: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ id: string, alt: string | null, styles: Array<InspirationStyle>, moods: Array<InspirationMood>, colors: Array<InspirationColor>, season: InspirationSeason | null, variants: { small: string | null, medium: string | null }, source: { type: string, name: string | null, url: string | null } }> } };

export type KnowledgeSearchQueryVariables = Exact<{
  q: string;
  limit?: number | null | undefined;
  tags?: Array<string> | string | null | undefined;
}>;


export type KnowledgeSearchQuery = { knowledgeSearch: { degraded: KnowledgeDegradation | null, data: Array<{ slug: string, title: string, heading: string, body: string, score: number }> } };

export type PricingEstimateQueryVariables = Exact<{
  region?: string | null | undefined;
  season?: EstimatorSeason | null | undefined;
  eventType?: EstimatorEventType | null | undefined;
  eventGuests?: number | null | undefined;
  overnightGuests?: number | null | undefined;
  nights?: number | null | undefined;
  venueType?: EstimatorVenueType | null | undefined;
}>;


export type PricingEstimateQuery = { pricingEstimate: { estimatedTotal: number, perNightAverage: number, priceRange: string, summary: string, parameters: unknown, savingsVsTraditional: { savingsPercent: number, note: string } | null } };

export type RegionalCostRangeQueryVariables = Exact<{
  state?: string | null | undefined;
  city?: string | null | undefined;
  slug?: string | null | undefined;
  season?: string | null | undefined;
  guests?: number | null | undefined;
}>;


export type RegionalCostRangeQuery = { regionalCostRange: { covered: boolean, coveredRegions: Array<string> | null, note: string, data: { name: string, slug: string, range: { low: number, high: number, display: string }, scaled: { low: number, high: number, guestCount: number | null } | null } | null } };

export type RateLimitStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type RateLimitStatusQuery = { rateLimit: { tier: ApiTier, perMinute: { limit: number, remaining: number, resetAt: number | null }, perDay: { limit: number, remaining: number, resetAt: number | null }, venueInquiriesPerDay: { remaining: number }, vendorInquiriesPerDay: { remaining: number } } };

export type VendorCardFragment = { id: string, slug: string, businessName: string, tagline: string | null, serviceCategory: VendorCategorySlug, primaryCity: string | null, primaryState: string | null, featuredImageUrl: string | null, startingPrice: number | null, priceUnit: VendorPriceUnit | null, averageRating: number | null, reviewCount: number | null, isAffiliateOnly: boolean } & { ' $fragmentName'?: 'VendorCardFragment' };

export type VendorCategoriesQueryVariables = Exact<{ [key: string]: never; }>;


export type VendorCategoriesQuery = { vendorCategories: Array<{ id: string, slug: string, name: string, vendorCount: number }> };

export type VendorDetailQueryVariables = Exact<{
  slug: string;
}>;


export type VendorDetailQuery = { vendor: (
    { url: string, bio: string | null, website: string | null, instagram: string | null, affiliateLink: string | null, serviceAreas: Array<string> | null, specialties: Array<string> | null, yearsInBusiness: number | null, weddingsCompleted: number | null, pricingStructure: string | null, photos: Array<{ url: string, altText: string | null, category: string | null }>, vendorPolicies: { booking: string | null, cancellation: string | null, payment: string | null } | null }
    & { ' $fragmentRefs'?: { 'VendorCardFragment': VendorCardFragment } }
  ) | null };

export type VendorSearchQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  category?: string | null | undefined;
  location?: string | null | undefined;
  priceMin?: number | null | undefined;
  priceMax?: number | null | undefined;
  search?: string | null | undefined;
  featured?: boolean | null | undefined;
  sortBy?: VendorSort | null | undefined;
}>;


export type VendorSearchQuery = { vendors: { totalCount: number, categoryStats: unknown, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ ' $fragmentRefs'?: { 'VendorCardFragment': VendorCardFragment } }> } };

export type VenueCardFragment = { id: string, slug: string, name: string, city: string, state: string, heroImage: string | null, capacityMin: number | null, capacityMax: number | null, bedrooms: number | null, venueType: string | null, priceRange: string | null, pricing: { currency: VenueCurrency, startingTotal: { amount: number, nights: number, includesFees: boolean } | null } } & { ' $fragmentName'?: 'VenueCardFragment' };

export type VenueDetailQueryVariables = Exact<{
  slug: string;
}>;


export type VenueDetailQuery = { venue: (
    { url: string, description: string | null, amenities: Array<string>, accommodates: number | null, bathrooms: number | null, gatheringSpaces: number | null, latitude: number | null, longitude: number | null, pricing: { minNights: number, priceUnit: VenuePriceUnit, weekdayBase: number | null, weekendBase: number | null, extraNight: number | null, rateDate: string | null, startingTotal: { rate: VenueStartingRate } | null }, photos: Array<{ url: string, category: string | null, isFeatured: boolean }>, testimonials: Array<{ guestName: string | null, rating: number | null, review: string | null, eventDate: string | null }> }
    & { ' $fragmentRefs'?: { 'VenueCardFragment': VenueCardFragment } }
  ) | null };

export type VenueSearchQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  state?: string | null | undefined;
  city?: string | null | undefined;
  capacityMin?: number | null | undefined;
  capacityMax?: number | null | undefined;
  priceMin?: number | null | undefined;
  priceMax?: number | null | undefined;
  bedroomsMin?: number | null | undefined;
  venueType?: string | null | undefined;
  amenities?: Array<string> | string | null | undefined;
}>;


export type VenueSearchQuery = { venues: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ ' $fragmentRefs'?: { 'VenueCardFragment': VenueCardFragment } }> } };

export const VendorCardFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VendorCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Vendor"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"businessName"}},{"kind":"Field","name":{"kind":"Name","value":"tagline"}},{"kind":"Field","name":{"kind":"Name","value":"serviceCategory"}},{"kind":"Field","name":{"kind":"Name","value":"primaryCity"}},{"kind":"Field","name":{"kind":"Name","value":"primaryState"}},{"kind":"Field","name":{"kind":"Name","value":"featuredImageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"startingPrice"}},{"kind":"Field","name":{"kind":"Name","value":"priceUnit"}},{"kind":"Field","name":{"kind":"Name","value":"averageRating"}},{"kind":"Field","name":{"kind":"Name","value":"reviewCount"}},{"kind":"Field","name":{"kind":"Name","value":"isAffiliateOnly"}}]}}]} as unknown as DocumentNode<VendorCardFragment, unknown>;
export const VenueCardFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VenueCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Venue"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"city"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"heroImage"}},{"kind":"Field","name":{"kind":"Name","value":"capacityMin"}},{"kind":"Field","name":{"kind":"Name","value":"capacityMax"}},{"kind":"Field","name":{"kind":"Name","value":"bedrooms"}},{"kind":"Field","name":{"kind":"Name","value":"venueType"}},{"kind":"Field","name":{"kind":"Name","value":"priceRange"}},{"kind":"Field","name":{"kind":"Name","value":"pricing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"startingTotal"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"nights"}},{"kind":"Field","name":{"kind":"Name","value":"includesFees"}}]}}]}}]}}]} as unknown as DocumentNode<VenueCardFragment, unknown>;
export const BlogListDocument = {"__meta__":{"hash":"sha256:730200a93bb17fb7ba9cd673aac1d33e99c53dc7f6af0aa7c1f4c9ff72f0f45c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BlogList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"page"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"1"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"12"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tag"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"blogPosts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"page"},"value":{"kind":"Variable","name":{"kind":"Name","value":"page"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"tag"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tag"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"page"}},{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"excerpt"}},{"kind":"Field","name":{"kind":"Name","value":"featureImage"}},{"kind":"Field","name":{"kind":"Name","value":"publishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"readingTime"}},{"kind":"Field","name":{"kind":"Name","value":"tags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<BlogListQuery, BlogListQueryVariables>;
export const BlogPostDocument = {"__meta__":{"hash":"sha256:506360dc7a91810c6c41fc819ea98c6915431181912fe6edc3d8eacb71919445"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BlogPost"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"slug"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"blogPost"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"slug"},"value":{"kind":"Variable","name":{"kind":"Name","value":"slug"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"publishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"readingTime"}},{"kind":"Field","name":{"kind":"Name","value":"featureImage"}},{"kind":"Field","name":{"kind":"Name","value":"contentPlaintext"}},{"kind":"Field","name":{"kind":"Name","value":"primaryAuthor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}}]}},{"kind":"Field","name":{"kind":"Name","value":"tags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<BlogPostQuery, BlogPostQueryVariables>;
export const SendVenueInquiryDocument = {"__meta__":{"hash":"sha256:2ceafa74b694b87c4a1d71f4f243d9385b8aaf28009b0db1482ca0942d933524"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SendVenueInquiry"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"VenueInquiryInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createVenueInquiry"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inquiryId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<SendVenueInquiryMutation, SendVenueInquiryMutationVariables>;
export const SendVendorInquiryDocument = {"__meta__":{"hash":"sha256:057f6fb78d048a226fe241db916af27c78226a5cd3b1f6a6a6ecd48eecd960a7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SendVendorInquiry"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"VendorInquiryInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createVendorInquiry"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inquiryId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<SendVendorInquiryMutation, SendVendorInquiryMutationVariables>;
export const InspirationFeedDocument = {"__meta__":{"hash":"sha256:3432d051ca72d96d402375f2ed6836cf6c08dcac0e3adac7d1fc3cc338b8c6d3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"InspirationFeed"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"24"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"style"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"InspirationStyle"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"mood"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"InspirationMood"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"color"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"InspirationColor"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"setting"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"InspirationSetting"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"season"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"InspirationSeason"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inspirationPhotos"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"style"},"value":{"kind":"Variable","name":{"kind":"Name","value":"style"}}},{"kind":"Argument","name":{"kind":"Name","value":"mood"},"value":{"kind":"Variable","name":{"kind":"Name","value":"mood"}}},{"kind":"Argument","name":{"kind":"Name","value":"color"},"value":{"kind":"Variable","name":{"kind":"Name","value":"color"}}},{"kind":"Argument","name":{"kind":"Name","value":"setting"},"value":{"kind":"Variable","name":{"kind":"Name","value":"setting"}}},{"kind":"Argument","name":{"kind":"Name","value":"season"},"value":{"kind":"Variable","name":{"kind":"Name","value":"season"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"alt"}},{"kind":"Field","name":{"kind":"Name","value":"styles"}},{"kind":"Field","name":{"kind":"Name","value":"moods"}},{"kind":"Field","name":{"kind":"Name","value":"colors"}},{"kind":"Field","name":{"kind":"Name","value":"season"}},{"kind":"Field","name":{"kind":"Name","value":"variants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"small"}},{"kind":"Field","name":{"kind":"Name","value":"medium"}}]}},{"kind":"Field","name":{"kind":"Name","value":"source"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]}}]}}]} as unknown as DocumentNode<InspirationFeedQuery, InspirationFeedQueryVariables>;
export const KnowledgeSearchDocument = {"__meta__":{"hash":"sha256:8a093ac6863695393a39e060ca9c55d7f6423568ffeebcc9021b2eea7740eb7b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"KnowledgeSearch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"5"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tags"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"knowledgeSearch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"q"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"tags"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tags"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"degraded"}},{"kind":"Field","name":{"kind":"Name","value":"data"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"heading"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"score"}}]}}]}}]}}]} as unknown as DocumentNode<KnowledgeSearchQuery, KnowledgeSearchQueryVariables>;
export const PricingEstimateDocument = {"__meta__":{"hash":"sha256:30e3f7c398f13062dff2f435b487ca3d4cad2ffe6c5a989ef3def1cc9e0f17c7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PricingEstimate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"region"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"season"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EstimatorSeason"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"eventType"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EstimatorEventType"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"eventGuests"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"overnightGuests"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"nights"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"venueType"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"EstimatorVenueType"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pricingEstimate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"region"},"value":{"kind":"Variable","name":{"kind":"Name","value":"region"}}},{"kind":"Argument","name":{"kind":"Name","value":"season"},"value":{"kind":"Variable","name":{"kind":"Name","value":"season"}}},{"kind":"Argument","name":{"kind":"Name","value":"eventType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"eventType"}}},{"kind":"Argument","name":{"kind":"Name","value":"eventGuests"},"value":{"kind":"Variable","name":{"kind":"Name","value":"eventGuests"}}},{"kind":"Argument","name":{"kind":"Name","value":"overnightGuests"},"value":{"kind":"Variable","name":{"kind":"Name","value":"overnightGuests"}}},{"kind":"Argument","name":{"kind":"Name","value":"nights"},"value":{"kind":"Variable","name":{"kind":"Name","value":"nights"}}},{"kind":"Argument","name":{"kind":"Name","value":"venueType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"venueType"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"estimatedTotal"}},{"kind":"Field","name":{"kind":"Name","value":"perNightAverage"}},{"kind":"Field","name":{"kind":"Name","value":"priceRange"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}},{"kind":"Field","name":{"kind":"Name","value":"parameters"}},{"kind":"Field","name":{"kind":"Name","value":"savingsVsTraditional"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"savingsPercent"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}}]}}]}}]} as unknown as DocumentNode<PricingEstimateQuery, PricingEstimateQueryVariables>;
export const RegionalCostRangeDocument = {"__meta__":{"hash":"sha256:f1a3394977224227752d6ca71746690728ded3f22cc0b48126fc6a08d052fff3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RegionalCostRange"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"state"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"city"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"slug"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"season"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"guests"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"regionalCostRange"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"state"},"value":{"kind":"Variable","name":{"kind":"Name","value":"state"}}},{"kind":"Argument","name":{"kind":"Name","value":"city"},"value":{"kind":"Variable","name":{"kind":"Name","value":"city"}}},{"kind":"Argument","name":{"kind":"Name","value":"slug"},"value":{"kind":"Variable","name":{"kind":"Name","value":"slug"}}},{"kind":"Argument","name":{"kind":"Name","value":"season"},"value":{"kind":"Variable","name":{"kind":"Name","value":"season"}}},{"kind":"Argument","name":{"kind":"Name","value":"guests"},"value":{"kind":"Variable","name":{"kind":"Name","value":"guests"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"covered"}},{"kind":"Field","name":{"kind":"Name","value":"coveredRegions"}},{"kind":"Field","name":{"kind":"Name","value":"note"}},{"kind":"Field","name":{"kind":"Name","value":"data"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"range"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"low"}},{"kind":"Field","name":{"kind":"Name","value":"high"}},{"kind":"Field","name":{"kind":"Name","value":"display"}}]}},{"kind":"Field","name":{"kind":"Name","value":"scaled"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"low"}},{"kind":"Field","name":{"kind":"Name","value":"high"}},{"kind":"Field","name":{"kind":"Name","value":"guestCount"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RegionalCostRangeQuery, RegionalCostRangeQueryVariables>;
export const RateLimitStatusDocument = {"__meta__":{"hash":"sha256:1a601b04ffd2e2b086f46aa99ec8831a2fe009e6d848904f9fc8c0d0c204f26f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RateLimitStatus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rateLimit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tier"}},{"kind":"Field","name":{"kind":"Name","value":"perMinute"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"resetAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"perDay"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"limit"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"resetAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"venueInquiriesPerDay"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"remaining"}}]}},{"kind":"Field","name":{"kind":"Name","value":"vendorInquiriesPerDay"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"remaining"}}]}}]}}]}}]} as unknown as DocumentNode<RateLimitStatusQuery, RateLimitStatusQueryVariables>;
export const VendorCategoriesDocument = {"__meta__":{"hash":"sha256:e552c53659c86db85de487e116c6f49bd13722237b90a4d3615e0f6add6518cc"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"VendorCategories"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"vendorCategories"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"vendorCount"}}]}}]}}]} as unknown as DocumentNode<VendorCategoriesQuery, VendorCategoriesQueryVariables>;
export const VendorDetailDocument = {"__meta__":{"hash":"sha256:2caa8ecbbe8fbc1d1dfedb8a322489c0fa29672b32c211170978144be3fe1b6b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"VendorDetail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"slug"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"vendor"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"slug"},"value":{"kind":"Variable","name":{"kind":"Name","value":"slug"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VendorCard"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"bio"}},{"kind":"Field","name":{"kind":"Name","value":"website"}},{"kind":"Field","name":{"kind":"Name","value":"instagram"}},{"kind":"Field","name":{"kind":"Name","value":"affiliateLink"}},{"kind":"Field","name":{"kind":"Name","value":"serviceAreas"}},{"kind":"Field","name":{"kind":"Name","value":"specialties"}},{"kind":"Field","name":{"kind":"Name","value":"yearsInBusiness"}},{"kind":"Field","name":{"kind":"Name","value":"weddingsCompleted"}},{"kind":"Field","name":{"kind":"Name","value":"pricingStructure"}},{"kind":"Field","name":{"kind":"Name","value":"photos"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"altText"}},{"kind":"Field","name":{"kind":"Name","value":"category"}}]}},{"kind":"Field","name":{"kind":"Name","value":"vendorPolicies"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"booking"}},{"kind":"Field","name":{"kind":"Name","value":"cancellation"}},{"kind":"Field","name":{"kind":"Name","value":"payment"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VendorCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Vendor"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"businessName"}},{"kind":"Field","name":{"kind":"Name","value":"tagline"}},{"kind":"Field","name":{"kind":"Name","value":"serviceCategory"}},{"kind":"Field","name":{"kind":"Name","value":"primaryCity"}},{"kind":"Field","name":{"kind":"Name","value":"primaryState"}},{"kind":"Field","name":{"kind":"Name","value":"featuredImageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"startingPrice"}},{"kind":"Field","name":{"kind":"Name","value":"priceUnit"}},{"kind":"Field","name":{"kind":"Name","value":"averageRating"}},{"kind":"Field","name":{"kind":"Name","value":"reviewCount"}},{"kind":"Field","name":{"kind":"Name","value":"isAffiliateOnly"}}]}}]} as unknown as DocumentNode<VendorDetailQuery, VendorDetailQueryVariables>;
export const VendorSearchDocument = {"__meta__":{"hash":"sha256:26ae3ab9313ba5727ead98000ae6452dcfc7362fc7d2fa063990d5e8d01232c0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"VendorSearch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"20"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"category"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"location"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"priceMin"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"priceMax"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"search"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"featured"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sortBy"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"VendorSort"}},"defaultValue":{"kind":"EnumValue","value":"NEWEST"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"vendors"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"category"},"value":{"kind":"Variable","name":{"kind":"Name","value":"category"}}},{"kind":"Argument","name":{"kind":"Name","value":"location"},"value":{"kind":"Variable","name":{"kind":"Name","value":"location"}}},{"kind":"Argument","name":{"kind":"Name","value":"priceMin"},"value":{"kind":"Variable","name":{"kind":"Name","value":"priceMin"}}},{"kind":"Argument","name":{"kind":"Name","value":"priceMax"},"value":{"kind":"Variable","name":{"kind":"Name","value":"priceMax"}}},{"kind":"Argument","name":{"kind":"Name","value":"search"},"value":{"kind":"Variable","name":{"kind":"Name","value":"search"}}},{"kind":"Argument","name":{"kind":"Name","value":"featured"},"value":{"kind":"Variable","name":{"kind":"Name","value":"featured"}}},{"kind":"Argument","name":{"kind":"Name","value":"sortBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sortBy"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"categoryStats"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VendorCard"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VendorCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Vendor"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"businessName"}},{"kind":"Field","name":{"kind":"Name","value":"tagline"}},{"kind":"Field","name":{"kind":"Name","value":"serviceCategory"}},{"kind":"Field","name":{"kind":"Name","value":"primaryCity"}},{"kind":"Field","name":{"kind":"Name","value":"primaryState"}},{"kind":"Field","name":{"kind":"Name","value":"featuredImageUrl"}},{"kind":"Field","name":{"kind":"Name","value":"startingPrice"}},{"kind":"Field","name":{"kind":"Name","value":"priceUnit"}},{"kind":"Field","name":{"kind":"Name","value":"averageRating"}},{"kind":"Field","name":{"kind":"Name","value":"reviewCount"}},{"kind":"Field","name":{"kind":"Name","value":"isAffiliateOnly"}}]}}]} as unknown as DocumentNode<VendorSearchQuery, VendorSearchQueryVariables>;
export const VenueDetailDocument = {"__meta__":{"hash":"sha256:8d704d202a664bee644b3a2925c0c36fbe0c614febafa63b7e72f123fbf664f1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"VenueDetail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"slug"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"venue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"slug"},"value":{"kind":"Variable","name":{"kind":"Name","value":"slug"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VenueCard"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"amenities"}},{"kind":"Field","name":{"kind":"Name","value":"accommodates"}},{"kind":"Field","name":{"kind":"Name","value":"bathrooms"}},{"kind":"Field","name":{"kind":"Name","value":"gatheringSpaces"}},{"kind":"Field","name":{"kind":"Name","value":"latitude"}},{"kind":"Field","name":{"kind":"Name","value":"longitude"}},{"kind":"Field","name":{"kind":"Name","value":"pricing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minNights"}},{"kind":"Field","name":{"kind":"Name","value":"priceUnit"}},{"kind":"Field","name":{"kind":"Name","value":"weekdayBase"}},{"kind":"Field","name":{"kind":"Name","value":"weekendBase"}},{"kind":"Field","name":{"kind":"Name","value":"extraNight"}},{"kind":"Field","name":{"kind":"Name","value":"rateDate"}},{"kind":"Field","name":{"kind":"Name","value":"startingTotal"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rate"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"photos"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"category"}},{"kind":"Field","name":{"kind":"Name","value":"isFeatured"}}]}},{"kind":"Field","name":{"kind":"Name","value":"testimonials"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"guestName"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"review"}},{"kind":"Field","name":{"kind":"Name","value":"eventDate"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VenueCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Venue"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"city"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"heroImage"}},{"kind":"Field","name":{"kind":"Name","value":"capacityMin"}},{"kind":"Field","name":{"kind":"Name","value":"capacityMax"}},{"kind":"Field","name":{"kind":"Name","value":"bedrooms"}},{"kind":"Field","name":{"kind":"Name","value":"venueType"}},{"kind":"Field","name":{"kind":"Name","value":"priceRange"}},{"kind":"Field","name":{"kind":"Name","value":"pricing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"startingTotal"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"nights"}},{"kind":"Field","name":{"kind":"Name","value":"includesFees"}}]}}]}}]}}]} as unknown as DocumentNode<VenueDetailQuery, VenueDetailQueryVariables>;
export const VenueSearchDocument = {"__meta__":{"hash":"sha256:0005edd782a080976e138287fe129b76b101438f2290123dd5a977c447d16bf7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"VenueSearch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"20"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"state"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"city"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"capacityMin"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"capacityMax"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"priceMin"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"priceMax"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"bedroomsMin"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"venueType"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"amenities"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"venues"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"state"},"value":{"kind":"Variable","name":{"kind":"Name","value":"state"}}},{"kind":"Argument","name":{"kind":"Name","value":"city"},"value":{"kind":"Variable","name":{"kind":"Name","value":"city"}}},{"kind":"Argument","name":{"kind":"Name","value":"capacityMin"},"value":{"kind":"Variable","name":{"kind":"Name","value":"capacityMin"}}},{"kind":"Argument","name":{"kind":"Name","value":"capacityMax"},"value":{"kind":"Variable","name":{"kind":"Name","value":"capacityMax"}}},{"kind":"Argument","name":{"kind":"Name","value":"priceMin"},"value":{"kind":"Variable","name":{"kind":"Name","value":"priceMin"}}},{"kind":"Argument","name":{"kind":"Name","value":"priceMax"},"value":{"kind":"Variable","name":{"kind":"Name","value":"priceMax"}}},{"kind":"Argument","name":{"kind":"Name","value":"bedroomsMin"},"value":{"kind":"Variable","name":{"kind":"Name","value":"bedroomsMin"}}},{"kind":"Argument","name":{"kind":"Name","value":"venueType"},"value":{"kind":"Variable","name":{"kind":"Name","value":"venueType"}}},{"kind":"Argument","name":{"kind":"Name","value":"amenities"},"value":{"kind":"Variable","name":{"kind":"Name","value":"amenities"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VenueCard"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VenueCard"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Venue"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"city"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"heroImage"}},{"kind":"Field","name":{"kind":"Name","value":"capacityMin"}},{"kind":"Field","name":{"kind":"Name","value":"capacityMax"}},{"kind":"Field","name":{"kind":"Name","value":"bedrooms"}},{"kind":"Field","name":{"kind":"Name","value":"venueType"}},{"kind":"Field","name":{"kind":"Name","value":"priceRange"}},{"kind":"Field","name":{"kind":"Name","value":"pricing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"startingTotal"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"nights"}},{"kind":"Field","name":{"kind":"Name","value":"includesFees"}}]}}]}}]}}]} as unknown as DocumentNode<VenueSearchQuery, VenueSearchQueryVariables>;