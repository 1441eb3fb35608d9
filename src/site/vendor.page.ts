import type { VendorDetailRow } from '../vendors/vendors.queries.js';
import { usdText } from '../catalogue/money.js';
import { escapeHtml, httpUrl, label, renderPage } from './site.layout.js';
import { absoluteImageUrl, shownImageUrl } from './site.media.js';

/** One vendor's public page (GET /vendors/{slug}): the §2.9 detail. */
export interface VendorPageData {
  vendor: VendorDetailRow;
  /** The vendor's `url` as the API answers it. */
  canonical: string;
  /** This service's origin, where it serves the demo photos. */
  baseUrl: string;
}

const UNIT_TEXT: Record<string, string> = { per_person: ' per person', per_event: ' per event', per_hour: ' an hour', per_item: ' per item' };

/** "From $2,500 per event" (vendors quote in US dollars), or null without a starting price. */
const priceText = (v: VendorDetailRow) => (v.startingPrice === null ? null : `From ${usdText(v.startingPrice)}${UNIT_TEXT[v.priceUnit ?? ''] ?? ''}`);

export function vendorPage(data: VendorPageData): string {
  const { vendor: v } = data;
  const where = [v.primaryCity, v.primaryState].filter(Boolean).join(', ');
  const images = v.photos.map((p) => absoluteImageUrl(p.url, data.baseUrl));
  const price = priceText(v);
  const links = [
    ['Website', v.website],
    ['Instagram', v.instagram],
    ['Facebook', v.facebook],
    ['TikTok', v.tiktok],
  ].flatMap(([name, url]) => (httpUrl(url) ? [[name, url!] as const] : []));
  const booking = v.isAffiliateOnly ? httpUrl(v.affiliateLink) : null;
  const facts = [
    label(v.serviceCategory),
    where,
    price,
    v.yearsInBusiness !== null ? `${v.yearsInBusiness} years in business` : null,
    v.weddingsCompleted !== null ? `${v.weddingsCompleted} weddings` : null,
    v.averageRating !== null ? `${v.averageRating} out of 5${v.reviewCount ? ` from ${v.reviewCount} reviews` : ''}` : null,
  ].filter((f): f is string => Boolean(f));
  const body = [
    `<h1>${escapeHtml(v.businessName)}</h1>`,
    v.tagline ? `<p class="muted">${escapeHtml(v.tagline)}</p>` : '',
    `<ul class="facts">${facts.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>`,
    v.photos.length
      ? `<div class="photos">${v.photos
          .map(
            (p, i) =>
              `<img src="${escapeHtml(shownImageUrl(p.url))}" alt="${escapeHtml(p.altText ?? `${v.businessName}: photo ${i + 1}`)}" decoding="async">`,
          )
          .join('')}</div>`
      : '',
    v.bio ? `<h2>About</h2>\n<p>${escapeHtml(v.bio)}</p>` : '',
    v.pricingStructure ? `<h2>Pricing</h2>\n<p>${escapeHtml(v.pricingStructure)}</p>` : '',
    v.specialties.length ? `<h2>Specialties</h2>\n<ul class="pills">${v.specialties.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>` : '',
    v.serviceAreas.length ? `<h2>Travels to</h2>\n<p>${escapeHtml(v.serviceAreas.join(', '))}</p>` : '',
    v.portfolioDescription ? `<h2>Portfolio</h2>\n<p>${escapeHtml(v.portfolioDescription)}</p>` : '',
    booking ? `<p><a rel="nofollow noopener" href="${escapeHtml(booking)}">Book through our partner</a></p>` : '',
    links.length ? `<p>${links.map(([name, url]) => `<a rel="nofollow noopener" href="${escapeHtml(url)}">${name}</a>`).join(' · ')}</p>` : '',
  ];
  return renderPage(
    {
      title: `${v.businessName} · ${label(v.serviceCategory)}${where ? ` in ${where}` : ''}`,
      description: v.tagline ?? `${label(v.serviceCategory)}${where ? ` based in ${where}` : ''}.`,
      canonical: data.canonical,
      image: images[0] ?? (v.featuredImageUrl ? absoluteImageUrl(v.featuredImageUrl, data.baseUrl) : null),
      ogType: 'business.business',
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'LocalBusiness',
        name: v.businessName,
        url: data.canonical,
        description: v.bio ?? v.tagline ?? undefined,
        image: images.length ? images : undefined,
        address: where
          ? { '@type': 'PostalAddress', addressLocality: v.primaryCity ?? undefined, addressRegion: v.primaryState ?? undefined }
          : undefined,
        areaServed: v.serviceAreas.length ? v.serviceAreas : undefined,
        priceRange: price ?? undefined,
        sameAs: links.length ? links.map(([, url]) => url) : undefined,
        aggregateRating:
          v.averageRating !== null && v.reviewCount
            ? { '@type': 'AggregateRating', ratingValue: v.averageRating, reviewCount: v.reviewCount, bestRating: 5 }
            : undefined,
      },
    },
    body.filter(Boolean).join('\n'),
  );
}
