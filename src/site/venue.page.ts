import type { VenueDetailRow } from '../venues/venue-rows.js';
import { moneyText, priceRangeText, type VenuePricing } from '../venues/venue-pricing.js';
import { groupedAmount } from '../catalogue/money.js';
import { escapeHtml, label, paragraphs, renderPage } from './site.layout.js';
import { absoluteImageUrl, shownImageUrl } from './site.media.js';

/** One venue's public page (GET /venues/{slug}): what the §2.3 detail holds, for people and for search engines. */
export interface VenuePageData {
  venue: VenueDetailRow;
  /** The venue's pricing object as the API shows it (converted at the day's rate where its currency needs it). */
  pricing: VenuePricing;
  /** The venue's `url` as the API answers it: rel=canonical, og:url and the JSON-LD url. */
  canonical: string;
  /** This service's origin, where it serves the demo photos. */
  baseUrl: string;
}

const nights = (n: number) => `${n} night${n === 1 ? '' : 's'}`;
const place = (v: VenueDetailRow) => [v.city, v.state, v.country].filter(Boolean).join(', ');
const percent = (n: number) => `${Number(n.toFixed(2))} %`;

export function venuePage(data: VenuePageData): string {
  const { venue: v } = data;
  const images = v.photos.map((p) => absoluteImageUrl(p.url, data.baseUrl));
  const hero = v.heroImage ? absoluteImageUrl(v.heroImage, data.baseUrl) : (images[0] ?? null);
  const startsAt = data.pricing.startingTotal;
  const summary = startsAt ? `From ${moneyText(startsAt.amount, data.pricing.currency)} for ${nights(startsAt.nights)}, fees included. ` : '';
  return renderPage(
    {
      title: `${v.name} · ${place(v)}`,
      description: `${summary}${v.seoDescription ?? `${v.propertyType ?? 'Venue'} in ${place(v)}.`}`,
      canonical: data.canonical,
      image: hero,
      ogType: 'place',
      jsonLd: venueJsonLd(data, images),
    },
    [
      `<p><a href="/venues">← All venues</a></p>`,
      `<h1>${escapeHtml(v.name)}</h1>`,
      `<p class="muted">${escapeHtml([v.propertyType, place(v)].filter(Boolean).join(' · '))}</p>`,
      facts(v),
      priceSection(v, data.pricing),
      photoSection(v),
      v.description ? `<h2>About</h2>\n${paragraphs(v.description)}` : '',
      listSection('Amenities', v.amenities),
      listSection('Good for', v.categories),
      reviewSection(v),
    ]
      .filter(Boolean)
      .join('\n'),
  );
}

function facts(v: VenueDetailRow): string {
  const capacity =
    v.capacityMax === null
      ? null
      : v.capacityMin !== null && v.capacityMin < v.capacityMax
        ? `${v.capacityMin}–${v.capacityMax}`
        : `${v.capacityMax}`;
  const items = [
    capacity && `Sleeps ${capacity} guests`,
    v.bedrooms !== null && `${v.bedrooms} bedrooms`,
    v.beds !== null && `${v.beds} beds`,
    v.bathrooms !== null && `${v.bathrooms} bathrooms`,
    v.gatheringSpaces !== null && `${v.gatheringSpaces} spaces for the ceremony or reception`,
    `Minimum stay ${nights(v.minNights)}`,
    v.latitude !== null && v.longitude !== null && `Location ${v.latitude.toFixed(4)}, ${v.longitude.toFixed(4)}`,
  ].filter((item): item is string => typeof item === 'string');
  return `<ul class="facts">${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`;
}

/** The starting total and what it includes (§2.1), then the bases it is made from. */
function priceSection(v: VenueDetailRow, pricing: VenuePricing): string {
  const start = pricing.startingTotal;
  if (!start) return `<h2>Price</h2>\n<p class="price">No published price: ask the venue for a quote.</p>`;
  const lines = [
    `<p class="price">From <strong>${escapeHtml(moneyText(start.amount, pricing.currency))}</strong> for ${nights(start.nights)}</p>`,
    `<p>The starting total is the whole property for the minimum stay at the ${start.rate} rate, ${escapeHtml(feesText(v))}.</p>`,
  ];
  const bases = priceRangeText(pricing);
  if (bases) lines.push(`<p class="muted">Base price: ${escapeHtml(bases)}.</p>`);
  if (pricing.extraNight !== null)
    lines.push(`<p class="muted">Each night beyond the minimum: ${escapeHtml(moneyText(pricing.extraNight, pricing.currency))}.</p>`);
  if (pricing.rateDate) {
    lines.push(
      `<p class="muted">Converted from US dollars at the exchange rate of ${escapeHtml(pricing.rateDate)}, rounded up to the nearest 100.</p>`,
    );
  }
  return `<h2>Price</h2>\n${lines.join('\n')}`;
}

/**
 * What the starting total adds to the base (§2.1: cleaning, service fee and tax): a fee the venue charges as a rate is
 * named with it, one it does not charge (0) is left out, one not on file is named without a figure.
 */
function feesText(v: VenueDetailRow): string {
  const fees = [
    v.cleaningFee === 0 ? null : 'the cleaning fee',
    v.serviceFeePercent === 0 ? null : v.serviceFeePercent == null ? 'the service fee' : `a ${percent(v.serviceFeePercent)} service fee`,
    v.taxPercent === 0 ? null : v.taxPercent == null ? 'tax' : `${percent(v.taxPercent)} tax`,
  ].filter((fee): fee is string => fee !== null);
  if (!fees.length) return 'with no fee or tax to add';
  return `with ${fees.length > 1 ? `${fees.slice(0, -1).join(', ')} and ${fees.at(-1)}` : fees[0]} included`;
}

function photoSection(v: VenueDetailRow): string {
  if (!v.photos.length) return '';
  const shown = v.photos.map((p, i) => {
    const alt = `${v.name}: ${p.category ?? 'photo'} ${i + 1}`;
    return `<img src="${escapeHtml(shownImageUrl(p.url))}" alt="${escapeHtml(alt)}" decoding="async">`;
  });
  const more = v.totalPhotos > v.photos.length ? `<p class="muted">${v.photos.length} of ${groupedAmount(v.totalPhotos)} photos.</p>` : '';
  return `<h2>Photos</h2>\n<div class="photos">${shown.join('')}</div>${more}`;
}

function listSection(title: string, items: string[]): string {
  if (!items.length) return '';
  return `<h2>${escapeHtml(title)}</h2>\n<ul class="pills">${items.map((item) => `<li>${escapeHtml(label(item))}</li>`).join('')}</ul>`;
}

function reviewSection(v: VenueDetailRow): string {
  if (!v.testimonials.length) return '';
  const reviews = v.testimonials.map((t) => {
    const by = [t.guestName, t.eventDate ? dateText(t.eventDate) : null].filter(Boolean).join(', ');
    const stars = t.rating === null ? '' : `<p class="muted">${escapeHtml(t.rating)} out of 5</p>`;
    return `<blockquote>${stars}${t.review ? paragraphs(t.review) : ''}${by ? `<p class="muted">— ${escapeHtml(by)}</p>` : ''}</blockquote>`;
  });
  return `<h2>What couples say</h2>\n${reviews.join('\n')}`;
}

const dateText = (d: Date | string) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));

/**
 * schema.org: an event venue that is also lodging, with its address, coordinates, amenities, price range, photos and
 * reviews. maximumAttendeeCapacity is capacity_max, the sleeping capacity: the only capacity the catalogue records.
 */
function venueJsonLd(data: VenuePageData, images: string[]) {
  const { venue: v, pricing } = data;
  const rated = v.testimonials.filter((t) => t.rating !== null);
  const start = pricing.startingTotal;
  return {
    '@context': 'https://schema.org',
    '@type': ['EventVenue', 'LodgingBusiness'],
    '@id': `${data.canonical}#venue`,
    name: v.name,
    url: data.canonical,
    description: v.seoDescription ?? v.description ?? undefined,
    image: images.length ? images : undefined,
    address: { '@type': 'PostalAddress', addressLocality: v.city, addressRegion: v.state, addressCountry: v.country ?? undefined },
    geo: v.latitude !== null && v.longitude !== null ? { '@type': 'GeoCoordinates', latitude: v.latitude, longitude: v.longitude } : undefined,
    maximumAttendeeCapacity: v.capacityMax ?? undefined,
    numberOfRooms: v.bedrooms ?? undefined,
    amenityFeature: v.amenities.map((a) => ({ '@type': 'LocationFeatureSpecification', name: label(a), value: true })),
    priceRange: start ? `From ${moneyText(start.amount, pricing.currency)} for ${nights(start.nights)}, fees included` : undefined,
    currenciesAccepted: pricing.currency,
    makesOffer: start
      ? {
          '@type': 'Offer',
          name: `Whole property for ${nights(start.nights)}`,
          description: `Minimum stay at the ${start.rate} rate, cleaning, service fee and tax included.`,
          price: start.amount,
          priceCurrency: pricing.currency,
        }
      : undefined,
    aggregateRating: rated.length
      ? {
          '@type': 'AggregateRating',
          ratingValue: Math.round((rated.reduce((sum, t) => sum + t.rating!, 0) / rated.length) * 10) / 10,
          reviewCount: rated.length,
          bestRating: 5,
        }
      : undefined,
    review: v.testimonials.length
      ? v.testimonials.map((t) => ({
          '@type': 'Review',
          author: { '@type': 'Person', name: t.guestName ?? 'A guest' },
          reviewBody: t.review ?? undefined,
          datePublished: t.eventDate ? dateText(t.eventDate) : undefined,
          reviewRating: t.rating === null ? undefined : { '@type': 'Rating', ratingValue: t.rating, bestRating: 5 },
        }))
      : undefined,
  };
}
