// Curated inspiration photos (§2.12), generated deterministically from the fixed catalogue seed and linked to real
// catalogue rows: each photo's source is a published venue or an active vendor of a visual category, and its
// styles, settings, colors, moods and season follow what that source is (a barn leans rustic, an ocean view coastal).
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { randomFor, type Random } from '../db/seed/random.js';
import { INSPIRATION_COLORS, INSPIRATION_MOODS, INSPIRATION_SEASONS, INSPIRATION_SETTINGS, INSPIRATION_STYLES } from './inspiration.inputs.js';

export const INSPIRATION_CDN = 'https://cdn.wedding-venues.example/inspiration';
/** Photos in the curated gallery. @default 2400 */
export const INSPIRATION_PHOTOS = 2400;
const VISUAL_CATEGORIES = ['photography', 'florists', 'rentals-and-decor', 'cakes-and-desserts', 'wedding-planners', 'videography'];

type Style = (typeof INSPIRATION_STYLES)[number];
type Setting = (typeof INSPIRATION_SETTINGS)[number];

interface Source {
  type: 'property' | 'vendor';
  id: string;
  name: string;
  slug: string;
  city: string | null;
  state: string | null;
  /** Words that steer the attributes: property type, amenities, vendor category. */
  traits: string[];
}

const SUBJECTS: Record<string, string[]> = {
  property: [
    'ceremony aisle',
    'reception tables',
    'first dance',
    'sunset portrait',
    'welcome dinner',
    'cocktail hour',
    'sparkler exit',
    'lounge corner',
  ],
  photography: ['couple portrait', 'golden-hour portrait', 'candid toast', 'bridal party photo'],
  videography: ['film still of the vows', 'drone still of the ceremony'],
  florists: ['bridal bouquet', 'ceremony arch florals', 'centerpiece', 'floral installation'],
  'rentals-and-decor': ['tablescape', 'lounge setup', 'lighting design', 'ceremony backdrop'],
  'cakes-and-desserts': ['wedding cake', 'dessert table', 'cake cutting'],
  'wedding-planners': ['styled reception', 'welcome sign', 'escort card display'],
};

function settingsFor(source: Source, r: Random): Setting[] {
  const t = source.traits.join(' ');
  const likely: Setting[] = ['outdoor'];
  if (/ocean|beach|coast|villa/.test(t)) likely.push('beach', 'poolside');
  if (/mountain|chalet|cabin|lodge/.test(t)) likely.push('mountain', 'forest');
  if (/lake/.test(t)) likely.push('lakefront');
  if (/pool/.test(t)) likely.push('poolside');
  if (/vineyard|winery|tuscany|chateau|napa/.test(t)) likely.push('vineyard');
  if (/ranch|hacienda|desert|arizona|utah/.test(t)) likely.push('desert');
  if (/estate|mansion|castle|ballroom/.test(t)) likely.push('ballroom', 'indoor', 'garden');
  if (/barn|farmhouse/.test(t)) likely.push('tent', 'indoor');
  if (/garden|florist/.test(t)) likely.push('garden');
  const chosen = new Set<Setting>([r.pick(likely)]);
  if (r.chance(0.6)) chosen.add(r.chance(0.7) ? r.pick(likely) : r.pick(INSPIRATION_SETTINGS));
  if (r.chance(0.2)) chosen.add(r.pick(INSPIRATION_SETTINGS));
  return INSPIRATION_SETTINGS.filter((s) => chosen.has(s));
}

function stylesFor(source: Source, settings: Setting[], r: Random): Style[] {
  const t = `${source.traits.join(' ')} ${settings.join(' ')}`;
  const likely: Style[] = ['romantic', 'classic'];
  if (/barn|ranch|farmhouse|cabin|forest|desert/.test(t)) likely.push('rustic', 'bohemian');
  if (/beach|ocean|coast/.test(t)) likely.push('coastal');
  if (/estate|mansion|castle|villa|chateau|ballroom/.test(t)) likely.push('luxury', 'classic');
  if (/modern|loft|indoor|poolside/.test(t)) likely.push('modern', 'minimalist');
  const chosen = new Set<Style>([r.pick(likely)]);
  if (r.chance(0.55)) chosen.add(r.pick(likely));
  if (r.chance(0.25)) chosen.add(r.pick(INSPIRATION_STYLES));
  return INSPIRATION_STYLES.filter((s) => chosen.has(s));
}

function photoFor(index: number, source: Source, r: Random): Prisma.InspirationPhotoCreateManyInput {
  const id = r.uuid();
  const settings = settingsFor(source, r);
  const styles = stylesFor(source, settings, r);
  const colorPick = r.sample(INSPIRATION_COLORS, r.int(1, 2));
  const colors = INSPIRATION_COLORS.filter((c) => colorPick.includes(c));
  const moodPick = r.sample(INSPIRATION_MOODS, r.int(1, 3));
  const moods = INSPIRATION_MOODS.filter((m) => moodPick.includes(m));
  const season = r.chance(0.1) ? null : r.weighted(INSPIRATION_SEASONS, [26, 34, 30, 10]);
  const subject = r.pick(SUBJECTS[source.type === 'property' ? 'property' : source.traits[0]] ?? SUBJECTS.property);
  const where = [source.city, source.state].filter(Boolean).join(', ');
  const hasImage = !r.chance(0.01);
  const url = (size: string) => (hasImage ? `${INSPIRATION_CDN}/${id}/${size}.webp` : null);
  return {
    id,
    position: index,
    imageUrl: url('medium'),
    alt: hasImage ? `${styles[0]} ${settings[0]} ${subject} at ${source.name}` : null,
    description: r.chance(0.05)
      ? null
      : `A ${styles.join(' and ')} ${subject} in a ${settings.join(', ')} setting at ${source.name}${where ? ` (${where})` : ''}` +
        `${season ? `, photographed in ${season}` : ''}: ${colors.map((c) => c.replace('_', ' ')).join(' and ')} tones, ${moods.join(', ')} mood.`,
    sourceType: source.type,
    sourceId: source.id,
    sourceName: source.name,
    sourceSlug: source.slug,
    sourceCity: source.city,
    sourceState: source.state,
    styles,
    settings,
    colors,
    moods,
    season,
    smallUrl: url('small'),
    mediumUrl: url('medium'),
    largeUrl: url('large'),
  };
}

/** Inserts the curated gallery when it is empty and the catalogue has sources; returns the photos written. */
export async function seedInspiration(prisma: PrismaClient, count = INSPIRATION_PHOTOS): Promise<number> {
  if (await prisma.inspirationPhoto.findFirst({ select: { id: true } })) return 0;
  const venues = await prisma.venue.findMany({
    where: { published: true },
    select: { id: true, name: true, slug: true, city: true, state: true, propertyType: true, amenities: true },
    orderBy: { slug: 'asc' },
  });
  const vendors = await prisma.vendor.findMany({
    where: { active: true, serviceCategory: { in: VISUAL_CATEGORIES } },
    select: { id: true, businessName: true, slug: true, primaryCity: true, primaryState: true, serviceCategory: true },
    orderBy: { slug: 'asc' },
  });
  const sources: { property: Source[]; vendor: Source[] } = {
    property: venues.map((v) => ({
      type: 'property',
      id: v.id,
      name: v.name,
      slug: v.slug,
      city: v.city,
      state: v.state,
      traits: [(v.propertyType ?? '').toLowerCase(), v.slug, ...v.amenities],
    })),
    vendor: vendors.map((v) => ({
      type: 'vendor',
      id: v.id,
      name: v.businessName,
      slug: v.slug,
      city: v.primaryCity,
      state: v.primaryState,
      traits: [v.serviceCategory, v.slug],
    })),
  };
  if (!sources.property.length && !sources.vendor.length) return 0;
  const rows = Array.from({ length: count }, (_, i) => {
    const r = randomFor('inspiration', i);
    const kind = !sources.vendor.length || (sources.property.length && r.chance(0.7)) ? 'property' : 'vendor';
    return photoFor(i, r.pick(sources[kind]), r);
  });
  for (let i = 0; i < rows.length; i += 1000) await prisma.inspirationPhoto.createMany({ data: rows.slice(i, i + 1000) });
  return rows.length;
}
