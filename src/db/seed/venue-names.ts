// Believable venue names per naming culture ("Willow Creek Ranch", "Harbourview Estate", "Castello di
// Montefiore", "Hacienda San Gabriel"). Word lists first, then the small builder that combines them.
import type { Country, Feature } from './places.js';
import type { Random } from './random.js';
import type { VenueTypeKey } from './venue-types.js';

const TREES_AND_THINGS = [
  'Willow', 'Cedar', 'Oak', 'Maple', 'Birch', 'Aspen', 'Magnolia', 'Cypress', 'Juniper', 'Laurel', 'Hawthorne', 'Linden',
  'Sycamore', 'Rosewood', 'Ivy', 'Heather', 'Fox', 'Stone', 'Silver', 'Golden', 'Red', 'Blue', 'Misty', 'Hidden', 'Wild',
  'Sparrow', 'Wren', 'Heron', 'Falcon', 'Deer', 'Elk', 'Bear', 'Raven', 'Clover', 'Meadow', 'Sage', 'Thistle', 'Briar',
  'Pine', 'Spruce', 'Hemlock', 'Elm', 'Ash', 'Poplar', 'Chestnut', 'Walnut', 'Hickory', 'Dogwood', 'Larkspur', 'Lavender',
  'Primrose', 'Bramble', 'Fern', 'Amber', 'Copper', 'Iron', 'Quail', 'Owl', 'Bluebird', 'Cardinal', 'Honeysuckle', 'Orchard',
];
const LANDFORMS: Record<'any' | 'coast' | 'mountain' | 'lake', readonly string[]> = {
  any: ['Creek', 'Hollow', 'Ridge', 'Meadow', 'Brook', 'Glen', 'Springs', 'Hill', 'Valley', 'Bluff', 'Grove', 'Falls', 'Run',
    'Crossing', 'Bend', 'Fields', 'Haven', 'Knoll', 'Vale', 'Woods', 'Dale', 'Farm', 'Acres', 'Gardens', 'Park'],
  coast: ['Harbor', 'Cove', 'Shore', 'Bay', 'Point', 'Dunes', 'Tides', 'Landing', 'Sands', 'Cliffs'],
  mountain: ['Ridge', 'Peak', 'Summit', 'Pass', 'Canyon', 'Mesa', 'Highlands', 'Basin'],
  lake: ['Lake', 'Pond', 'Landing', 'Shore', 'Cove', 'Island'],
};
const COMPOUND_HEADS = ['Oak', 'Briar', 'Stone', 'Elm', 'Ash', 'Fair', 'Glen', 'Rose', 'Lake', 'Willow', 'Maple', 'High',
  'Green', 'Cedar', 'Pine', 'Silver', 'Bright', 'West', 'North', 'Summer', 'Wind', 'Sea', 'River', 'Hazel', 'Thorn', 'Bel'];
const COMPOUND_TAILS = ['view', 'wood', 'crest', 'hurst', 'field', 'brook', 'dale', 'haven', 'gate', 'moor', 'ridge', 'stead',
  'leigh', 'mere', 'ford', 'holm', 'wick', 'cliff', 'bourne'];
const SURNAMES = ['Whitmore', 'Hartwell', 'Ashford', 'Carrington', 'Pemberton', 'Langley', 'Sterling', 'Thornton', 'Wexford',
  'Holloway', 'Beaumont', 'Kensington', 'Montgomery', 'Ellsworth', 'Fairbanks', 'Rutherford', 'Bradford', 'Caldwell',
  'Prescott', 'Winslow', 'Harrington', 'Whitley', 'Calloway', 'Davenport', 'Lockwood', 'Merriweather', 'Blackwell',
  'Sinclair', 'Hollister', 'Abernathy', 'Wakefield', 'Aldridge', 'Radcliffe', 'Everly', 'Castleton', 'Marlowe'];
const ENGLISH_NOUNS: Record<VenueTypeKey, readonly string[]> = {
  estate: ['Estate', 'Estate', 'House', 'Hall'], villa: ['Villa'], ranch: ['Ranch'], mansion: ['Mansion', 'House', 'Hall'],
  cabin: ['Cabin', 'Cabins'], castle: ['Castle'], chalet: ['Chalet'], lodge: ['Lodge'], cottage: ['Cottage', 'Cottages'],
  barn: ['Barn', 'Barn', 'Farm'], barndominium: ['Barn', 'Homestead'], hacienda: ['Hacienda'],
  farmhouse: ['Farm', 'Farmhouse', 'Homestead'], chateau: ['Chateau'], resort: ['Resort', 'Retreat'],
  winery: ['Winery', 'Vineyards', 'Cellars'], treehouse: ['Treehouse', 'Treehouses'], manor: ['Manor'], inn: ['Inn'],
};
const AUSSIE_WORDS = ['Wattle', 'Banksia', 'Ironbark', 'Jacaranda', 'Bellbird', 'Kookaburra', 'Red Gum', 'Saltbush',
  'Paperbark', 'Blackwood', 'Grevillea', 'Wombat', 'Lyrebird', 'Bottlebrush'];
const AUSSIE_LANDFORMS = ['Creek', 'Ridge', 'Gully', 'Hill', 'Valley', 'Downs', 'Bay', 'Point', 'Springs', 'Plains'];
const IRISH_HEADS = ['Bally', 'Kil', 'Glen', 'Lough', 'Ard', 'Dun', 'Rath', 'Clon', 'Inish', 'Knock', 'Carrig', 'Derry'];
const IRISH_TAILS = ['more', 'beg', 'nahinch', 'carra', 'ross', 'mara', 'dara', 'owen', 'keel', 'corrig', 'lea', 'garriff',
  'vally', 'shane', 'tallon', 'moyle'];
const SPANISH_NAMES = ['San Gabriel', 'Santa Lucía', 'Los Olivos', 'Las Palmas', 'La Esperanza', 'El Cielo', 'Mar Azul', 'Luna',
  'Sol y Mar', 'Los Arcos', 'La Joya', 'Santa Rosa', 'San Miguel', 'Las Flores', 'El Encanto', 'Tres Palmas', 'Buena Vista',
  'La Ceiba', 'Los Almendros', 'Las Brisas', 'El Mirador', 'Punta Piedra', 'Agua Clara', 'Santa Cruz', 'El Paraíso',
  'Los Laureles', 'Las Lomas', 'Tierra Dorada', 'Ixchel', 'Sak Nah', 'Santa Inés', 'San Lorenzo', 'La Palapa', 'Las Nubes',
  'Vista Verde', 'Pura Vida', 'Selva Azul', 'Bosque Escondido', 'La Cascada', 'Los Tucanes', 'El Jardín', 'Dos Ríos',
  'Piedra Blanca', 'Cielo Alto', 'Las Bugambilias', 'Los Agaves', 'Santa Clara', 'San Ángel'];
const SPANISH_NOUNS: Partial<Record<VenueTypeKey, readonly string[]>> = {
  hacienda: ['Hacienda'], villa: ['Villa', 'Casa'], ranch: ['Rancho'], estate: ['Finca', 'Quinta'], mansion: ['Casona', 'Palacio'],
  resort: ['Hotel', 'Posada'], cottage: ['Casita'], inn: ['Posada'], farmhouse: ['Finca'], winery: ['Viñedo'],
};
const ITALIAN_NAMES = ['Serenella', 'Bellavista', 'Le Querce', 'Il Poggio', 'San Felice', 'dei Cipressi', 'Torre Bianca',
  'La Fenice', 'Aurora', 'Belvedere', 'Le Rose', 'Santa Caterina', 'La Vigna', 'Margherita', 'Camilla', 'Ginevra',
  'degli Ulivi', 'del Sole', 'La Limonaia', 'Il Gelso', 'San Martino', "Sant'Anna", 'dei Fiori', 'Le Mura', 'Lucrezia',
  'Il Glicine', 'Le Fontane', 'La Quercia', 'dei Gelsomini', 'Valentina', 'Beatrice', 'Il Castagno', 'Monteverde',
  'La Pergola', 'Le Stelle', 'Il Leccio', 'San Biagio', 'Vittoria', 'Ortensia', 'La Rocca', 'Il Mandorlo', 'Santa Chiara'];
const ITALIAN_PLACES = ['Montefiore', 'Rocca Alta', 'Poggio Rosso', 'Valle Chiara', 'Torrebruna', 'Castelnuovo', 'Montalto',
  'Belforte', 'Serravalle', 'Monterosso', 'Collina Verde', 'Poggibonsi Alta', 'Roccabianca', 'Montebello', 'Valdarno',
  'Castelvecchio', 'Montecastello', 'Pietrafitta', 'Torricella', 'Spinello'];
const ITALIAN_NOUNS: Partial<Record<VenueTypeKey, readonly string[]>> = {
  villa: ['Villa'], estate: ['Tenuta'], farmhouse: ['Casale', 'Podere', 'Masseria', 'Agriturismo'], mansion: ['Palazzo'],
  manor: ['Dimora'], winery: ['Cantina', 'Fattoria'], resort: ['Borgo'], inn: ['Locanda'], cottage: ['Casetta'],
  lodge: ['Rifugio'], chalet: ['Chalet'], barn: ['Fienile'], cabin: ['Baita'],
};
const FRENCH_NAMES = ['Belle Rive', 'Lumière', 'Beau Soleil', 'Montclair', 'Bellefleur', "Val d'Or", 'Rosemont', 'Clairmont',
  'Beaulieu', 'Fontaine', 'Sainte-Claire', 'Belcourt', 'Mirabelle', 'Les Tilleuls', 'Bellerive', 'Chantemerle'];

function landform(r: Random, features: ReadonlySet<Feature>): string {
  if (features.has('coast') && r.chance(0.5)) return r.pick(LANDFORMS.coast);
  if (features.has('mountain') && r.chance(0.5)) return r.pick(LANDFORMS.mountain);
  if (features.has('lake') && r.chance(0.5)) return r.pick(LANDFORMS.lake);
  return r.pick(LANDFORMS.any);
}

function englishName(r: Random, type: VenueTypeKey, features: ReadonlySet<Feature>, british: boolean): string {
  const noun = r.pick(ENGLISH_NOUNS[type]);
  if (type === 'chateau') return `Chateau ${r.pick(FRENCH_NAMES)}`;
  const roll = r.next();
  if (roll < 0.42) return `${r.pick(TREES_AND_THINGS)} ${landform(r, features)} ${noun}`;
  if (roll < 0.68) return `${r.pick(COMPOUND_HEADS)}${r.pick(COMPOUND_TAILS)} ${noun}`;
  if (roll < 0.72) return `${british ? 'Harbour' : 'Harbor'}view ${noun}`;
  if (roll < 0.86) return `The ${noun} at ${r.pick(TREES_AND_THINGS)} ${landform(r, features)}`;
  if (roll < 0.95) return `${r.pick(SURNAMES)} ${noun}`;
  return `${r.pick(TREES_AND_THINGS)} ${landform(r, features)}`;
}

/** A venue name that fits the type and the country's naming culture. */
export function venueName(r: Random, type: VenueTypeKey | null, country: Country, features: ReadonlySet<Feature>): string {
  const t: VenueTypeKey = type ?? 'estate';
  switch (country.names) {
    case 'es': {
      const nouns = SPANISH_NOUNS[t];
      if (!nouns) return englishName(r, t, features, false);
      return `${r.pick(nouns)} ${r.pick(SPANISH_NAMES)}`;
    }
    case 'it': {
      if (t === 'castle') return r.chance(0.7) ? `Castello di ${r.pick(ITALIAN_PLACES)}` : `Rocca ${r.pick(ITALIAN_NAMES)}`;
      if (t === 'chateau') return `Château ${r.pick(FRENCH_NAMES)}`;
      const nouns = ITALIAN_NOUNS[t] ?? ['Villa'];
      return r.chance(0.2) && t === 'estate'
        ? `Tenuta di ${r.pick(ITALIAN_PLACES)}`
        : `${r.pick(nouns)} ${r.pick(ITALIAN_NAMES)}`;
    }
    case 'en-ie':
      if (r.chance(0.6)) {
        const noun = t === 'mansion' || t === 'estate' ? r.pick(['House', 'House', 'Court', 'Park']) : r.pick(ENGLISH_NOUNS[t]);
        return `${r.pick(IRISH_HEADS)}${r.pick(IRISH_TAILS)} ${noun}`;
      }
      return englishName(r, t, features, true);
    case 'en-au':
      if (r.chance(0.45)) return `${r.pick(AUSSIE_WORDS)} ${r.pick(AUSSIE_LANDFORMS)} ${r.pick(ENGLISH_NOUNS[t])}`;
      return englishName(r, t, features, true);
    default:
      return englishName(r, t, features, false);
  }
}
