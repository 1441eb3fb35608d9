/* eslint-disable @typescript-eslint/no-explicit-any -- renderers read REST bodies whose shape the output schema already guarantees */
// The assistant surface's tool table (§5.2 keyless server): each tool is a thin entry over a REST route of the same
// core — its GraphQL document, its parameters (the spec's snake_case names) and their validation, its body as the
// structured result. No business rule lives here; the only surface rule is §8.6's 50 venues per call.

import { groupedAmount } from '../catalogue/money.js';

/** A tool's result as a short text for a person reading along (the structured result is the REST body). */
type Render = (body: Record<string, any>) => string;

export interface AssistantTool {
  /** The tool's name: a contract with assistants, never renamed. */
  name: string;
  title: string;
  /** Written for a model: what the tool is for, and what it is not for. */
  description: string;
  /** The REST route (operationId) whose document, parameters and body the tool uses. */
  operationId: string;
  /** §8.6: page size of this surface, when it differs from the route's. */
  limit?: { max: number; default: number };
  render: Render;
}

const money = (amount: number | null | undefined, currency = 'USD') =>
  amount === null || amount === undefined ? 'price on request' : `${currency} ${groupedAmount(Math.round(amount))}`;

const more = (body: Record<string, any>) => (body.pagination?.has_more ? ` More: pass cursor "${body.pagination.next_cursor}".` : '');

const lines = (items: string[], empty: string) => (items.length ? items.map((l) => `- ${l}`).join('\n') : empty);

export const ASSISTANT_TOOLS: AssistantTool[] = [
  {
    name: 'search_venues',
    title: 'Search wedding venues',
    description:
      'Search whole-property wedding venues (estates, villas, ranches, castles…) in the US, Mexico, Italy, Costa Rica, Ireland and Australia by state or region, city, venue type, sleeping capacity, bedrooms, amenities and starting price. ' +
      'Where: when the couple names a town ("near Asheville"), pass near_city with its name (an unknown name is refused with up to 3 close names to retry with); when you have coordinates, near as [latitude, longitude]. radius_km (1–500, default 50) sets how far around either to look, and each venue then has distance_km. ' +
      'What: q takes free words such as "lakefront barn" (every word must match; one typo in a word of 5 letters or more is tolerated). ' +
      'Order: sort=distance with near_city or near, relevance with q, price_asc for a budget (also price_desc, capacity_desc). ' +
      'Returns up to 50 venues per call with their pricing for the whole minimum stay (not per night), and a cursor for the next page (pass the same parameters with it). Use get_venue for photos, description and reviews of one venue. Not for vendors (search_vendors) or budget estimates (estimate_wedding_cost).',
    operationId: 'searchVenues',
    limit: { max: 50, default: 10 },
    render: (b) =>
      `${b.pagination.total_count} venues match; ${b.data.length} shown.${more(b)}\n${lines(
        b.data.map(
          (v: any) =>
            `${v.name} — ${v.city}, ${v.state}${typeof v.distance_km === 'number' ? `, ${v.distance_km} km away` : ''}; sleeps ${v.capacity_max ?? '?'}; from ${money(v.pricing?.starting_total?.amount, v.pricing?.currency)} for ${v.pricing?.min_nights ?? '?'} nights (slug: ${v.slug})`,
        ),
        'No venue matches.',
      )}`,
  },
  {
    name: 'get_venue',
    title: 'Get one venue',
    description:
      'Full details of one venue by its slug exactly as search_venues returned it (slashes included, not encoded): description, sleeping capacity, amenities, up to 5 photos, reviews and pricing for the whole minimum stay. Each call counts one venue detail lookup of a daily budget (200 a day per address; API keys have 20 a day, however the details are read); do not call it for every search result.',
    operationId: 'getVenue',
    render: ({ data: v }) =>
      `${v.name} — ${v.city}, ${v.state}${v.country ? `, ${v.country}` : ''}. ${v.property_type ?? ''} sleeping ${v.capacity_max ?? '?'} in ${v.bedrooms ?? '?'} bedrooms. From ${money(v.pricing?.starting_total?.amount, v.pricing?.currency)} for ${v.pricing?.min_nights ?? '?'} nights, fees included. ${v.total_photos} photos; ${v.testimonials.length} reviews shown. ${v.url}`,
  },
  {
    name: 'search_vendors',
    title: 'Search wedding vendors',
    description:
      'Search wedding vendors (photographers, caterers, florists, planners, DJs…) by category, location, state, city, starting price, text and featured status, sorted by newest, price or experience. Returns vendors with starting prices and a cursor. Use list_vendor_categories for the category names and get_vendor for one vendor. Not for venues.',
    operationId: 'searchVendors',
    render: (b) =>
      `${b.pagination.total_count} vendors match; ${b.data.length} shown.${more(b)}\n${lines(
        b.data.map(
          (v: any) =>
            `${v.business_name} — ${v.service_category}, ${v.primary_city ?? '?'}, ${v.primary_state ?? '?'}; from ${money(v.starting_price)}${v.price_unit ? ` ${v.price_unit}` : ''} (slug: ${v.slug})`,
        ),
        'No vendor matches.',
      )}`,
  },
  {
    name: 'list_vendor_categories',
    title: 'List vendor categories',
    description: 'The 11 vendor categories with their slugs and the number of active vendors in each. Use a slug as search_vendors category.',
    operationId: 'listVendorCategories',
    render: (b) =>
      lines(
        b.data.map((c: any) => `${c.name} (${c.slug}): ${c.vendor_count} vendors`),
        'No categories.',
      ),
  },
  {
    name: 'get_vendor',
    title: 'Get one vendor',
    description:
      'Full details of one vendor by slug: bio, services, policies, photos, ratings and links. Affiliate-only vendors take no inquiries through this service; their affiliate_link is the way to reach them.',
    operationId: 'getVendor',
    render: ({ data: v }) =>
      `${v.business_name} — ${v.service_category} in ${v.primary_city ?? '?'}, ${v.primary_state ?? '?'}. From ${money(v.starting_price)}${v.price_unit ? ` ${v.price_unit}` : ''}. Rating ${v.average_rating ?? 'n/a'} (${v.review_count ?? 0} reviews). ${v.url}`,
  },
  {
    name: 'estimate_wedding_cost',
    title: 'Estimate a wedding’s cost',
    description:
      'All-in regional estimate (USD) for a whole-property wedding stay: region, weekday or weekend, guests, overnight guests, nights, venue type and season. Returns the estimated total, a range, a per-night comparison average (not a rate any venue charges) and savings against a traditional venue-plus-hotel wedding. A model estimate, not a quote for any venue.',
    operationId: 'estimatePricing',
    render: ({ data: p }) => `${p.summary} Estimated total USD ${groupedAmount(Math.round(p.estimated_total))} (${p.price_range}).`,
  },
  {
    name: 'get_cost_benchmarks',
    title: 'Venue cost benchmarks',
    description:
      'Median and typical (25th–75th percentile) base prices in USD for exclusive use of a venue over its whole minimum stay, computed from live listings: nationally, per state, per venue type (estate, villa, ranch, mansion) and per destination country. A figure exists only with at least 3 listings. Venue prices only, not whole-wedding budgets (get_regional_cost_range).',
    operationId: 'getCostBenchmarks',
    render: (b) =>
      lines(
        b.data.map(
          (r: any) =>
            `${r.scope}${r.state ? ` ${r.state}` : ''}${r.venue_type ? ` ${r.venue_type}` : ''}${r.country ? ` ${r.country}` : ''}: median USD ${groupedAmount(Math.round(r.median_base_per_stay))} (${r.listings} listings)`,
        ),
        'No benchmark has 3 listings for that filter.',
      ),
  },
  {
    name: 'get_regional_cost_range',
    title: 'Whole-wedding budget range for a region',
    description:
      'Published whole-wedding budget range (all in, not a venue price) for a US state, city or destination country, optionally for a season and scaled to a guest count. When the region is not covered the result says covered: false and lists the covered regions; that is a normal answer, not an error, and no neighbouring region is substituted.',
    operationId: 'getRegionalCostRange',
    render: (b) =>
      b.covered
        ? `${b.data.name}: ${b.data.range.display} for about ${b.data.average_guest_count} guests.${b.data.scaled ? ` Scaled: USD ${groupedAmount(Math.round(b.data.scaled.low))}–${groupedAmount(Math.round(b.data.scaled.high))}.` : ''}`
        : `Not covered (${b.reason ?? 'no data'}). Covered regions: ${(b.covered_regions ?? []).slice(0, 20).join(', ')}…`,
  },
  {
    name: 'search_planning_knowledge',
    title: 'Search wedding planning advice',
    description:
      'Search authored planning notes and this service’s policies (budgeting, timelines, guests, contracts, destinations, seasons, accessibility, inquiry and cancellation policies) by meaning and by words; returns sections verbatim in rank order. No venue prices or availability. If degraded is text_only, only word matching ran.',
    operationId: 'searchKnowledge',
    render: (b) =>
      `${b.degraded ? `(degraded: ${b.degraded}) ` : ''}${lines(
        b.data.map((c: any) => `${c.title}${c.heading ? ` — ${c.heading}` : ''}: ${c.body.slice(0, 200)}${c.body.length > 200 ? '…' : ''}`),
        'Nothing found.',
      )}`,
  },
  {
    name: 'search_inspiration',
    title: 'Search inspiration photos',
    description:
      'Curated wedding inspiration photos by style, setting, colour palette, mood and season; each links back to the venue or vendor it shows. For ideas and mood boards, not for availability or prices.',
    operationId: 'searchInspiration',
    render: (b) =>
      `${b.pagination.total} photos match; ${b.data.length} shown.\n${lines(
        b.data.map((p: any) => `${p.alt ?? 'photo'} — ${p.source?.name ?? '?'} (${p.image_url ?? 'no image'})`),
        'No photo matches.',
      )}`,
  },
];
