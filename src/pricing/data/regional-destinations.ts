// Authored: the destination countries of §1 (Mexico, Italy, Costa Rica, Ireland, Australia), the Italian regions
// couples ask for, and destination towns. Budgets in USD, all in, for a destination wedding with fewer guests.
import { mult, type RegionRecord } from './regional-climates.js';
import { city } from './regional-us-cities.js';

const country = (slug: string, name: string, low: number, high: number, averageGuestCount: number, climate: RegionRecord['climate'], m: RegionRecord['multipliers'], aliases: readonly string[], southern?: boolean): RegionRecord =>
  ({ slug, name, type: 'state', country: name, low, high, averageGuestCount, climate, multipliers: m, aliases, southern, dataYear: 2025 });
const italianRegion = (slug: string, name: string, low: number, high: number, averageGuestCount: number, m: RegionRecord['multipliers'], aliases: readonly string[] = []): RegionRecord =>
  ({ slug, name, type: 'state', country: 'Italy', parent: 'italy', low, high, averageGuestCount, climate: 'mediterranean', multipliers: m, aliases, dataYear: 2025 });

export const DESTINATIONS: readonly RegionRecord[] = [
  country('mexico', 'Mexico', 25000, 50000, 80, 'caribbean', mult(1.18, 1.0, 0.8, 0.95, 1.0, 0.92), ['MX', 'México', 'Riviera Maya', 'Yucatan Peninsula']),
  country('italy', 'Italy', 45000, 90000, 70, 'mediterranean', mult(1.2, 1.0, 0.75, 0.95, 1.0, 0.92), ['IT', 'Italia']),
  country('costa-rica', 'Costa Rica', 24000, 45000, 70, 'tropical', mult(1.15, 1.0, 0.82, 0.95, 1.0, 0.92), ['CR', 'Guanacaste']),
  country('ireland', 'Ireland', 35000, 65000, 100, 'ireland', mult(1.15, 1.0, 0.8, 0.9, 1.0, 0.9), ['IE', 'Éire', 'Wild Atlantic Way']),
  country('australia', 'Australia', 32000, 60000, 100, 'australia', mult(1.15, 1.0, 0.82, 0.9, 1.0, 0.88), ['AU', 'AUS', 'Oz'], true),
  italianRegion('tuscany', 'Tuscany', 50000, 100000, 75, mult(1.22, 1.0, 0.75, 0.95, 1.0, 0.92), ['Toscana', 'Chianti']),
  italianRegion('lake-como', 'Lake Como', 65000, 130000, 70, mult(1.25, 1.0, 0.72, 0.95, 1.0, 0.92), ['Como', 'Lago di Como']),
  italianRegion('amalfi-coast', 'Amalfi Coast', 60000, 120000, 65, mult(1.25, 1.0, 0.7, 0.95, 1.0, 0.92), ['Amalfi', 'Costiera Amalfitana']),
  italianRegion('sicily', 'Sicily', 38000, 72000, 80, mult(1.18, 1.0, 0.8, 0.95, 1.0, 0.92), ['Sicilia']),
  italianRegion('puglia', 'Puglia', 40000, 78000, 90, mult(1.2, 1.0, 0.78, 0.95, 1.0, 0.92), ['Apulia']),
  city('Tulum', 'mexico', 30000, 60000, 80, 'caribbean', undefined, [], 'Mexico'),
  city('Cabo San Lucas', 'mexico', 35000, 68000, 80, 'caribbean', undefined, ['Cabo', 'Los Cabos'], 'Mexico'),
  city('San Miguel de Allende', 'mexico', 30000, 58000, 100, 'central-mexico', mult(1.15, 1.0, 0.85, 0.95, 1.0, 0.92), [], 'Mexico'),
  city('Puerto Vallarta', 'mexico', 25000, 48000, 80, 'caribbean', undefined, [], 'Mexico'),
  city('Florence', 'tuscany', 55000, 105000, 70, 'mediterranean', undefined, ['Firenze'], 'Italy'),
  city('Positano', 'amalfi-coast', 65000, 130000, 60, 'mediterranean', undefined, [], 'Italy'),
  city('Bellagio', 'lake-como', 70000, 140000, 60, 'mediterranean', undefined, [], 'Italy'),
  city('Rome', 'italy', 48000, 95000, 80, 'mediterranean', undefined, ['Roma'], 'Italy'),
  city('Dublin', 'ireland', 38000, 70000, 110, 'ireland', undefined, [], 'Ireland'),
  city('Galway', 'ireland', 32000, 60000, 110, 'ireland', undefined, [], 'Ireland'),
  city('Sydney', 'australia', 38000, 72000, 100, 'australia', undefined, [], 'Australia', true),
  city('Melbourne', 'australia', 35000, 66000, 100, 'australia', undefined, [], 'Australia', true),
  city('Tamarindo', 'costa-rica', 26000, 48000, 70, 'tropical', undefined, [], 'Costa Rica'),
];
