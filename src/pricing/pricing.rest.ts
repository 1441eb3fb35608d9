import { parsePricingEstimate } from './pricing.inputs.js';
import type { RestRoute } from '../rest/route.js';
import { checkedWith } from '../graphql/context.js';
import { ESTIMATOR_MODEL } from './data/estimator-model.js';
import { ESTIMATOR_REGION_IDS } from './pricing.inputs.js';
import { BENCHMARK_VENUE_TYPES, MIN_LISTINGS } from './benchmarks.service.js';

const { defaults } = ESTIMATOR_MODEL;

export const pricingRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/venues/pricing',
    operationId: 'estimatePricing',
    summary: 'Estimate wedding cost for a region',
    description:
      'A deterministic regional model (constants in a versioned data file, echoed as parameters.model_version): venue stay ' +
      '(reference night × regional cost index × venue type × season × weekday/weekend × nights), lodging for overnight guests beyond ' +
      'the 20 the venue sleeps, and per-guest event costs; estimated_total in USD rounded to 10. per_night_average = estimated_total / nights. ' +
      'savings_vs_traditional compares with a banquet venue plus hotel rooms for the same guests. `parameters` keeps snake_case keys on both surfaces.',
    tag: 'Cost intelligence',
    document: /* GraphQL */ `
      query estimatePricing($region: String, $eventType: EstimatorEventType, $eventGuests: Int, $overnightGuests: Int, $nights: Int, $venueType: EstimatorVenueType, $season: EstimatorSeason) {
        pricingEstimate(region: $region, eventType: $eventType, eventGuests: $eventGuests, overnightGuests: $overnightGuests,
          nights: $nights, venueType: $venueType, season: $season) {
          estimatedTotal priceRange perNightAverage perNight summary
          savingsVsTraditional { savingsPercent note }
          parameters
        }
      }`,
    envelope: { kind: 'object' },
    // The spec's codes (invalid_season, …) for the raw values, before the closed sets become enum names.
    check: (args) => checkedWith(parsePricingEstimate, args),
    errors: [
      'invalid_region',
      'invalid_season',
      'invalid_event_type',
      'invalid_event_guests',
      'invalid_overnight_guests',
      'invalid_nights',
      'invalid_venue_type',
      'invalid_parameters',
    ],
    paramDocs: {
      region: {
        description: `Region id, name or short form, case-insensitive (e.g. new-york, "New York", NY, "Lake Como"). Ids: ${ESTIMATOR_REGION_IDS.join(', ')}.`,
        default: defaults.region,
        example: 'california',
      },
      event_type: { description: 'Weekday or weekend event.', default: defaults.eventType },
      event_guests: {
        description: 'Guests at the event.',
        default: defaults.eventGuests,
      },
      overnight_guests: {
        description: 'Guests staying overnight.',
        default: defaults.overnightGuests,
      },
      nights: { description: 'Nights of the stay.', default: defaults.nights },
      venue_type: { description: 'Kind of venue.', default: defaults.venueType },
      season: { description: 'Season of the event.', default: defaults.season },
    },
  },
  {
    method: 'GET',
    path: '/cost-benchmarks',
    operationId: 'getCostBenchmarks',
    summary: 'Cost benchmarks from live listings',
    description:
      'Computed at request time from the live, published listings: the weekday base price for exclusive use over the whole minimum stay ' +
      '(before cleaning, service fee and tax), in USD. Euro-priced listings are converted at fx.eur_to_usd (the newest EUR→USD rate on or ' +
      'before today) and their rows say converted_from EUR; Australian listings use their stored USD amounts. median and the 25th/75th ' +
      'percentiles are linearly interpolated between closest ranks (as PostgreSQL percentile_cont and Excel PERCENTILE.INC) and rounded ' +
      `to whole dollars. A row exists only where at least ${MIN_LISTINGS} listings back it. Without filters: national (US), per-state, ` +
      'per-venue-type (every country) and per-country rows; filters narrow to one row keyed by every filter given (none when fewer than 3 listings ' +
      'match). *_nightly fields are deprecated aliases of *_base_per_stay, never nightly rates. as_of is the computation date.',
    tag: 'Cost intelligence',
    document: /* GraphQL */ `
      query getCostBenchmarks($state: String, $venueType: String, $country: String) {
        costBenchmarks(state: $state, venueType: $venueType, country: $country) {
          data {
            scope country state venueType medianBasePerStay typicalLowBasePerStay typicalHighBasePerStay convertedFrom
            medianNightly typicalLowNightly typicalHighNightly listings
          }
          currency fx { eurToUsd rateDate } asOf sourceUrl note
        }
      }`,
    envelope: { kind: 'spread' },
    errors: ['invalid_parameters'],
    paramDocs: {
      state: { description: 'US state name (or slug): that state’s row.', example: 'California' },
      venue_type: { description: 'Venue type row.', example: 'estate', enum: BENCHMARK_VENUE_TYPES },
      country: { description: 'Destination country row (Mexico, Italy, Costa Rica, Ireland, Australia).', example: 'Italy' },
    },
  },
  {
    method: 'GET',
    path: '/regional-cost-ranges',
    operationId: 'getRegionalCostRange',
    summary: 'Regional whole-wedding budget range',
    description:
      'Authored budget data for every US state, 40+ cities and the destination countries. Give slug, city or state (the most specific ' +
      'given is used; no match is covered: false with covered_regions, never a neighbouring region). season: spring, summer, fall, autumn, ' +
      'winter (southern-hemisphere regions use the months six apart), a month name or 01–12. guests scales the range: guest multiplier = ' +
      '0.35 + 0.65 × guests / average_guest_count, clamped to 0.5–2.5; scaled = range × guest multiplier × season multiplier, rounded to 100.',
    tag: 'Cost intelligence',
    document: /* GraphQL */ `
      query getRegionalCostRange($slug: String, $state: String, $city: String, $season: String, $guests: Int) {
        regionalCostRange(slug: $slug, state: $state, city: $city, season: $season, guests: $guests) {
          data {
            slug name type coverage matchedOn multipliersFrom
            range { low high display note }
            averageGuestCount
            seasonalMultipliers { peak shoulder offSeason }
            dayOfWeekMultipliers { friday saturday sunday }
            popularSeasons { peak shoulder offSeason bestWeather }
            season { asked months { month period } period multiplier unclassified }
            scaled { low high guestCount guestMultiplier seasonMultiplier clamped }
            source dataYear
          }
          covered reason asked coveredRegions asOf note sourceUrl
        }
      }`,
    envelope: { kind: 'spread' },
    errors: ['region_required', 'invalid_season_name', 'invalid_guests', 'invalid_parameters'],
    paramDocs: {
      slug: { description: 'Exact region slug taken from covered_regions.', example: 'napa' },
      state: {
        description: 'State name or USPS code, destination country, or colloquial region (SoCal, Hill Country, Upstate New York).',
        example: 'TX',
      },
      city: { description: 'City name or slug.', example: 'Nashville' },
      season: { description: 'spring, summer, fall, autumn, winter, a month name, or 01 to 12.', example: 'october' },
      guests: { description: "Scales the range from the region's average guest count." },
    },
  },
];
