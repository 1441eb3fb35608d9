// Authored table: destination regions outside the US (§1: Mexico, Italy, Costa Rica, Ireland, Australia).
// Italy follows the pricing regions of §4.3 (Tuscany, Lake Como, Amalfi Coast, Sicily, Puglia, Umbria,
// Lazio for Rome, Florence, Veneto for Venice). Coordinates are approximate town centres.
import type { RegionRow } from './places.js';

export const INTERNATIONAL_REGIONS: readonly RegionRow[] = [
  // Mexico: Mexican states. Mexican venues price in USD like most destination rentals there.
  { name: 'Quintana Roo', country: 'mexico', weight: 2.5, style: 'mexico', taxPercent: 14, priceFactor: 1.1, cities: [
    ['Tulum', 20.211, -87.465, 'coast tropical'],
    ['Playa del Carmen', 20.629, -87.073, 'coast tropical'],
    ['Cancún', 21.161, -86.851, 'coast tropical city'],
    ['Puerto Morelos', 20.848, -86.875, 'coast tropical'],
    ['Bacalar', 18.677, -88.395, 'lake tropical'],
  ] },
  { name: 'Baja California Sur', country: 'mexico', weight: 1.5, style: 'mexico', taxPercent: 14, priceFactor: 1.25, cities: [
    ['Cabo San Lucas', 22.89, -109.916, 'coast desert'],
    ['San José del Cabo', 23.063, -109.697, 'coast desert historic'],
    ['Todos Santos', 23.449, -110.226, 'coast desert historic'],
    ['La Paz', 24.142, -110.313, 'coast desert city'],
  ] },
  { name: 'Guanajuato', country: 'mexico', weight: 1.2, style: 'mexico', taxPercent: 14, priceFactor: 0.9, cities: [
    ['San Miguel de Allende', 20.914, -100.745, 'historic city country'],
    ['Guanajuato', 21.019, -101.257, 'historic city mountain'],
    ['Dolores Hidalgo', 21.156, -100.933, 'historic country wine'],
  ] },
  { name: 'Jalisco', country: 'mexico', weight: 1.2, style: 'mexico', taxPercent: 14, priceFactor: 0.95, cities: [
    ['Puerto Vallarta', 20.653, -105.225, 'coast tropical mountain'],
    ['Sayulita', 20.869, -105.441, 'coast tropical'],
    ['Guadalajara', 20.677, -103.347, 'city historic'],
    ['Tequila', 20.882, -103.837, 'country historic'],
    ['Ajijic', 20.299, -103.262, 'lake mountain'],
  ] },
  { name: 'Oaxaca', country: 'mexico', weight: 0.8, style: 'mexico', taxPercent: 14, priceFactor: 0.8, cities: [
    ['Oaxaca', 17.073, -96.726, 'historic city mountain'],
    ['Puerto Escondido', 15.872, -97.077, 'coast tropical'],
    ['Huatulco', 15.768, -96.133, 'coast tropical'],
  ] },
  { name: 'Yucatán', country: 'mexico', weight: 0.8, style: 'mexico', taxPercent: 14, priceFactor: 0.85, cities: [
    ['Mérida', 20.967, -89.624, 'historic city tropical'],
    ['Valladolid', 20.689, -88.202, 'historic tropical'],
    ['Izamal', 20.931, -89.018, 'historic tropical country'],
  ] },
  // Italy: stored and shown in EUR (§2.1).
  { name: 'Tuscany', country: 'italy', weight: 2.6, style: 'italy', taxPercent: 10, priceFactor: 1.3, cities: [
    ['Siena', 43.318, 11.331, 'historic wine country'],
    ['Montepulciano', 43.093, 11.782, 'historic wine country'],
    ['Montalcino', 43.058, 11.49, 'historic wine country'],
    ['San Gimignano', 43.468, 11.043, 'historic wine'],
    ['Lucca', 43.843, 10.506, 'historic city'],
    ['Cortona', 43.275, 11.985, 'historic country'],
    ['Pienza', 43.077, 11.679, 'historic country'],
    ['Forte dei Marmi', 43.962, 10.175, 'coast mountain'],
  ] },
  { name: 'Florence', country: 'italy', weight: 1.4, style: 'italy', taxPercent: 10, priceFactor: 1.35, cities: [
    ['Florence', 43.769, 11.256, 'historic city'],
    ['Fiesole', 43.806, 11.293, 'historic country'],
    ['Greve in Chianti', 43.584, 11.317, 'wine country historic'],
    ['Impruneta', 43.685, 11.254, 'wine country'],
    ['Bagno a Ripoli', 43.75, 11.322, 'country'],
  ] },
  { name: 'Lake Como', country: 'italy', weight: 1.6, style: 'italy', taxPercent: 10, priceFactor: 1.6, cities: [
    ['Bellagio', 45.987, 9.262, 'lake mountain historic'],
    ['Varenna', 46.01, 9.284, 'lake mountain historic'],
    ['Como', 45.808, 9.085, 'lake city historic'],
    ['Tremezzo', 45.988, 9.219, 'lake mountain'],
    ['Cernobbio', 45.841, 9.075, 'lake historic'],
    ['Menaggio', 46.022, 9.237, 'lake mountain'],
  ] },
  { name: 'Amalfi Coast', country: 'italy', weight: 1.6, style: 'italy', taxPercent: 10, priceFactor: 1.5, cities: [
    ['Positano', 40.628, 14.485, 'coast mountain'],
    ['Amalfi', 40.634, 14.603, 'coast historic'],
    ['Ravello', 40.649, 14.612, 'coast mountain historic'],
    ['Praiano', 40.611, 14.535, 'coast'],
    ['Sorrento', 40.626, 14.376, 'coast historic'],
    ['Maiori', 40.648, 14.641, 'coast'],
  ] },
  { name: 'Sicily', country: 'italy', weight: 1.2, style: 'italy', taxPercent: 10, priceFactor: 1.0, cities: [
    ['Taormina', 37.852, 15.288, 'coast mountain historic'],
    ['Palermo', 38.116, 13.361, 'coast city historic'],
    ['Syracuse', 37.075, 15.286, 'coast historic'],
    ['Noto', 36.891, 15.069, 'historic wine country'],
    ['Cefalù', 38.039, 14.022, 'coast historic'],
    ['Marsala', 37.798, 12.437, 'coast wine'],
  ] },
  { name: 'Puglia', country: 'italy', weight: 1.3, style: 'italy', taxPercent: 10, priceFactor: 1.05, cities: [
    ['Ostuni', 40.729, 17.578, 'historic country coast'],
    ['Polignano a Mare', 40.996, 17.219, 'coast historic'],
    ['Alberobello', 40.784, 17.24, 'historic country'],
    ['Lecce', 40.352, 18.169, 'historic city'],
    ['Fasano', 40.836, 17.358, 'country coast'],
    ['Monopoli', 40.951, 17.298, 'coast historic'],
  ] },
  { name: 'Umbria', country: 'italy', weight: 1.0, style: 'italy', taxPercent: 10, priceFactor: 1.0, cities: [
    ['Perugia', 43.111, 12.389, 'historic city'],
    ['Assisi', 43.07, 12.617, 'historic country'],
    ['Orvieto', 42.719, 12.111, 'historic wine'],
    ['Spoleto', 42.74, 12.738, 'historic mountain'],
    ['Todi', 42.782, 12.406, 'historic country'],
    ['Montefalco', 42.894, 12.652, 'wine country historic'],
  ] },
  { name: 'Lazio', country: 'italy', weight: 1.0, style: 'italy', taxPercent: 10, priceFactor: 1.3, cities: [
    ['Rome', 41.903, 12.496, 'historic city'],
    ['Frascati', 41.809, 12.68, 'wine historic'],
    ['Tivoli', 41.963, 12.798, 'historic country'],
    ['Bracciano', 42.103, 12.176, 'lake historic'],
    ['Castel Gandolfo', 41.747, 12.651, 'lake historic'],
  ] },
  { name: 'Veneto', country: 'italy', weight: 1.1, style: 'italy', taxPercent: 10, priceFactor: 1.4, cities: [
    ['Venice', 45.44, 12.316, 'historic city coast'],
    ['Verona', 45.438, 10.992, 'historic city wine'],
    ['Asolo', 45.8, 11.914, 'historic country'],
    ['Valdobbiadene', 45.9, 11.997, 'wine country'],
    ['Bardolino', 45.548, 10.723, 'lake wine'],
    ['Treviso', 45.667, 12.245, 'historic city'],
  ] },
  // Costa Rica: provinces; priced in USD.
  { name: 'Guanacaste', country: 'costa-rica', weight: 1.4, style: 'costa-rica', taxPercent: 13, priceFactor: 1.0, cities: [
    ['Tamarindo', 10.3, -85.841, 'coast tropical'],
    ['Nosara', 9.977, -85.653, 'coast tropical'],
    ['Playa Flamingo', 10.433, -85.783, 'coast tropical'],
    ['Papagayo Peninsula', 10.635, -85.676, 'coast tropical'],
  ] },
  { name: 'Puntarenas', country: 'costa-rica', weight: 1.0, style: 'costa-rica', taxPercent: 13, priceFactor: 0.95, cities: [
    ['Santa Teresa', 9.643, -85.168, 'coast tropical'],
    ['Manuel Antonio', 9.393, -84.143, 'coast tropical'],
    ['Uvita', 9.16, -83.74, 'coast tropical mountain'],
    ['Monteverde', 10.3, -84.825, 'mountain tropical'],
  ] },
  { name: 'Alajuela', country: 'costa-rica', weight: 0.6, style: 'costa-rica', taxPercent: 13, priceFactor: 0.85, cities: [
    ['La Fortuna', 10.471, -84.645, 'mountain tropical lake'],
    ['Atenas', 9.978, -84.38, 'mountain country tropical'],
    ['San Ramón', 10.087, -84.47, 'mountain tropical'],
  ] },
  { name: 'Limón', country: 'costa-rica', weight: 0.3, style: 'costa-rica', taxPercent: 13, priceFactor: 0.8, cities: [
    ['Puerto Viejo de Talamanca', 9.656, -82.754, 'coast tropical'],
    ['Cahuita', 9.737, -82.839, 'coast tropical'],
  ] },
  // Ireland: counties; stored and shown in EUR.
  { name: 'County Kerry', country: 'ireland', weight: 0.8, style: 'ireland', taxPercent: 13.5, priceFactor: 1.1, cities: [
    ['Killarney', 52.059, -9.504, 'lake mountain historic'],
    ['Kenmare', 51.88, -9.583, 'coast mountain'],
    ['Dingle', 52.141, -10.268, 'coast'],
  ] },
  { name: 'County Clare', country: 'ireland', weight: 0.5, style: 'ireland', taxPercent: 13.5, priceFactor: 1.0, cities: [
    ['Ennis', 52.843, -8.986, 'historic country'],
    ['Doolin', 53.016, -9.377, 'coast'],
    ['Lahinch', 52.933, -9.347, 'coast'],
  ] },
  { name: 'County Galway', country: 'ireland', weight: 0.6, style: 'ireland', taxPercent: 13.5, priceFactor: 1.05, cities: [
    ['Galway', 53.271, -9.049, 'coast city historic'],
    ['Clifden', 53.489, -10.019, 'coast mountain'],
    ['Oughterard', 53.428, -9.321, 'lake country'],
  ] },
  { name: 'County Wicklow', country: 'ireland', weight: 0.5, style: 'ireland', taxPercent: 13.5, priceFactor: 1.15, cities: [
    ['Enniskerry', 53.193, -6.17, 'mountain historic'],
    ['Laragh', 53.009, -6.298, 'mountain lake'],
    ['Greystones', 53.144, -6.063, 'coast'],
  ] },
  { name: 'County Cork', country: 'ireland', weight: 0.6, style: 'ireland', taxPercent: 13.5, priceFactor: 1.05, cities: [
    ['Kinsale', 51.706, -8.522, 'coast historic'],
    ['Cobh', 51.851, -8.297, 'coast historic'],
    ['Clonakilty', 51.623, -8.884, 'coast country'],
  ] },
  { name: 'County Dublin', country: 'ireland', weight: 0.4, style: 'ireland', taxPercent: 13.5, priceFactor: 1.25, cities: [
    ['Dublin', 53.35, -6.26, 'city historic'],
    ['Malahide', 53.45, -6.154, 'coast historic'],
    ['Howth', 53.387, -6.065, 'coast'],
  ] },
  { name: 'County Kilkenny', country: 'ireland', weight: 0.3, style: 'ireland', taxPercent: 13.5, priceFactor: 1.0, cities: [
    ['Kilkenny', 52.654, -7.252, 'historic city'],
    ['Thomastown', 52.527, -7.137, 'river country'],
  ] },
  { name: 'County Mayo', country: 'ireland', weight: 0.3, style: 'ireland', taxPercent: 13.5, priceFactor: 0.95, cities: [
    ['Westport', 53.8, -9.518, 'coast mountain'],
    ['Cong', 53.54, -9.286, 'lake historic'],
  ] },
  // Australia: shown in AUD, but amounts are stored in USD and converted when read (§2.1).
  { name: 'New South Wales', country: 'australia', weight: 2.0, style: 'australia', taxPercent: 10, priceFactor: 1.1, cities: [
    ['Sydney', -33.869, 151.209, 'coast city'],
    ['Pokolbin', -32.782, 151.283, 'wine country'],
    ['Byron Bay', -28.647, 153.602, 'coast tropical'],
    ['Katoomba', -33.715, 150.312, 'mountain'],
    ['Bowral', -34.478, 150.418, 'country historic'],
    ['Mudgee', -32.595, 149.587, 'wine country'],
  ] },
  { name: 'Victoria', country: 'australia', weight: 1.6, style: 'australia', taxPercent: 10, priceFactor: 1.05, cities: [
    ['Melbourne', -37.814, 144.963, 'city'],
    ['Healesville', -37.654, 145.514, 'wine country'],
    ['Red Hill', -38.38, 145.02, 'wine coast'],
    ['Daylesford', -37.341, 144.143, 'lake country historic'],
    ['Lorne', -38.541, 143.975, 'coast'],
  ] },
  { name: 'Queensland', country: 'australia', weight: 1.2, style: 'australia', taxPercent: 10, priceFactor: 1.05, cities: [
    ['Noosa Heads', -26.39, 153.09, 'coast tropical'],
    ['Port Douglas', -16.484, 145.465, 'coast tropical'],
    ['Montville', -26.69, 152.893, 'mountain country'],
    ['Brisbane', -27.47, 153.026, 'city river'],
  ] },
  { name: 'South Australia', country: 'australia', weight: 0.6, style: 'australia', taxPercent: 10, priceFactor: 0.95, cities: [
    ['Tanunda', -34.523, 138.96, 'wine country'],
    ['McLaren Vale', -35.219, 138.546, 'wine country coast'],
    ['Adelaide', -34.929, 138.601, 'city'],
  ] },
  { name: 'Western Australia', country: 'australia', weight: 0.6, style: 'australia', taxPercent: 10, priceFactor: 1.0, cities: [
    ['Margaret River', -33.955, 115.075, 'wine coast'],
    ['Fremantle', -32.056, 115.747, 'coast city historic'],
    ['Perth', -31.95, 115.86, 'city river'],
  ] },
  { name: 'Tasmania', country: 'australia', weight: 0.4, style: 'australia', taxPercent: 10, priceFactor: 0.95, cities: [
    ['Hobart', -42.882, 147.327, 'coast city historic mountain'],
    ['Launceston', -41.434, 147.138, 'river wine historic'],
    ['Coles Bay', -42.125, 148.284, 'coast'],
  ] },
];
