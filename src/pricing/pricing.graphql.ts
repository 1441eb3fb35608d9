import { builder } from '../graphql/builder.js';
import { graphqlOnly } from '../graphql/graphql-only.js';
import { parsedArguments, type RequestContext } from '../graphql/context.js';
import { ESTIMATOR_MODEL } from './data/estimator-model.js';
import { estimatePricing, type PricingResult } from './pricing.service.js';
import { costBenchmarks, type BenchmarkDeps, type BenchmarkRow, type CostBenchmarks } from './benchmarks.service.js';
import {
  regionalCostRange,
  type RegionalCostRange,
  type RegionalRangeResult,
  type ScaledRange,
  type SeasonResult,
} from './regional-ranges.service.js';
import {
  CostBenchmarksInput,
  ESTIMATOR_EVENT_TYPES,
  ESTIMATOR_REGION_IDS,
  ESTIMATOR_SEASONS,
  ESTIMATOR_VENUE_TYPES,
  PricingEstimateInput,
  RegionalRangeInput,
  parsePricingEstimate,
} from './pricing.inputs.js';
import { parsedBy } from '../graphql/input-schema.js';
import type { Multipliers, PopularSeasons } from './data/regional-climates.js';
import { closedSet, closedSetOf } from '../graphql/closed-set.js';

// Cost intelligence (§2.4–2.6, §4.3–4.5): types and root fields. Field names are the camelCase of the REST names.

/** §9: deprecated fields keep their replacement's value until after 2027-01-06. */
const deprecated = (replacement: string) => `Use ${replacement} (same value). Removal announced for after 2027-01-06.`;

const SavingsRef = builder.objectRef<NonNullable<PricingResult['savingsVsTraditional']>>('PricingSavings').implement({
  ...graphqlOnly('How far the estimate is below a traditional wedding for the same guests.'),
  fields: (t) => ({
    savingsPercent: t.exposeInt('savingsPercent', { description: 'Percent below the traditional estimate, rounded.' }),
    note: t.exposeString('note', graphqlOnly('What the comparison assumes, in a sentence.')),
  }),
});

const PARAMETERS_SCHEMA = {
  type: 'object',
  description: 'The values the estimate used, defaults included, under their REST (snake_case) names on both surfaces.',
  properties: {
    region: { type: 'string', enum: [...ESTIMATOR_REGION_IDS] },
    event_type: { type: 'string', enum: [...ESTIMATOR_EVENT_TYPES] },
    event_guests: { type: 'integer' },
    overnight_guests: { type: 'integer' },
    nights: { type: 'integer' },
    venue_type: { type: 'string', enum: [...ESTIMATOR_VENUE_TYPES] },
    season: { type: 'string', enum: [...ESTIMATOR_SEASONS] },
    model_version: { type: 'string' },
  },
  required: ['region', 'event_type', 'event_guests', 'overnight_guests', 'nights', 'venue_type', 'season', 'model_version'],
};

const PricingResultRef = builder.objectRef<PricingResult>('PricingResult').implement({
  description: 'A deterministic regional estimate (§2.4); the model and a worked example are in docs/pricing.md.',
  fields: (t) => ({
    estimatedTotal: t.exposeFloat('estimatedTotal', { description: 'All-in regional estimate for the stay, USD, rounded to 10.' }),
    priceRange: t.exposeString('priceRange', { description: '85% to 120% of estimatedTotal, each end rounded to 100.' }),
    perNightAverage: t.exposeFloat('perNightAverage', {
      description: 'estimatedTotal / nights, a comparison average, not a rate any venue charges.',
    }),
    perNight: t.exposeFloat('perNight', { ...graphqlOnly('Same value as perNightAverage.'), deprecationReason: deprecated('perNightAverage') }),
    summary: t.exposeString('summary', graphqlOnly('The estimate in one sentence, for display.')),
    savingsVsTraditional: t.expose('savingsVsTraditional', {
      type: SavingsRef,
      nullable: true,
      description: 'Against a traditional banquet venue plus hotel rooms for the same guests; null where there is no saving.',
    }),
    parameters: t.expose('parameters', { type: 'JSON', extensions: { jsonSchema: PARAMETERS_SCHEMA }, description: PARAMETERS_SCHEMA.description }),
  }),
});

const BenchmarkScope = closedSetOf<BenchmarkRow['scope']>(
  'CostBenchmarkScope',
  { national: true, state: true, venue_type: true, country: true },
  'What a cost benchmark row is computed over (§2.5).',
);
const ConvertedCurrency = closedSetOf<NonNullable<BenchmarkRow['convertedFrom']>>(
  'CostBenchmarkConvertedFrom',
  { EUR: true },
  'The currency listings were converted from (§2.5).',
);
const RegionType = closedSetOf<RegionalCostRange['type']>(
  'RegionType',
  { state: true, city: true },
  'The kind of region a cost range covers (§2.6).',
);
const RegionCoverage = closedSetOf<RegionalCostRange['coverage']>(
  'RegionCoverage',
  { calculator: true, parent_state: true, insights_only: true },
  'Where a region’s seasonal multipliers come from (§4.5).',
);
const RegionMatch = closedSetOf<RegionalCostRange['matchedOn']>(
  'RegionMatch',
  { slug: true, city: true, state: true, country: true, alias: true },
  'Which part of the request found the region (§4.5).',
);
const SeasonPeriod = closedSetOf<SeasonResult['period']>(
  'SeasonPeriod',
  { peak: true, shoulder: true, offSeason: true },
  'A demand period of a region’s year (§2.6).',
);
const MonthPeriod = closedSetOf<SeasonResult['months'][number]['period']>(
  'SeasonMonthPeriod',
  { peak: true, shoulder: true, offSeason: true, unclassified: true },
  'The demand period of one month in a region; unclassified when it is in none of the lists (§4.5).',
);

const BenchmarkRowRef = builder.objectRef<BenchmarkRow>('CostBenchmark').implement({
  description: 'Percentiles of the weekday base price for exclusive use over the whole minimum stay, USD (§2.5).',
  fields: (t) => ({
    scope: t.expose('scope', { type: BenchmarkScope.ref, description: 'national, state, venue_type or country.' }),
    country: t.exposeString('country', { nullable: true, ...graphqlOnly('The country of a country row; null otherwise.') }),
    state: t.exposeString('state', { nullable: true, ...graphqlOnly('The state of a state row; null otherwise.') }),
    venueType: t.exposeString('venueType', { nullable: true, ...graphqlOnly('The venue type of a venue_type row; null otherwise.') }),
    medianBasePerStay: t.exposeFloat('medianBasePerStay', { description: 'Median (linear interpolation), whole USD.' }),
    typicalLowBasePerStay: t.exposeFloat('typicalLowBasePerStay', { description: '25th percentile, whole USD.' }),
    typicalHighBasePerStay: t.exposeFloat('typicalHighBasePerStay', { description: '75th percentile, whole USD.' }),
    convertedFrom: t.expose('convertedFrom', {
      type: ConvertedCurrency.ref,
      nullable: true,
      description: 'EUR when euro-priced listings were converted at fx.',
    }),
    medianNightly: t.exposeFloat('medianNightly', {
      ...graphqlOnly('Same value as medianBasePerStay.'),
      deprecationReason: deprecated('medianBasePerStay'),
    }),
    typicalLowNightly: t.exposeFloat('typicalLowNightly', {
      ...graphqlOnly('Same value as typicalLowBasePerStay.'),
      deprecationReason: deprecated('typicalLowBasePerStay'),
    }),
    typicalHighNightly: t.exposeFloat('typicalHighNightly', {
      ...graphqlOnly('Same value as typicalHighBasePerStay.'),
      deprecationReason: deprecated('typicalHighBasePerStay'),
    }),
    listings: t.exposeInt('listings', { description: 'Live listings behind the figures (at least 3).' }),
  }),
});

const FxRef = builder.objectRef<NonNullable<CostBenchmarks['fx']>>('CostBenchmarkFx').implement({
  ...graphqlOnly('The exchange rate euro-priced listings were converted at.'),
  fields: (t) => ({
    eurToUsd: t.exposeFloat('eurToUsd', { description: 'USD per euro applied to euro-priced listings.' }),
    rateDate: t.expose('rateDate', { type: 'Date', description: 'Date of that rate (the newest on or before today).' }),
  }),
});

const BenchmarkCurrency = closedSet('CostBenchmarkCurrency', ['USD'], 'The currency of cost benchmarks (§2.5).');
// The estimator's closed sets. A value outside one keeps the spec's own code on GraphQL too (the argument's
// refusalCode: src/graphql/refused-argument.ts), as REST answers it.
const EstimatorEventType = closedSet('EstimatorEventType', ESTIMATOR_EVENT_TYPES, 'Day of the week the event falls on (§4.3).');
const EstimatorVenueType = closedSet('EstimatorVenueType', ESTIMATOR_VENUE_TYPES, 'Kind of venue the estimator prices (§4.3).');
const EstimatorSeason = closedSet('EstimatorSeason', ESTIMATOR_SEASONS, 'Demand season of the event date (§4.3).');

const CostBenchmarksRef = builder.objectRef<CostBenchmarks>('CostBenchmarks').implement({
  description: 'Cost benchmarks computed from live listings at request time (§2.5).',
  fields: (t) => ({
    data: t.expose('data', { type: [BenchmarkRowRef], ...graphqlOnly('Benchmark rows: every row, or the rows the filters name.') }),
    currency: t.expose('currency', { type: BenchmarkCurrency.ref, description: BenchmarkCurrency.describe() }),
    fx: t.expose('fx', { type: FxRef, nullable: true, description: 'Null only when no EUR→USD rate is on file (euro listings are then left out).' }),
    asOf: t.expose('asOf', { type: 'Date', nullable: true, description: 'Date the figures were computed (YYYY-MM-DD).' }),
    sourceUrl: t.expose('sourceUrl', { type: 'URL', ...graphqlOnly('Page the figures can be cited from.') }),
    note: t.exposeString('note', graphqlOnly('How the figures were computed, in a sentence.')),
  }),
});

const RangeRef = builder.objectRef<RegionalCostRange['range']>('RegionalRangeBounds').implement({
  description: 'Whole wedding budget, all in, USD; not a venue price.',
  fields: (t) => ({
    low: t.exposeFloat('low', graphqlOnly('Low end, USD.')),
    high: t.exposeFloat('high', graphqlOnly('High end, USD.')),
    display: t.exposeString('display', graphqlOnly('The range as text, for display.')),
    note: t.exposeString('note', graphqlOnly('What the range covers, in a sentence.')),
  }),
});

const SeasonalRef = builder.objectRef<Multipliers['seasonal']>('SeasonalMultipliers').implement({
  ...graphqlOnly('Factors applied to the range by season period.'),
  fields: (t) => ({
    peak: t.exposeFloat('peak', graphqlOnly('Factor for peak months.')),
    shoulder: t.exposeFloat('shoulder', graphqlOnly('Factor for shoulder months.')),
    offSeason: t.exposeFloat('offSeason', graphqlOnly('Factor for off-season months.')),
  }),
});

const DayOfWeekRef = builder.objectRef<Multipliers['dayOfWeek']>('DayOfWeekMultipliers').implement({
  ...graphqlOnly('Factors applied to the range by wedding day.'),
  fields: (t) => ({
    friday: t.exposeFloat('friday', graphqlOnly('Factor for a Friday wedding.')),
    saturday: t.exposeFloat('saturday', graphqlOnly('Factor for a Saturday wedding.')),
    sunday: t.exposeFloat('sunday', graphqlOnly('Factor for a Sunday wedding.')),
  }),
});

const PopularSeasonsRef = builder.objectRef<PopularSeasons>('PopularSeasons').implement({
  description: 'Popular wedding months by period; a month may be in no list.',
  fields: (t) => ({
    peak: t.stringList({ ...graphqlOnly('Peak months, by name.'), resolve: (p) => [...p.peak] }),
    shoulder: t.stringList({ ...graphqlOnly('Shoulder months, by name.'), resolve: (p) => [...p.shoulder] }),
    offSeason: t.stringList({ ...graphqlOnly('Off-season months, by name.'), resolve: (p) => [...p.offSeason] }),
    bestWeather: t.exposeString('bestWeather', graphqlOnly('When the weather suits a wedding best, as text.')),
  }),
});

const SeasonMonthRef = builder.objectRef<SeasonResult['months'][number]>('SeasonMonth').implement({
  ...graphqlOnly('A month of the asked season and its period in the region.'),
  fields: (t) => ({
    month: t.exposeString('month', graphqlOnly('Month name.')),
    period: t.expose('period', { type: MonthPeriod.ref, description: 'peak, shoulder, offSeason, or unclassified (in none of the lists).' }),
  }),
});

const SeasonRef = builder.objectRef<SeasonResult>('RegionalSeason').implement({
  ...graphqlOnly('The season asked for, resolved to months and a multiplier.'),
  fields: (t) => ({
    asked: t.exposeString('asked', graphqlOnly('The season as sent.')),
    months: t.expose('months', { type: [SeasonMonthRef], ...graphqlOnly('Its months, each with its period.') }),
    period: t.expose('period', { type: SeasonPeriod.ref, description: 'peak, shoulder or offSeason.' }),
    multiplier: t.exposeFloat('multiplier', graphqlOnly('The seasonal multiplier of period.')),
    unclassified: t.exposeBoolean('unclassified', {
      description: "True when no month of the season is in any of the region's lists (shoulder is then used).",
    }),
  }),
});

const ScaledRef = builder.objectRef<ScaledRange>('ScaledRange').implement({
  description: 'A scaled estimate, never a quote: range × guest multiplier × season multiplier, rounded to 100.',
  fields: (t) => ({
    low: t.exposeFloat('low', graphqlOnly('Scaled low end, USD.')),
    high: t.exposeFloat('high', graphqlOnly('Scaled high end, USD.')),
    guestCount: t.exposeInt('guestCount', { nullable: true, ...graphqlOnly('The guests asked for; null when not given.') }),
    guestMultiplier: t.exposeFloat('guestMultiplier', graphqlOnly('Factor for the guest count.')),
    seasonMultiplier: t.exposeFloat('seasonMultiplier', graphqlOnly('Factor for the season.')),
    clamped: t.exposeBoolean('clamped', { description: 'True when the guest multiplier hit its bound (0.5 or 2.5).' }),
  }),
});

const RegionalCostRangeRef = builder.objectRef<RegionalCostRange>('RegionalCostRange').implement({
  description: 'Authored whole-wedding budget range for a US state, city or destination (§2.6).',
  fields: (t) => ({
    slug: t.exposeString('slug', graphqlOnly('Region slug.')),
    name: t.exposeString('name', graphqlOnly('Region name.')),
    type: t.expose('type', { type: RegionType.ref, description: 'state or city (destination countries are state-level).' }),
    coverage: t.expose('coverage', { type: RegionCoverage.ref, description: 'calculator, parent_state or insights_only.' }),
    matchedOn: t.expose('matchedOn', { type: RegionMatch.ref, description: 'slug, city, state, country or alias.' }),
    multipliersFrom: t.exposeString('multipliersFrom', { nullable: true, description: 'Slug the multipliers came from (parent_state).' }),
    range: t.expose('range', { type: RangeRef, ...graphqlOnly('The authored range.') }),
    averageGuestCount: t.exposeInt('averageGuestCount', graphqlOnly('Guests at an average wedding in the region.')),
    seasonalMultipliers: t.expose('seasonalMultipliers', { type: SeasonalRef, ...graphqlOnly('Factors by season period.') }),
    dayOfWeekMultipliers: t.expose('dayOfWeekMultipliers', { type: DayOfWeekRef, ...graphqlOnly('Factors by wedding day.') }),
    popularSeasons: t.expose('popularSeasons', { type: PopularSeasonsRef, ...graphqlOnly('Months by period.') }),
    season: t.expose('season', { type: SeasonRef, nullable: true, ...graphqlOnly('The season asked for; null when none was.') }),
    scaled: t.expose('scaled', {
      type: ScaledRef,
      nullable: true,
      ...graphqlOnly('The scaled estimate; null when neither guests nor season was given.'),
    }),
    source: t.exposeString('source', graphqlOnly('Where the figures come from.')),
    dataYear: t.exposeInt('dataYear', graphqlOnly('Year the figures describe.')),
  }),
});

const RegionalRangeResultRef = builder.objectRef<RegionalRangeResult>('RegionalCostRangeResult').implement({
  description: 'A regional range, or covered: false with the covered regions (no neighbouring region is substituted).',
  fields: (t) => ({
    data: t.expose('data', { type: RegionalCostRangeRef, nullable: true, ...graphqlOnly('The range; null when not covered.') }),
    covered: t.exposeBoolean('covered', graphqlOnly('Whether the region asked for has a range.')),
    reason: t.exposeString('reason', { nullable: true, description: 'Why there is no data (covered: false).' }),
    asked: t.exposeString('asked', { nullable: true, description: 'The identifier that was looked up.' }),
    coveredRegions: t.exposeStringList('coveredRegions', { nullable: true, description: 'Every covered slug (covered: false).' }),
    asOf: t.exposeInt('asOf', { description: 'Year the data describes.' }),
    note: t.exposeString('note', graphqlOnly('What the figures are, in a sentence.')),
    sourceUrl: t.expose('sourceUrl', { type: 'URL', ...graphqlOnly('Page the figures can be cited from.') }),
  }),
});

const benchmarkDeps = (ctx: RequestContext): BenchmarkDeps => ({
  readRows: ctx.readRows,
  eurToUsd: () => ctx.loaders.exchangeRate.load('EUR:USD'),
  now: ctx.now,
  siteUrl: ctx.siteUrl,
});

const { defaults, bounds } = ESTIMATOR_MODEL;

builder.queryFields((t) => ({
  pricingEstimate: t.field({
    type: PricingResultRef,
    description: 'Estimate the all-in cost of a wedding stay in a region (§4.3). Deterministic; constants in src/pricing/data.',
    extensions: parsedBy(PricingEstimateInput),
    args: {
      region: t.arg.string({
        defaultValue: defaults.region,
        description: `Region id, name or short form (any case). Ids: ${ESTIMATOR_REGION_IDS.join(', ')}.`,
      }),
      eventType: t.arg({
        type: EstimatorEventType.ref,
        defaultValue: defaults.eventType,
        description: EstimatorEventType.describe(),
        extensions: { refusalCode: 'invalid_event_type' },
      }),
      eventGuests: t.arg.int({ defaultValue: defaults.eventGuests, description: `Event guests, ${bounds.eventGuests.join(' to ')}.` }),
      overnightGuests: t.arg.int({
        defaultValue: defaults.overnightGuests,
        description: `Overnight guests, ${bounds.overnightGuests.join(' to ')}.`,
      }),
      nights: t.arg.int({ defaultValue: defaults.nights, description: `Nights, ${bounds.nights.join(' to ')}.` }),
      venueType: t.arg({
        type: EstimatorVenueType.ref,
        defaultValue: defaults.venueType,
        description: EstimatorVenueType.describe(),
        extensions: { refusalCode: 'invalid_venue_type' },
      }),
      season: t.arg({
        type: EstimatorSeason.ref,
        defaultValue: defaults.season,
        description: EstimatorSeason.describe(),
        extensions: { refusalCode: 'invalid_season' },
      }),
    },
    resolve: (_root, args, ctx) => estimatePricing(parsedArguments(ctx, parsePricingEstimate, args)),
  }),
  costBenchmarks: t.field({
    type: CostBenchmarksRef,
    description: 'Median and quartiles of live listings’ weekday base for the whole minimum stay, USD (§4.4).',
    extensions: parsedBy(CostBenchmarksInput),
    args: {
      state: t.arg.string({ description: 'US state name (or slug): that state’s row.' }),
      venueType: t.arg.string({ description: 'estate, villa, ranch or mansion: that venue type’s row.' }),
      country: t.arg.string({ description: 'Destination country (Mexico, Italy, Costa Rica, Ireland, Australia): its row.' }),
    },
    resolve: (_root, args, ctx) => costBenchmarks(args, benchmarkDeps(ctx)),
  }),
  regionalCostRange: t.field({
    type: RegionalRangeResultRef,
    description: 'Whole-wedding budget range for a US state, city or destination country (§4.5). Give slug, state or city.',
    extensions: parsedBy(RegionalRangeInput),
    args: {
      slug: t.arg.string({ description: 'Exact region slug from coveredRegions.' }),
      state: t.arg.string({
        description: 'State name or USPS code, destination country, or a colloquial region (SoCal, Hill Country, Upstate New York).',
      }),
      city: t.arg.string({ description: 'City name or slug.' }),
      season: t.arg.string({ description: 'spring, summer, fall, autumn, winter, a month name, or 01 to 12.' }),
      guests: t.arg.int({ description: "1 to 2000: scales the range from the region's average guest count." }),
    },
    resolve: (_root, args, ctx) => regionalCostRange(args, { siteUrl: ctx.siteUrl }),
  }),
}));
