// A reference for venue discovery (GET /api/v1/venues and GraphQL `venues` with near, near_city, radius_km, bbox, q,
// sort and facets), computed in JavaScript from the venue rows as Prisma reads them. Written from the rules the API
// states, not from the service: its own tokenizer, edit distance and great-circle distance, and no import from src/
// but the row type. test/venues/venue-discovery.property.test.ts holds the API to it.
import type { Venue } from '../../src/generated/prisma/client.js';

/** The sphere the distances are measured on (km). */
export const EARTH_KM = 6371.0088;
export const DEFAULT_RADIUS_KM = 50;
/** A word of q at least this long also matches catalogue words one edit away. */
export const TYPO_MIN = 5;

/** The accent folding of the words rule (migration venue_discovery states the same two strings). */
const ACCENTED = 'àáâãäåāÀÁÂÃÄÅĀçćčÇĆČèéêëēėęÈÉÊËĒĖĘìíîïīÌÍÎÏĪñńÑŃòóôõöōøÒÓÔÕÖŌØùúûüūÙÚÛÜŪýÿÝŸšŠžŽ';
const FOLDED = 'aaaaaaaaaaaaaacccccceeeeeeeeeeeeeeiiiiiiiiiinnnnoooooooooooooouuuuuuuuuuyyyysszz';

/** The words of a text: ASCII lower-cased, accents folded, split on anything but a-z and 0-9. */
export function wordsOf(text: string | null | undefined): string[] {
  if (!text) return [];
  let folded = '';
  for (const ch of text) {
    const lower = ch >= 'A' && ch <= 'Z' ? ch.toLowerCase() : ch;
    const at = ACCENTED.indexOf(lower);
    folded += at >= 0 ? FOLDED[at] : lower;
  }
  return folded.split(/[^a-z0-9]+/).filter((w) => w !== '');
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push(Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

const radians = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in km (haversine). */
export function greatCircleKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const h = Math.sin(radians(lat2 - lat1) / 2) ** 2 + Math.cos(radians(lat1)) * Math.cos(radians(lat2)) * Math.sin(radians(lng2 - lng1) / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Degrees as the API keeps them: 7 decimals. */
export const sevenDecimals = (deg: number) => Math.round(deg * 1e7) / 1e7 || 0;

/** distance_km as shown: 1 decimal. */
export const oneDecimal = (km: number) => Math.round(km * 10) / 10;

export type Sort = 'recommended' | 'distance' | 'relevance' | 'price_asc' | 'price_desc' | 'capacity_desc';
export const SORTS: readonly Sort[] = ['recommended', 'distance', 'relevance', 'price_asc', 'price_desc', 'capacity_desc'];
export type Facet = 'venue_type' | 'amenities' | 'state' | 'price_band' | 'capacity_band';
export const FACET_NAMES: readonly Facet[] = ['venue_type', 'amenities', 'state', 'price_band', 'capacity_band'];

/** A state or city filter as sent, and the slug it names. */
export type Named = { sent: string; slug: string };

/** The §4.1 filters. */
export interface Filters {
  state?: Named;
  city?: Named;
  venueType?: string;
  capacityMin?: number;
  capacityMax?: number;
  bedroomsMin?: number;
  amenities?: string[];
  priceMin?: number;
  priceMax?: number;
}

export type Place =
  | { kind: 'near'; lat: number; lng: number; radiusKm?: number }
  | { kind: 'city'; sent: string; radiusKm?: number }
  | { kind: 'bbox'; box: [number, number, number, number] };

export interface Discovery {
  filters: Filters;
  place?: Place;
  q?: string;
  sort?: Sort;
  facets?: Facet[];
}

export interface Rates {
  /** USD:AUD of the day (AUD venues store USD and show AUD). */
  usdAud: number | null;
  /** EUR:USD of the day (the price sorts compare USD). */
  eurUsd: number | null;
}

export interface FacetCount {
  value: string;
  count: number;
}
export interface ExpectedFacets {
  venueType: FacetCount[] | null;
  amenities: FacetCount[] | null;
  state: Array<FacetCount & { name: string }> | null;
  priceBand: Array<{ currency: string; min: number; max: number | null; count: number }> | null;
  capacityBand: Array<{ min: number; max: number | null; count: number }> | null;
}

/** The answer a search must give, whole (every page together). */
export interface Expected {
  slugs: string[];
  /** Exact km from the search's point, by slug; null without a point. */
  distances: Map<string, number> | null;
  facets: ExpectedFacets | null;
  /** The point and radius of a search near one (for the boundary checks). */
  circle?: { lat: number; lng: number; radiusKm: number };
  /** Each answered venue's order key (the sort's), for the tie checks. */
  keys: Array<number | null>;
}

/** A venue with what a search reads of it. */
export interface Row {
  venue: Venue;
  /** Position in the database's slug order: every tie is broken by it. */
  rank: number;
  name: Set<string>;
  place: Set<string>;
  kind: Set<string>;
  description: Set<string>;
  words: Set<string>;
  /** pricing.starting_total.amount as shown, in the venue's own currency. */
  shown: number | null;
  /** The starting total in USD (the price sorts' key). */
  usd: number | null;
}

export interface City {
  slug: string;
  stateSlug: string;
  name: string;
  lat: number;
  lng: number;
  venues: number;
}

const PRICE_BANDS = [
  [0, 4999],
  [5000, 9999],
  [10000, 19999],
  [20000, 49999],
  [50000, null],
] as const;
const CAPACITY_BANDS = [
  [0, 10],
  [11, 20],
  [21, 30],
  [31, 50],
  [51, null],
] as const;
const CURRENCY_ORDER = ['USD', 'EUR', 'AUD'];

const inBand = (n: number, [min, max]: readonly [number, number | null]) => n >= min && (max === null || n <= max);
const byCountThenValue = <T extends FacetCount>(a: T, b: T) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/** Which filters each facet leaves out. */
const OWN: Record<Facet, Array<keyof Filters>> = {
  venue_type: ['venueType'],
  amenities: ['amenities'],
  state: ['state'],
  price_band: ['priceMin', 'priceMax'],
  capacity_band: ['capacityMin', 'capacityMax'],
};

export class DiscoveryReference {
  /** Published venues in slug order. */
  readonly rows: Row[];
  /** Every word of every venue row, published or not, sorted. */
  readonly vocabulary: string[];
  /** Cities of published venues with coordinates, most venues first. */
  readonly cities: City[];
  readonly #byLength = new Map<number, string[]>();
  readonly #typos = new Map<string, string[]>();

  /** `venues`: every venue row (published or not) in the database's slug order. */
  constructor(
    venues: Venue[],
    readonly rates: Rates,
  ) {
    const vocabulary = new Set<string>();
    const rows: Row[] = [];
    venues.forEach((venue, rank) => {
      const name = new Set(wordsOf(venue.name));
      const place = new Set(wordsOf(`${venue.city} ${venue.state}`));
      const kind = new Set(wordsOf([venue.propertyType, venue.venueType, ...venue.amenities].filter((x) => x !== null).join(' ')));
      const description = new Set(wordsOf(venue.description));
      const words = new Set([...name, ...place, ...kind, ...description]);
      for (const w of words) vocabulary.add(w);
      if (venue.published) rows.push({ venue, rank, name, place, kind, description, words, shown: this.#shown(venue), usd: this.#usd(venue) });
    });
    this.rows = rows;
    this.vocabulary = [...vocabulary].sort();
    for (const w of this.vocabulary) listIn(this.#byLength, w.length).push(w);
    // near_city: a city is its published venues with coordinates, grouped by city and state slug.
    const groups = new Map<string, Row[]>();
    for (const r of rows)
      if (r.venue.latitude !== null && r.venue.longitude !== null) listIn(groups, `${r.venue.citySlug}/${r.venue.stateSlug}`).push(r);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    this.cities = [...groups.values()]
      .map((g) => ({
        slug: g[0].venue.citySlug,
        stateSlug: g[0].venue.stateSlug,
        name: g.map((r) => r.venue.city).sort()[0],
        lat: mean(g.map((r) => r.venue.latitude!)),
        lng: mean(g.map((r) => r.venue.longitude!)),
        venues: g.length,
      }))
      .sort((a, b) => b.venues - a.venues || cmp(a.slug, b.slug) || cmp(a.stateSlug, b.stateSlug));
  }

  /** §2.1: AUD venues store USD and show AUD at the day's rate, rounded up to the nearest 100; others as stored. */
  #shown(v: Venue): number | null {
    if (v.startingTotal === null) return null;
    if (v.currency !== 'AUD') return v.startingTotal;
    if (this.rates.usdAud === null) return null;
    return Math.ceil((v.startingTotal * this.rates.usdAud) / 100 - 1e-9) * 100;
  }

  /** The stored starting total in USD: USD and AUD venues store USD; EUR venues at the day's EUR:USD rate. */
  #usd(v: Venue): number | null {
    if (v.startingTotal === null) return null;
    if (v.currency === 'EUR') return this.rates.eurUsd === null ? null : v.startingTotal * this.rates.eurUsd;
    return v.startingTotal;
  }

  /** Catalogue words exactly one edit from `word` (none for a short word). */
  typosOf(word: string): string[] {
    if (word.length < TYPO_MIN) return [];
    let typos = this.#typos.get(word);
    if (!typos) {
      typos = [word.length - 1, word.length, word.length + 1].flatMap((n) =>
        (this.#byLength.get(n) ?? []).filter((w) => editDistance(w, word) === 1),
      );
      this.#typos.set(word, typos);
    }
    return typos;
  }

  /** The city near_city names: by slug or by name in any case; the one with most venues. */
  cityFor(sent: string): City | undefined {
    const asked = sent.trim().toLowerCase();
    return this.cities.find((c) => c.slug === asked || c.name.toLowerCase() === asked);
  }

  /** The point and radius of a place near one. */
  circleOf(place: Place | undefined): Expected['circle'] {
    if (place?.kind === 'near')
      return { lat: sevenDecimals(place.lat), lng: sevenDecimals(place.lng), radiusKm: place.radiusKm ?? DEFAULT_RADIUS_KM };
    if (place?.kind === 'city') {
      const city = this.cityFor(place.sent);
      if (!city) throw new Error(`no city ${place.sent}`);
      return { lat: city.lat, lng: city.lng, radiusKm: place.radiusKm ?? DEFAULT_RADIUS_KM };
    }
    return undefined;
  }

  /** Whether a venue meets the §4.1 filters, those in `except` left out. */
  meetsFilters(r: Row, f: Filters, except: ReadonlyArray<keyof Filters> = []): boolean {
    const v = r.venue;
    const on = (key: keyof Filters) => f[key] !== undefined && !except.includes(key);
    const priced = on('priceMin') || on('priceMax');
    return (
      (!on('state') || v.stateSlug === f.state!.slug) &&
      (!on('city') || v.citySlug === f.city!.slug) &&
      (!on('venueType') || (v.propertyType !== null && v.propertyType.toLowerCase().includes(f.venueType!.trim().toLowerCase()))) &&
      (!on('capacityMin') || (v.capacityMax !== null && v.capacityMax >= f.capacityMin!)) &&
      (!on('capacityMax') || (v.capacityMax !== null && v.capacityMax <= f.capacityMax!)) &&
      (!on('bedroomsMin') || (v.bedrooms !== null && v.bedrooms >= f.bedroomsMin!)) &&
      (!on('amenities') || f.amenities!.every((a) => v.amenities.includes(a))) &&
      (!priced || (r.shown !== null && (!on('priceMin') || r.shown >= f.priceMin!) && (!on('priceMax') || r.shown <= f.priceMax!)))
    );
  }

  /** The relevance of a venue to the words of q, or null when some word is not found in it. */
  relevance(r: Row, q: string): number | null {
    let sum = 0;
    for (const word of new Set(wordsOf(q))) {
      const typos = this.typosOf(word);
      const exact = (at: Set<string>) => at.has(word);
      const slip = (at: Set<string>) => typos.some((t) => at.has(t));
      if (!exact(r.words) && !slip(r.words)) return null;
      sum += exact(r.name)
        ? 8
        : exact(r.place) || slip(r.name)
          ? 4
          : exact(r.kind) || slip(r.place)
            ? 2
            : exact(r.description) || slip(r.kind)
              ? 1
              : 0.5;
    }
    return sum;
  }

  /** The whole answer of a search. */
  search(s: Discovery): Expected {
    const circle = this.circleOf(s.place);
    const distance = new Map<Row, number>();
    const relevance = new Map<Row, number>();
    // Place and words always apply (to the facets too).
    const located = this.rows.filter((r) => {
      const { latitude: lat, longitude: lng } = r.venue;
      if (s.place && (lat === null || lng === null)) return false;
      if (circle) {
        const d = greatCircleKm(circle.lat, circle.lng, lat!, lng!);
        if (d > circle.radiusKm) return false;
        distance.set(r, d);
      } else if (s.place?.kind === 'bbox') {
        const [minLng, lat1, maxLng, lat2] = s.place.box.map(sevenDecimals);
        if (lat! < Math.min(lat1, lat2) || lat! > Math.max(lat1, lat2)) return false;
        if (minLng <= maxLng ? lng! < minLng || lng! > maxLng : lng! < minLng && lng! > maxLng) return false;
      }
      if (s.q !== undefined) {
        const score = this.relevance(r, s.q);
        if (score === null) return false;
        relevance.set(r, score);
      }
      return true;
    });
    const found = located.filter((r) => this.meetsFilters(r, s.filters));
    const sort = s.sort ?? 'recommended';
    const key = (r: Row): number | null => {
      switch (sort) {
        case 'recommended':
          return null;
        case 'distance':
          return distance.get(r)!;
        case 'relevance':
          return relevance.get(r)!;
        case 'price_asc':
        case 'price_desc':
          return r.usd;
        case 'capacity_desc':
          return r.venue.capacityMax;
      }
    };
    const descending = sort === 'relevance' || sort === 'price_desc' || sort === 'capacity_desc';
    const ordered = [...found].sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      if (ka !== kb) {
        if (ka === null) return 1;
        if (kb === null) return -1;
        return descending ? kb - ka : ka - kb;
      }
      return a.rank - b.rank;
    });
    return {
      slugs: ordered.map((r) => r.venue.slug),
      keys: ordered.map(key),
      distances: circle ? new Map(ordered.map((r) => [r.venue.slug, distance.get(r)!])) : null,
      facets: s.facets?.length ? this.#facets(new Set(s.facets), located, s.filters) : null,
      circle,
    };
  }

  /**
   * The venue types of the venues found (their own filter left out), each counted as venue_type=value would find: the
   * venues whose property type contains it, so a barndominium is a barn too.
   */
  #venueTypes(rows: Row[], filters: Filters): FacetCount[] {
    const types = new Set(rows.flatMap((r) => (r.venue.venueType === null ? [] : [r.venue.venueType])));
    return [...types]
      .map((value) => ({ value, count: rows.filter((r) => this.meetsFilters(r, { ...filters, venueType: value })).length }))
      .filter((c) => c.count > 0)
      .sort(byCountThenValue);
  }

  #facets(asked: Set<Facet>, located: Row[], filters: Filters): ExpectedFacets {
    const under = (facet: Facet) => located.filter((r) => this.meetsFilters(r, filters, OWN[facet]));
    const counted = <T>(rows: Row[], valuesOf: (r: Row) => T[]) => {
      const counts = new Map<T, number>();
      for (const r of rows) for (const v of new Set(valuesOf(r))) counts.set(v, (counts.get(v) ?? 0) + 1);
      return counts;
    };
    const values = (counts: Map<string, number>) => [...counts].map(([value, count]) => ({ value, count })).sort(byCountThenValue);
    const stateNames = new Map(this.rows.map((r) => [r.venue.stateSlug, r.venue.state]));
    return {
      venueType: asked.has('venue_type') ? this.#venueTypes(under('venue_type'), filters) : null,
      amenities: asked.has('amenities') ? values(counted(under('amenities'), (r) => r.venue.amenities)) : null,
      state: asked.has('state')
        ? values(counted(under('state'), (r) => [r.venue.stateSlug]))
            .map((c) => ({ value: c.value, name: stateNames.get(c.value)!, count: c.count }))
            .sort(byCountThenValue)
        : null,
      priceBand: asked.has('price_band')
        ? [
            ...counted(under('price_band'), (r) =>
              r.shown === null ? [] : [`${r.venue.currency} ${PRICE_BANDS.findIndex((b) => inBand(r.shown!, b))}`],
            ),
          ]
            .map(([band, count]) => {
              const [currency, index] = band.split(' ');
              const [min, max] = PRICE_BANDS[Number(index)];
              return { currency, min, max, count };
            })
            .sort((a, b) => CURRENCY_ORDER.indexOf(a.currency) - CURRENCY_ORDER.indexOf(b.currency) || a.min - b.min)
        : null,
      capacityBand: asked.has('capacity_band')
        ? [
            ...counted(under('capacity_band'), (r) =>
              r.venue.capacityMax === null ? [] : [CAPACITY_BANDS.findIndex((b) => inBand(r.venue.capacityMax!, b))],
            ),
          ]
            .map(([index, count]) => ({ min: CAPACITY_BANDS[index][0], max: CAPACITY_BANDS[index][1], count }))
            .sort((a, b) => a.min - b.min)
        : null,
    };
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function listIn<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}
