import { BENCHMARK_NOTE, BENCHMARK_VENUE_TYPES, MIN_LISTINGS } from '../pricing/benchmarks.service.js';
import { moneyText, type VenuePricing } from '../venues/venue-pricing.js';
import { groupedAmount } from '../catalogue/money.js';
import { escapeHtml, renderPage, slugPath } from './site.layout.js';

/** A venue as the catalogue page lists it. */
export interface CatalogueEntry {
  slug: string;
  name: string;
  city: string;
  state: string;
  country: string | null;
  capacityMax: number | null;
  pricing: VenuePricing;
}

/** GET /venues: the published venues in slug order, a page at a time, and how the cost benchmarks are made. */
export interface CataloguePageData {
  entries: CatalogueEntry[];
  /** Published venues in all. */
  total: number;
  /** `after` of the next page (pageInfo.endCursor), or null on the last. */
  next: string | null;
  /** `after` of this page, or null on the first. */
  after: string | null;
  /** Where the public pages live (PUBLIC_SITE_URL, else this service): the first page is the benchmarks' source_url. */
  siteUrl: string;
}

export function cataloguePage(data: CataloguePageData): string {
  const { entries, siteUrl } = data;
  const canonical = `${siteUrl}/venues${data.after ? `?after=${encodeURIComponent(data.after)}` : ''}`;
  const shown = entries.length
    ? `${groupedAmount(entries.length)} of ${groupedAmount(data.total)} published venues, by state, city and name.`
    : 'No venue on this page.';
  const rows = entries.map((e) => {
    const start = e.pricing.startingTotal;
    const price = start ? `from ${moneyText(start.amount, e.pricing.currency)}` : 'price on request';
    const sleeps = e.capacityMax === null ? '' : ` · sleeps ${e.capacityMax}`;
    const where = [e.city, e.state, e.country].filter(Boolean).join(', ');
    return `<li><a href="/venues/${escapeHtml(slugPath(e.slug))}">${escapeHtml(e.name)}</a> <span class="muted">${escapeHtml(`${where}${sleeps} · ${price}`)}</span></li>`;
  });
  const next = data.next ? `<p><a rel="next" href="/venues?after=${encodeURIComponent(data.next)}">Next venues →</a></p>` : '';
  return renderPage(
    {
      title: 'Wedding venues and how their cost benchmarks are made',
      description: `Every published whole-property wedding venue in the catalogue (${groupedAmount(data.total)}), and how the cost benchmarks are computed from them.`,
      canonical,
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'CollectionPage',
        name: 'Wedding venues',
        url: canonical,
        hasPart: entries.map((e) => ({ '@type': 'EventVenue', name: e.name, url: `${siteUrl}/venues/${e.slug}` })),
      },
    },
    [
      `<h1>Wedding venues</h1>`,
      methodSection(),
      `<h2>Every venue</h2>`,
      `<p class="muted">${escapeHtml(shown)}</p>`,
      `<ul>${rows.join('\n')}</ul>`,
      next,
    ].join('\n'),
  );
}

/** How GET /api/v1/cost-benchmarks (GraphQL costBenchmarks) makes its figures: this page is its source_url. */
function methodSection(): string {
  return `<h2>How the cost benchmarks are made</h2>
<p>${escapeHtml(BENCHMARK_NOTE)}</p>
<ul>
<li>Each listing counts once with its weekday base price: the whole property for its minimum stay, before the cleaning fee, service fee and tax that the starting totals below include.</li>
<li>The median is the 50th percentile; the typical low and high are the 25th and 75th percentiles, rounded to whole dollars.</li>
<li>Without filters there is a national row (United States), one row per US state, one per venue type (${escapeHtml(BENCHMARK_VENUE_TYPES.join(', '))}, every country) and one per destination country; a filter gives the one row it names.</li>
<li>A row needs at least ${MIN_LISTINGS} listings; a listing in euros is left out on a day without an exchange rate.</li>
<li>The figures change as listings are published, repriced or withdrawn; <code>as_of</code> is the day they were computed.</li>
</ul>
<p>API: <code>GET /api/v1/cost-benchmarks</code> (filters <code>state</code>, <code>venue_type</code>, <code>country</code>) or the GraphQL field <code>costBenchmarks</code>; see <a href="/developers/reference">the reference</a>.</p>`;
}
