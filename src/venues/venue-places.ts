import type { RowReader } from '../db/row-reader.js';
import { slugify } from '../catalogue/slug.js';
import { ApiError } from '../errors/api-error.js';
import { SearchVocabulary } from './venue-words.js';
import { FacetIndex } from './venue-facet-index.js';
import { readFacetColumns } from './venues.queries.js';

/**
 * What discovery reads of the catalogue as a whole, once per catalogue generation and database: the cities a search
 * can be near (`near_city`), the words `q` may be misspelt from and the columns facets count. A write to the
 * catalogue raises the generation (migration catalogue_generation_triggers); the node reads again, as soon as it sees
 * the new generation, what searches had read under the one before (readCatalogueAhead), and a search reads anything
 * else it needs itself.
 */

/** A city of the catalogue: where its published venues with coordinates are, on average. */
export interface CatalogueCity {
  slug: string;
  name: string;
  state: string;
  lat: number;
  lng: number;
  venues: number;
}

interface Remembered {
  generation: number;
  cities?: Promise<CatalogueCity[]>;
  vocabulary?: Promise<SearchVocabulary>;
  facetIndex?: Promise<FacetIndex>;
}

const remembered = new WeakMap<RowReader, Remembered>();

function entryFor(readRows: RowReader, generation: number): Remembered {
  let entry = remembered.get(readRows);
  if (!entry || entry.generation !== generation) remembered.set(readRows, (entry = { generation }));
  return entry;
}

/** A read kept for the generation unless it fails (the next search asks again). */
function keep<T>(entry: Remembered, key: 'cities' | 'vocabulary' | 'facetIndex', read: () => Promise<T>): Promise<T> {
  const existing = entry[key] as Promise<T> | undefined;
  if (existing) return existing;
  const value = read();
  (entry as unknown as Record<string, unknown>)[key] = value;
  value.catch(() => entry[key] === (value as unknown) && delete entry[key]);
  return value;
}

/**
 * Starts reading, for `generation`, what searches read under the generation before it, so the first search after a
 * catalogue write waits for none of it, or for less (on 100,000 venues the facet columns take about half a second,
 * the cities a tenth: docs/performance.md, Discovery at scale). Nothing a search did not ask for is read. A read that
 * fails is dropped, as a search's own would be, and the next search asks again.
 */
export function readCatalogueAhead(readRows: RowReader, generation: number): void {
  const before = remembered.get(readRows);
  if (!before || before.generation === generation) return;
  if (before.cities) void catalogueCities(readRows, generation);
  if (before.vocabulary) void searchVocabulary(readRows, generation);
  if (before.facetIndex) void catalogueFacetIndex(readRows, generation);
}

/** The published venues' facet columns, indexed for counting (venue-facet-index.ts). */
export function catalogueFacetIndex(readRows: RowReader, generation: number): Promise<FacetIndex> {
  return keep(entryFor(readRows, generation), 'facetIndex', async () => new FacetIndex(await readFacetColumns(readRows)));
}

export function catalogueCities(readRows: RowReader, generation: number): Promise<CatalogueCity[]> {
  return keep(entryFor(readRows, generation), 'cities', () =>
    readRows<CatalogueCity>(
      `SELECT "citySlug" AS slug, min(city) AS name, min(state) AS state, avg(latitude)::float8 AS lat, avg(longitude)::float8 AS lng,
         count(*)::int AS venues
       FROM "Venue" WHERE published AND latitude IS NOT NULL AND longitude IS NOT NULL
       GROUP BY "citySlug", "stateSlug" ORDER BY count(*) DESC, "citySlug", "stateSlug"`,
      [],
    ),
  );
}

export function searchVocabulary(readRows: RowReader, generation: number): Promise<SearchVocabulary> {
  return keep(entryFor(readRows, generation), 'vocabulary', async () => {
    const rows = await readRows<{ term: string }>(`SELECT term FROM "VenueSearchTerm"`, []);
    return new SearchVocabulary(rows.map((r) => r.term));
  });
}

/**
 * The city `near_city` names, by slug or name in any case; a name in several states is the one with the most venues.
 * Unknown: 400 naming the parameter, with up to three close names.
 */
export function findCity(cities: readonly CatalogueCity[], asked: string): CatalogueCity {
  const slug = slugify(asked);
  const lower = asked.trim().toLowerCase();
  const found = cities.find((c) => c.slug === slug || c.name.toLowerCase() === lower);
  if (found) return found;
  const close = [...new Map(cities.map((c) => [c.name, editDistance(slugify(c.name), slug)])).entries()]
    .sort(([a, da], [b, db]) => da - db || a.localeCompare(b))
    .slice(0, 3)
    .map(([name]) => name);
  throw new ApiError('invalid_parameters', {
    problems: [{ param: 'nearCity', problem: `is not a city of the catalogue${close.length ? `; close names: ${close.join(', ')}` : ''}` }],
  });
}

/** Levenshtein distance (the close names of an unknown city). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
