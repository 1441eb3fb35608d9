// Venue page copy: a few varied sentences built from the venue's own facts (type, setting, rooms, amenities),
// so descriptions agree with the structured fields instead of contradicting them.
import { numberWord } from './format.js';
import type { Feature } from './place-kinds.js';
import type { Random } from './random.js';
import type { VenueTypeKey } from './venue-types.js';

export interface VenueFacts {
  name: string;
  /** Display property type, or null for the few untyped listings. */
  label: string | null;
  type: VenueTypeKey | null;
  city: string;
  state: string;
  countryName: string;
  features: ReadonlySet<Feature>;
  bedrooms: number | null;
  bathrooms: number | null;
  sleeps: number | null;
  amenities: readonly string[];
  builtYear: number | null;
}

const SETTINGS: Partial<Record<Feature, readonly string[]>> = {
  coast: ['on a quiet stretch of coastline near', 'steps from the water outside', 'on the bluffs above the sea near', 'overlooking the water in'],
  mountain: [
    'tucked into the foothills outside',
    'high above the valley near',
    'surrounded by forest and peaks outside',
    'at the end of a winding mountain road near',
  ],
  wine: ['among rolling vineyards outside', 'on a working vineyard near', 'between rows of vines just outside'],
  lake: ['on a private stretch of lakeshore near', 'right on the water outside', 'above a quiet lake near'],
  river: ['on a bend of the river near', 'along the riverbank outside'],
  desert: ['among red rock and open sky near', 'in the high desert outside'],
  tropical: ['wrapped in tropical gardens near', 'framed by palms and jungle outside'],
  country: ['on acres of pasture and woodland outside', 'down a tree-lined drive outside', 'amid open farmland near'],
  city: ['in the heart of', 'on a quiet, leafy street in', 'a short walk from the old town of'],
  island: ['on the island, minutes from', 'at the island\u2019s quieter end near'],
};

const CEREMONY_SPOTS: Partial<Record<Feature, readonly string[]>> = {
  coast: ['on the terrace facing the sea', 'on the lawn above the beach', 'on the sand at sunset'],
  mountain: ['in a meadow ringed by pines', 'on the deck with the peaks behind you', 'beside the creek under the aspens'],
  wine: ['at the edge of the vineyard', 'beneath the pergola among the vines', 'in the olive grove'],
  lake: ['on the dock at golden hour', 'on the lawn that runs down to the lake'],
  desert: ['on the mesa at sunset', 'in the cactus garden'],
  tropical: ['under a canopy of palms', 'on the garden terrace'],
  historic: ['in the restored chapel', 'in the walled garden', 'in the stone courtyard'],
};
const DEFAULT_SPOTS = ['beneath a centuries-old oak', 'on the front lawn', 'in the garden', 'under the string lights of the courtyard'];
const RECEPTIONS = [
  'the converted barn',
  'a candlelit courtyard',
  'the great hall',
  'a tented lawn',
  'the covered terrace',
  'the ballroom',
  'the pavilion',
  'the long table under the pergola',
  'the wine cellar',
  'the glass-walled orangery',
];

const AMENITY_PHRASES: Record<string, string> = {
  pool: 'the heated pool',
  'hot-tub': 'a hot tub under the stars',
  'fire-pit': 'the fire pit for late-night s\u2019mores',
  'catering-kitchen': 'a full catering kitchen',
  'lake-access': 'private lake access',
  'vineyard-view': 'vineyard views',
  'ocean-view': 'ocean views from most rooms',
  'mountain-view': 'wide mountain views',
  'tennis-court': 'a tennis court',
  'game-room': 'the game room',
  sauna: 'a cedar sauna',
  'beach-access': 'a path straight down to the beach',
  'bridal-suite': 'a bright bridal suite for getting ready',
  'dance-floor': 'a built-in dance floor',
  garden: 'formal gardens',
  'horseback-riding': 'trail rides on the property',
  chapel: 'a private chapel',
  'river-access': 'a swimming hole on the river',
};

const CLOSINGS = [
  'Exclusive use means no other events on the property during your stay.',
  'A list of preferred caterers is available, or bring your own licensed team.',
  'Quiet hours begin at 11 pm, and amplified music moves indoors after 10.',
  'Our on-site coordinator helps with the timeline, vendor load-in and the rehearsal.',
  'Tables, chairs and string lighting for up to the full guest list are included.',
  'Most couples book the whole weekend, from welcome drinks to a farewell brunch.',
  'Peak-season Saturdays book twelve to eighteen months ahead.',
  'Shuttles are recommended for larger guest lists, as on-site parking is limited.',
];

/** "Historic Estate" → "historic estate"; keeps "A-Frame" readable. */
function lowerLabel(label: string | null): string {
  return (label ?? 'private property').toLowerCase().replace('a-frame', 'A-frame');
}

function article(phrase: string): string {
  return /^[aeiou]/i.test(phrase) ? 'an' : 'a';
}

function settingFor(r: Random, features: ReadonlySet<Feature>): string {
  const options = [...features].flatMap((f) => SETTINGS[f] ?? []);
  return options.length > 0 ? r.pick(options) : 'just outside';
}

function sentenceList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function describeVenue(r: Random, v: VenueFacts): string {
  const kind = lowerLabel(v.label);
  const sentences: string[] = [];
  const place = v.countryName === 'United States' ? `${v.city}, ${v.state}` : `${v.city}, ${v.countryName}`;
  sentences.push(
    r.pick([
      `${v.name} is ${article(kind)} ${kind} ${settingFor(r, v.features)} ${place}.`,
      `Set ${settingFor(r, v.features)} ${place}, ${v.name} is ${article(kind)} ${kind} rented exclusively to one wedding party at a time.`,
      `${article(kind) === 'an' ? 'An' : 'A'} ${kind} ${settingFor(r, v.features)} ${place}, ${v.name} hosts the whole weekend, not just the day.`,
    ]),
  );
  if (v.builtYear !== null && v.builtYear < 1950 && r.chance(0.8)) {
    sentences.push(
      r.pick([
        `The main house dates from ${v.builtYear} and has been carefully restored, keeping its original beams and stonework.`,
        `Built in ${v.builtYear}, it still has the original floors, fireplaces and a sense of history in every room.`,
        `Its oldest walls go back to ${v.builtYear}; the interiors were brought up to date without losing their character.`,
      ]),
    );
  }
  if (v.bedrooms !== null && v.sleeps !== null) {
    const rooms = numberWord(v.bedrooms);
    sentences.push(
      r.pick([
        `${rooms[0].toUpperCase()}${rooms.slice(1)} bedroom${v.bedrooms === 1 ? '' : 's'} sleep up to ${v.sleeps} guests, so the wedding party can stay on site.`,
        `With ${rooms} bedroom${v.bedrooms === 1 ? '' : 's'}${v.bathrooms ? ` and ${v.bathrooms} bathrooms` : ''}, the property sleeps ${v.sleeps}.`,
        `Up to ${v.sleeps} guests stay across ${rooms} bedroom${v.bedrooms === 1 ? '' : 's'}, and everyone else is minutes away in ${v.city}.`,
      ]),
    );
  }
  const spots = [...v.features].flatMap((f) => CEREMONY_SPOTS[f] ?? []);
  sentences.push(`Couples marry ${r.pick(spots.length > 0 ? spots : DEFAULT_SPOTS)}, then move to ${r.pick(RECEPTIONS)} for dinner and dancing.`);
  const highlights = r
    .sample(
      v.amenities.filter((a) => AMENITY_PHRASES[a]),
      3,
    )
    .map((a) => AMENITY_PHRASES[a]);
  if (highlights.length > 0) {
    sentences.push(
      r.pick([
        `Guests love ${sentenceList(highlights)}.`,
        `Between events, guests have ${sentenceList(highlights)}.`,
        `Highlights include ${sentenceList(highlights)}.`,
      ]),
    );
  }
  if (v.amenities.includes('pet-friendly') && r.chance(0.5)) sentences.push('Well-behaved dogs are welcome with prior approval.');
  sentences.push(r.pick(CLOSINGS));
  return sentences.join(' ');
}

/** A search-snippet summary of about 160 characters or less. */
export function seoDescriptionOf(r: Random, v: VenueFacts): string {
  const kind = lowerLabel(v.label);
  const where = v.countryName === 'United States' ? `${v.city}, ${v.state}` : `${v.city}, ${v.countryName}`;
  const sleeps = v.sleeps !== null ? ` sleeping ${v.sleeps}` : '';
  return r.pick([
    `${v.name}: ${article(kind)} ${kind} wedding venue in ${where}${sleeps}. Exclusive-use weekends for the whole wedding party.`,
    `Plan your wedding weekend at ${v.name}, ${article(kind)} ${kind} in ${where}${sleeps}.`,
    `${v.name} in ${where}: ${kind}${sleeps}, with room for the ceremony, reception and everyone\u2019s stay.`,
  ]);
}
