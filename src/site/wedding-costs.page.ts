import { REGIONS, REGIONAL_NOTE, type RegionalCostRange } from '../pricing/regional-ranges.service.js';
import { GUEST_SCALING, REGIONAL_DATA } from '../pricing/data/regional-climates.js';
import { usdText } from '../catalogue/money.js';
import { escapeHtml, renderPage } from './site.layout.js';

/**
 * GET /wedding-costs and /wedding-costs/{slug}: the regional whole-wedding budgets (§2.6) that regional cost ranges
 * answer, as the pages their source_url names. The data is authored (src/pricing/data), so these pages read no table.
 */

const COVERAGE: Record<RegionalCostRange['coverage'], string> = {
  calculator: 'The region has its own seasonal and day-of-week multipliers.',
  parent_state: 'The city uses the multipliers of the state it lies in.',
  insights_only: 'The region has a published range but no multipliers of its own: scaled figures use the national ones.',
};

const isCountry = (r: (typeof REGIONS)[number]) => r.type === 'state' && r.country === r.name;

/** The index: every covered region, grouped, with its range; and how the figures are made and scaled. */
export function weddingCostsIndexPage(siteUrl: string): string {
  const group = (title: string, regions: typeof REGIONS) =>
    `<h2>${escapeHtml(title)}</h2>\n<ul>${[...regions]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(
        (r) =>
          `<li><a href="/wedding-costs/${encodeURIComponent(r.slug)}">${escapeHtml(r.name)}</a> <span class="muted">${escapeHtml(`${usdText(r.low)}–${usdText(r.high)}`)}</span></li>`,
      )
      .join('\n')}</ul>`;
  return renderPage(
    {
      title: 'Wedding costs by region',
      description: `Whole-wedding budget ranges for ${REGIONS.length} US states, cities and destination countries, and how they scale with season and guests.`,
      canonical: `${siteUrl}/wedding-costs`,
    },
    [
      `<h1>Wedding costs by region</h1>`,
      `<p>${escapeHtml(REGIONAL_NOTE)}</p>`,
      `<p class="muted">Source: ${escapeHtml(REGIONAL_DATA.source)}. Data ${escapeHtml(REGIONAL_DATA.version)}.</p>`,
      scalingSection(),
      group(
        'US states',
        REGIONS.filter((r) => r.type === 'state' && !isCountry(r)),
      ),
      group(
        'Cities',
        REGIONS.filter((r) => r.type === 'city'),
      ),
      group('Destination countries', REGIONS.filter(isCountry)),
    ].join('\n'),
  );
}

function scalingSection(): string {
  const { fixedShare, min, max, roundTo } = GUEST_SCALING;
  return `<h2>How a range is scaled</h2>
<p>A range is for the region's average guest count. For another count, both ends are multiplied by
${escapeHtml(fixedShare)} + ${escapeHtml(Number((1 - fixedShare).toFixed(4)))} × guests ÷ average guests, kept between ${escapeHtml(min)} and ${escapeHtml(max)};
for a season or month, by that period's multiplier (peak, shoulder or off-season, from the region's popular months). Scaled
figures are rounded to ${escapeHtml(usdText(roundTo))}. They are estimates, never quotes.</p>
<p>API: <code>GET /api/v1/regional-cost-ranges</code> or the GraphQL field <code>regionalCostRange</code>; see <a href="/developers/reference">the reference</a>.</p>`;
}

/** One region's page, from the answer GET /api/v1/regional-cost-ranges?slug=… gives. */
export function weddingCostsRegionPage(r: RegionalCostRange, canonical: string): string {
  const s = r.seasonalMultipliers;
  const d = r.dayOfWeekMultipliers;
  const months = (list: readonly string[]) => (list.length ? list.join(', ') : '—');
  return renderPage(
    {
      title: `Wedding costs in ${r.name}`,
      description: `A wedding in ${r.name} for about ${r.averageGuestCount} guests typically costs ${r.range.display}, all in.`,
      canonical,
    },
    [
      `<p><a href="/wedding-costs">← All regions</a></p>`,
      `<h1>Wedding costs in ${escapeHtml(r.name)}</h1>`,
      `<p class="price"><strong>${escapeHtml(r.range.display)}</strong></p>`,
      `<p>${escapeHtml(r.range.note)}</p>`,
      `<p class="muted">${escapeHtml(COVERAGE[r.coverage])}${r.multipliersFrom ? ` (${escapeHtml(r.multipliersFrom)})` : ''}</p>`,
      `<h2>Season and day</h2>`,
      `<table><thead><tr><th>Period</th><th>Months</th><th>Multiplier</th></tr></thead><tbody>`,
      `<tr><td>Peak</td><td>${escapeHtml(months(r.popularSeasons.peak))}</td><td>${s.peak}</td></tr>`,
      `<tr><td>Shoulder</td><td>${escapeHtml(months(r.popularSeasons.shoulder))}</td><td>${s.shoulder}</td></tr>`,
      `<tr><td>Off-season</td><td>${escapeHtml(months(r.popularSeasons.offSeason))}</td><td>${s.offSeason}</td></tr>`,
      `</tbody></table>`,
      `<p>Friday × ${d.friday} · Saturday × ${d.saturday} · Sunday × ${d.sunday}. Best weather: ${escapeHtml(r.popularSeasons.bestWeather)}.</p>`,
      `<p class="muted">Source: ${escapeHtml(r.source)}, ${r.dataYear}. ${escapeHtml(REGIONAL_NOTE)}</p>`,
    ].join('\n'),
  );
}
