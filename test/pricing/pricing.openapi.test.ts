import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectMatchesOpenApi } from '../support/openapi-responses.js';
import { ESTIMATOR_MODEL } from '../../src/pricing/data/estimator-model.js';

// The three cost routes answer exactly what the OpenAPI document says (strict: no undocumented key), on the seeded catalogue.

let t: TestApp;
// The document is JSON of many nested shapes; tests navigate it freely.
let doc: any;
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date('2026-06-15T12:00:00Z') });
  doc = (await t.rest('/api/v1/openapi.json')).body;
});
afterAll(() => t.close());

describe('cost routes in the OpenAPI document', () => {
  it('documents the §4.3 parameters with their allowed values, bounds, defaults and the region ids', () => {
    const params = Object.fromEntries((doc.paths['/venues/pricing'].get.parameters as any[]).map((p) => [p.name, p]));
    expect(Object.keys(params)).toEqual(['region', 'event_type', 'event_guests', 'overnight_guests', 'nights', 'venue_type', 'season']);
    expect(params.event_type.schema).toEqual({ type: 'string', enum: ['weekend', 'weekday'], default: 'weekend' });
    expect(params.event_guests.schema).toEqual({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
    expect(params.overnight_guests.schema).toEqual({ type: 'integer', minimum: 1, maximum: 350, default: 20 });
    expect(params.nights.schema).toEqual({ type: 'integer', minimum: 2, maximum: 7, default: 2 });
    expect(params.venue_type.schema.enum).toEqual(['barn', 'estate', 'resort', 'winery', 'garden', 'historic', 'ranch', 'villa']);
    expect(params.season.schema).toEqual({ type: 'string', enum: ['peak', 'shoulder', 'off'], default: 'peak' });
    expect(params.region.schema.default).toBe('california');
    for (const { id } of ESTIMATOR_MODEL.regions) expect(params.region.description).toContain(id);
    const benchmarks = doc.paths['/cost-benchmarks'].get;
    expect(benchmarks.description).toMatch(/weekday base.*percentile_cont/s);
    expect(benchmarks.responses['200'].content['application/json'].schema.$ref).toBeTruthy();
    const ranges = doc.paths['/regional-cost-ranges'].get;
    expect(ranges.responses['400'].description).toContain('`region_required`');
    expect(ranges.responses['400'].description).toContain('`invalid_season_name`');
    expect(ranges.parameters.find((p: any) => p.name === 'guests').schema).toEqual({ type: 'integer', minimum: 1, maximum: 2000 });
  });

  it('answers every documented shape strictly: estimates, benchmarks, ranges and their errors', async () => {
    const paths = [
      '/api/v1/venues/pricing',
      '/api/v1/venues/pricing?region=Lake%20Como&event_guests=1&overnight_guests=1&nights=7',
      '/api/v1/cost-benchmarks',
      '/api/v1/cost-benchmarks?state=California',
      '/api/v1/cost-benchmarks?country=Italy',
      '/api/v1/regional-cost-ranges?state=TX',
      '/api/v1/regional-cost-ranges?city=Tulum&season=summer&guests=40',
      '/api/v1/regional-cost-ranges?state=Atlantis',
    ];
    for (const path of paths) {
      const res = await t.rest(path);
      expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(200);
      expectMatchesOpenApi(doc, 'GET', path, 200, res.body);
    }
    for (const path of ['/api/v1/venues/pricing?nights=9', '/api/v1/regional-cost-ranges', '/api/v1/regional-cost-ranges?state=CA&season=x']) {
      const res = await t.rest(path);
      expectMatchesOpenApi(doc, 'GET', path, 400, res.body);
    }
  });

  it('benchmarks the seeded catalogue: national, state, venue-type and converted euro rows', async () => {
    const res = await t.rest('/api/v1/cost-benchmarks');
    const scopes = new Set(res.body.data.map((r: any) => r.scope));
    expect(scopes).toEqual(new Set(['national', 'state', 'venue_type', 'country']));
    expect(res.body.data.filter((r: any) => r.scope === 'venue_type').map((r: any) => r.venue_type)).toEqual(['estate', 'villa', 'ranch', 'mansion']);
    const italy = res.body.data.find((r: any) => r.country === 'Italy');
    expect(italy.converted_from).toBe('EUR');
    expect(res.body.data.find((r: any) => r.country === 'Australia').converted_from).toBeNull();
    for (const row of res.body.data) {
      expect(row.listings).toBeGreaterThanOrEqual(3);
      expect(row.typical_low_base_per_stay).toBeLessThanOrEqual(row.median_base_per_stay);
      expect(row.median_base_per_stay).toBeLessThanOrEqual(row.typical_high_base_per_stay);
      expect(row.median_nightly).toBe(row.median_base_per_stay);
    }
    const national = res.body.data[0];
    const published = await t.db.prisma.venue.count({ where: { published: true, weekdayBase: { not: null }, country: 'United States' } });
    expect(national.listings).toBe(published);
  });
});
