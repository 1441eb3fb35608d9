// Vendor profile copy (§2.8–2.9): bio, pricing structure, portfolio description and policies, built from
// the vendor's own facts so the text agrees with the structured fields (a per-person caterer says per person).
import { thousands } from './format.js';
import type { Random } from './random.js';
import type { PriceUnit, VendorCategoryInfo } from './vendor-categories.js';

export interface VendorFacts {
  businessName: string;
  category: VendorCategoryInfo;
  city: string | null;
  state: string;
  usBased: boolean;
  yearsInBusiness: number | null;
  weddingsCompleted: number | null;
  specialties: readonly string[];
  serviceAreas: readonly string[];
  startingPrice: number | null;
  priceUnit: PriceUnit;
}

const UNIT_WORDS: Record<Exclude<PriceUnit, null>, string> = {
  per_person: 'per person',
  per_event: 'per wedding',
  per_hour: 'per hour',
  per_item: 'per item',
};

const APPROACHES = [
  'We keep things relaxed, organised and focused on what matters to you.',
  'Every couple gets a clear plan, quick answers and no surprises on the day.',
  'We work with a small number of weddings each season so each one gets our full attention.',
  'Our team has worked alongside most of the venues in the area, so we know how the day flows.',
  'We love big families, long dinners and dance floors that stay full.',
  'Planning from afar? Most of our couples do, and we make it easy.',
  'Sustainability matters to us: local suppliers, less waste, nothing single-use.',
];

function article(phrase: string): string {
  return /^[aeiou]/i.test(phrase) ? 'an' : 'a';
}

function where(f: VendorFacts): string {
  return f.city ? `${f.city}, ${f.state}` : f.state;
}

export function bioOf(r: Random, f: VendorFacts): string {
  const first =
    f.yearsInBusiness !== null
      ? `${f.businessName} is ${article(f.category.trade)} ${f.category.trade} based in ${where(f)}, working with couples for ${f.yearsInBusiness} year${f.yearsInBusiness === 1 ? '' : 's'}.`
      : `${f.businessName} is ${article(f.category.trade)} ${f.category.trade} based in ${where(f)}.`;
  const sentences = [first];
  if (f.specialties.length > 0) {
    sentences.push(
      r.pick([
        `Our work is known for its ${f.specialties[0].toLowerCase()} style.`,
        `Couples come to us for ${f.specialties.slice(0, 2).join(' and ').toLowerCase()}.`,
        `We specialise in ${f.specialties[0].toLowerCase()}, and we are happy to go beyond it.`,
      ]),
    );
  }
  if (f.weddingsCompleted !== null && f.weddingsCompleted > 20 && r.chance(0.6)) {
    sentences.push(`More than ${thousands(Math.floor(f.weddingsCompleted / 10) * 10)} weddings in, we still get emotional at every ceremony.`);
  }
  sentences.push(...r.sample(APPROACHES, r.int(1, 2)));
  if (f.serviceAreas.length > 1) sentences.push(`We travel throughout ${f.serviceAreas.slice(1, 4).join(', ')} and beyond.`);
  return sentences.join(' ');
}

/** How the vendor prices, phrased from the starting price and unit. */
export function pricingStructureOf(r: Random, f: VendorFacts): string {
  const currencyNote = f.usBased ? '' : ' Quotes are in US dollars.';
  if (f.startingPrice === null) {
    return `Custom quotes based on your date, guest count and the scope of work. Contact us for a proposal.${currencyNote}`;
  }
  const price = `$${thousands(f.startingPrice)}`;
  const unit = f.priceUnit ? ` ${UNIT_WORDS[f.priceUnit]}` : '';
  const extras: Record<string, readonly string[]> = {
    photography: ['Collections include an online gallery and print rights; second shooters and albums are add-ons.'],
    videography: ['Packages include a highlight film; full ceremony edits and drone footage are add-ons.'],
    florists: ['Most couples spend more once ceremony pieces and centerpieces are added; delivery and setup are included.'],
    catering: ['Pricing includes service staff and standard rentals; bar service and gratuity are quoted separately.'],
    'wedding-planners': ['Full planning is priced by guest count and number of events; travel outside our area is extra.'],
    'music-and-entertainment': ['Ceremony sound, cocktail-hour music and lighting can be added; travel fees apply beyond 50 miles.'],
    'hair-and-makeup': ['A trial is booked separately; travel and early-start fees depend on location and call time.'],
    officiants: ['Includes a planning call, a custom script and filing of the marriage licence; rehearsals are extra.'],
    'cakes-and-desserts': ['Tastings are complimentary once booked; delivery and setup are priced by distance.'],
    'rentals-and-decor': ['Delivery, setup and pickup are priced by distance and access; minimum orders apply in peak season.'],
    transportation: ['Three-hour minimum on weekends; fuel, tolls and a 20% chauffeur gratuity are added to the quote.'],
  };
  return `Starting at ${price}${unit}. ${r.pick(extras[f.category.slug] ?? ['Every quote is itemised.'])}${currencyNote}`;
}

export function portfolioDescriptionOf(r: Random, f: VendorFacts): string {
  const settings = [
    'vineyard estates',
    'mountain lodges',
    'historic mansions',
    'backyard tents',
    'barn weddings',
    'beach ceremonies',
    'city rooftops',
    'garden parties',
    'lakeside weekends',
    'castle weddings',
    'elopements in the hills',
    'haciendas',
  ];
  const picked = r.sample(settings, 3);
  const count = f.weddingsCompleted !== null ? `${thousands(f.weddingsCompleted)} weddings` : 'weddings';
  return r.pick([
    `Our portfolio spans ${count} across ${where(f)}, from ${picked[0]} to ${picked[1]} and ${picked[2]}.`,
    `Recent work includes ${picked[0]}, ${picked[1]} and ${picked[2]} around ${f.state}. Full galleries are available on request.`,
    `A selection of ${picked[0]} and ${picked[1]} from the last few seasons, with a few ${picked[2]} for good measure.`,
  ]);
}

// A type alias, not an interface, so it is assignable to Prisma's JSON input type.
export type VendorPolicies = {
  booking: string | null;
  payment: string | null;
  cancellation: string | null;
  timeline: string | null;
  insurance: string | null;
};

/** The five policy fields of §2.9, each sometimes missing, and about 10% of vendors without any policies. */
export function policiesOf(r: Random): VendorPolicies | null {
  if (r.chance(0.1)) return null;
  const maybe = (options: readonly string[]): string | null => (r.chance(0.1) ? null : r.pick(options));
  return {
    booking: maybe([
      'A signed contract and a 30% retainer reserve your date.',
      'Dates are held for 7 days after the proposal; a 50% deposit confirms the booking.',
      'We book on a first-come basis once the contract and retainer are received.',
    ]),
    payment: maybe([
      'The balance is due 30 days before the wedding. Cards, ACH and checks accepted.',
      'Payments can be split into three instalments; the final one is due two weeks before the date.',
      'The remaining balance is due 14 days before the event.',
    ]),
    cancellation: maybe([
      'Retainers are non-refundable but can move to a new date within 12 months.',
      'Cancellations more than 90 days out receive 50% of payments beyond the retainer.',
      'Postponements are free once; cancellations forfeit the deposit.',
    ]),
    timeline: maybe([
      'Most couples book 9 to 12 months ahead; final details are due 4 weeks before.',
      'We finalise the timeline with your planner two weeks before the wedding.',
      'Delivery within 6 to 8 weeks after the wedding.',
    ]),
    insurance: maybe([
      'Fully insured with $2M general liability; certificates issued to venues on request.',
      'Insured; we add venues as additional insured at no charge.',
      'Liability insurance is carried for every event.',
    ]),
  };
}
