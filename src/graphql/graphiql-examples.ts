// The example operations GraphiQL opens with, one tab each: what an analyst does first.

const KEY_LINE = '# Paste your API key into the API key field above once: every tab sends it. The schema (Docs) loads without one.';

export const GRAPHIQL_EXAMPLES: Array<{ query: string; variables?: string }> = [
  {
    query: `${KEY_LINE}
# Venue search with filters and paging: pass pageInfo.endCursor as $after for the next page.
query SearchVenues($after: String) {
  venues(state: "california", capacityMin: 20, amenities: ["pool"], first: 5, after: $after) {
    totalCount
    nodes { slug name city capacityMax pricing { currency startingTotal { amount nights } } }
    pageInfo { hasNextPage endCursor }
  }
}
`,
  },
  {
    query: `${KEY_LINE}
# One venue with photos and pricing (counts as a venue detail lookup: 20 a day).
query VenueDetail($slug: String!) {
  venue(slug: $slug) {
    name city state description capacityMax bedrooms
    pricing { currency minNights weekdayBase weekendBase startingTotal { amount nights includesFees } }
    photos { url category } totalPhotos
    testimonials { guestName rating review }
  }
}
`,
    variables: JSON.stringify({ slug: 'california/napa/replace-with-a-slug-from-search' }, null, 2),
  },
  {
    query: `${KEY_LINE}
# Vendors by category, cheapest first; vendorCategories lists the category slugs.
query Photographers {
  vendorCategories { slug name vendorCount }
  vendors(category: "photography", sortBy: PRICE_LOW_TO_HIGH, first: 5) {
    nodes { slug businessName primaryCity startingPrice priceUnit }
  }
}
`,
  },
  {
    query: `${KEY_LINE}
# A pricing estimate for a region (USD, all in; a model estimate, not a quote).
query Estimate {
  pricingEstimate(region: "texas", eventGuests: 120, nights: 3, season: SHOULDER) {
    estimatedTotal priceRange perNightAverage summary
    savingsVsTraditional { savingsPercent note }
  }
}
`,
  },
  {
    query: `${KEY_LINE}
# Planning knowledge, by meaning and words.
query Knowledge {
  knowledgeSearch(q: "how far ahead should we book a venue", limit: 3) {
    data { title heading body score }
    degraded
  }
}
`,
  },
];
