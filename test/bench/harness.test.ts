// The bench's pieces without a server or database: the MIX list, results.json's shape, the SVG chart, node options.
import { describe, expect, it } from 'vitest';
import { Kind, parse, validate, type OperationDefinitionNode } from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import { getSchema } from '../../src/graphql/schema.js';
import { buildMix, entryKey, entryProblem, materialise, MIX_DOCUMENTS, type CatalogueFacts } from '../../bench/mix.js';
import { loadMix } from '../../bench/mix-replay.js';
import { resultsProblems, chartRows, type CaseResult } from '../../bench/results-file.js';
import { chartSvg } from '../../bench/chart.js';
import { failureDetail, generatorAgent, openLoop, quantile, worstWindowP99 } from '../../bench/open-loop.js';
import { createServer, request as httpRequest } from 'node:http';
import { projection } from '../../bench/baseline-sql.js';
import { benchCases, loadGroups, loadOrder, type Discovery } from '../../bench/cases.js';
import { combineMeasurements, type Measurement } from '../../bench/load.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeOptions, withStartEnvironment } from '../../scripts/start-command.js';
import { startNode } from '../../bench/children.js';

const repoRoot = new URL('../..', import.meta.url).pathname;

const facts: CatalogueFacts = {
  venues: Array.from({ length: 300 }, (_, i) => ({
    slug: `state-${i % 12}/city-${i % 40}/venue-${i}`,
    stateSlug: `state-${i % 12}`,
    citySlug: `city-${i % 40}`,
    capacityMax: 10 + (i % 50),
    amenities: i % 2 ? ['pool', 'wifi'] : ['hot-tub', 'ocean-view', 'fire-pit'],
    venueType: i % 3 ? 'estate' : null,
  })),
  regionStates: ['California', 'Texas', 'Utah'],
  regionCities: ['Napa', 'Austin'],
  vendors: Array.from({ length: 200 }, (_, i) => ({ slug: `cat-${i % 5}/st/vendor-${i}`, category: `cat-${i % 5}`, state: i % 4 ? 'Utah' : null })),
  vendorCategories: ['cat-0', 'cat-1'],
  blogPosts: ['a-post', 'b-post'],
  blogTags: ['budget'],
  inspirationIds: ['0b8e7f5e-7a51-4c1f-9d38-2f4f1f0f6a11'],
  venuePages: ['/venues?limit=20&cursor=abc', '/venues?limit=20&cursor=def'],
  vendorPages: ['/vendors?limit=20&sort_by=experience&cursor=xyz'],
  graphqlVenuePages: [{ state: 'state-1', first: 12, after: 'c1' }],
};

describe('MIX list', () => {
  it('is deterministic: the same facts and seed give the identical list; another seed a different one', () => {
    const a = buildMix(facts, { seed: 's1', size: 2000 });
    expect(buildMix(facts, { seed: 's1', size: 2000 })).toEqual(a);
    expect(buildMix(facts, { seed: 's2', size: 2000 })).not.toEqual(a);
  });

  it('has at least 2,000 distinct, well-formed requests covering every kind of read', () => {
    const mix = buildMix(facts, { seed: 's1', size: 2000 });
    expect(new Set(mix.map(entryKey)).size).toBe(2000);
    expect(mix.map((e) => entryProblem(e)).filter(Boolean)).toEqual([]);
    const kinds = new Set(mix.map((e) => e.kind));
    for (const kind of [
      'venue-search',
      'venue-search-page',
      'venue-detail',
      'vendor-search',
      'vendor-detail',
      'pricing-estimate',
      'regional-range',
      'knowledge-search',
      'blog-post',
      'inspiration-search',
      'gql-search-venues',
      'gql-venue-detail',
    ])
      expect(kinds).toContain(kind);
    for (const e of mix.filter((x) => x.method === 'POST')) {
      const body = JSON.parse(materialise(e).body!);
      expect(body.query).toBe(MIX_DOCUMENTS[body.operationName as keyof typeof MIX_DOCUMENTS]);
    }
  });

  it('refuses malformed entries', () => {
    expect(entryProblem({ kind: 'x', method: 'GET', path: '/graphql' })).toMatch(/api\/v1/);
    expect(entryProblem({ kind: 'x', method: 'POST', path: '/graphql', operation: 'Nope', variables: {} })).toMatch(/unknown operation/);
    expect(entryProblem({ kind: 'x', method: 'POST', path: '/graphql', operation: 'VenueDetail', variables: { slug: 'a', extra: 1 } })).toMatch(
      /not declared/,
    );
  });

  it('the committed bench/mix.json has ≥ 2,000 distinct well-formed entries', () => {
    const { file, requests } = loadMix();
    expect(file.entries.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(file.entries.map(entryKey)).size).toBe(file.entries.length);
    expect(requests).toHaveLength(file.entries.length);
  });

  it("every GraphQL entry is valid against today's schema, variables included (a stale mix would bench errors)", () => {
    const { file } = loadMix();
    const schema = getSchema();
    for (const [name, text] of Object.entries(file.documents)) expect(validate(schema, parse(text)), name).toEqual([]);
    for (const entry of file.entries) {
      if (entry.method !== 'POST') continue;
      const document = parse(file.documents[entry.operation]);
      const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], entry.variables ?? {});
      expect(coerced.errors ?? [], `${entry.operation} ${JSON.stringify(entry.variables)}`).toEqual([]);
    }
  });
});

const results = (cases: CaseResult[]) => ({
  date: '2026-01-01T00:00:00.000Z',
  commit: 'abc1234',
  machine: { node: 'v20', cpuModel: 'x', cores: 2 },
  databases: ['pglite'],
  cases,
});
const row = (c: string, baseline: string | null): CaseResult => ({
  database: 'pglite',
  case: c,
  label: c,
  rps: 100,
  p50Ms: 5,
  p99Ms: 20,
  errors: 0,
  statementsPerRequest: 3,
  baseline,
  baselineRps: baseline ? 300 : null,
  ratio: baseline ? 0.333 : null,
});

describe('results.json and chart', () => {
  it('accepts well-typed results and names what is wrong otherwise', () => {
    expect(resultsProblems(results([row('B1', null), row('R1', 'B1')]))).toEqual([]);
    expect(resultsProblems({ ...results([{ ...row('R1', 'B1'), rps: 'fast' as never, errors: -1 }]), commit: '' })).toEqual([
      'commit missing',
      'cases[0].rps is not a number or null',
      'cases[0].errors is not a count',
    ]);
  });

  it('draws valid SVG with one req/s bar and one p99 bar per API case and a baseline bar where it has one', () => {
    const rows = chartRows([row('B1', null), row('R1', 'B1'), row('R3', 'B1d'), row('MIX-cold', null)]);
    const svg = chartSvg(rows, 'smoke <run>');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('smoke &lt;run&gt;');
    expect(svg.match(/class="bar rps"/g)).toHaveLength(3);
    expect(svg.match(/class="bar p99"/g)).toHaveLength(3);
    expect(svg.match(/class="bar baseline"/g)).toHaveLength(2);
    // Well-formed enough for an XML parser: every tag closed, no raw '<' in text.
    expect(svg.match(/<rect /g)!.length).toBe(svg.match(/<rect [^>]*\/>/g)!.length + 0);
  });

  it('quantiles use the nearest rank', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([quantile(sorted, 0.5), quantile(sorted, 0.99), quantile(sorted, 1), quantile([], 0.5)]).toEqual([50, 99, 100, 0]);
  });

  it("OPEN's failures say what they were: a reset connection by its code, a non-2xx answer by its status", async () => {
    // Every 5th request's connection is reset before an answer, every 7th (not 5th) is answered 503, the rest 200.
    let seen = 0;
    const server = createServer((req, res) => {
      seen++;
      if (seen % 5 === 0) return req.socket.destroy();
      res.writeHead(seen % 7 === 0 ? 503 : 200, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const result = await openLoop({ port, key: 'k' }, { method: 'GET', path: '/' }, { rate: 200, seconds: 0.5 });
      // A reset connection is named by its code, and as a reused one when the request went out on a kept-alive one.
      expect(Object.keys(result.socketErrors).every((code) => /^ECONNRESET( on a reused connection)?$/.test(code))).toBe(true);
      const resets = Object.values(result.socketErrors).reduce((sum, n) => sum + n, 0);
      const refused = result.statusCodes['503'] ?? 0;
      expect(result.scheduled).toBe(100);
      expect(resets).toBe(20);
      expect(refused).toBeGreaterThan(0);
      expect(result.failures).toBe(resets + refused);
      expect(result.completed).toBe(100 - result.failures);
      const detail = Object.entries(result.socketErrors).map(([code, n]) => `${code} ${n}`);
      expect(failureDetail(result)).toBe(` (${[...detail, `HTTP 503 ${refused}`].join(', ')})`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(failureDetail({ socketErrors: {}, statusCodes: { '200': 5 } })).toBe('');
  });

  it("OPEN's connections close when idle before the server closes them (its Keep-Alive hint, less 1 s)", async () => {
    const server = createServer((_req, res) => res.end('ok'));
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = generatorAgent(10_000);
    try {
      const { port } = server.address() as { port: number };
      await new Promise<void>((resolve, reject) =>
        httpRequest({ host: '127.0.0.1', port, path: '/', agent }, (res) => res.resume().on('end', resolve))
          .on('error', reject)
          .end(),
      );
      await new Promise((resolve) => setImmediate(resolve));
      const idle = Object.values(agent.freeSockets).flat();
      expect(idle).toHaveLength(1);
      // The server advertises timeout=5 and closes after 6 s; the generator lets go of the connection after 4 s.
      expect(idle[0]!.timeout).toBe(4_000);
    } finally {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("OPEN's worst window: the p99 of each whole window by send time, the highest of them; a short last window left out", () => {
    // 12 s at 100/s in 5 s windows: 2 ms everywhere, but a 60 ms stall hits 10 requests sent in 6.0–6.1 s, and the
    // last (partial) window's 2 requests answer in 500 ms.
    const answered = Array.from({ length: 1200 }, (_, i) => ({ sentAtMs: i * 10, latencyMs: i >= 600 && i < 610 ? 60 : 2 }));
    answered.push({ sentAtMs: 11_000, latencyMs: 500 }, { sentAtMs: 11_500, latencyMs: 500 });
    // Window 2 (5–10 s) holds 500 requests, so its p99 is its 5th-highest: the stall, where the whole run's is not.
    expect(worstWindowP99(answered, 12, 5)).toBe(60);
    expect(
      quantile(
        answered.map((a) => a.latencyMs).sort((a, b) => a - b),
        0.99,
      ),
    ).toBe(2);
    // Fewer than 1 % of a window slow: that window's p99 stays the usual.
    expect(
      worstWindowP99(
        answered.filter((a) => a.latencyMs !== 60 || a.sentAtMs < 6_030),
        12,
        5,
      ),
    ).toBe(2);
    expect(worstWindowP99([], 12, 5)).toBe(0);
  });
});

describe('per-route baselines', () => {
  it('projection picks fields in selection order under snake_case names, lists element-wise, null as null', () => {
    const pick = projection('b aB { cD } list { x } missing none { y }');
    expect(JSON.stringify(pick({ list: [{ x: 1, z: 2 }], aB: { cD: 3, e: 4 }, b: 'b', none: null, extra: 5 }))).toBe(
      '{"b":"b","a_b":{"c_d":3},"list":[{"x":1}],"missing":null,"none":null}',
    );
  });

  it('every API case with a baseline has exactly one baseline standing for it, and every baseline names its case', () => {
    const d: Discovery = { slug: 'a/b/c', page5Path: '/p', page5FirstSlug: 'x', vendorSlug: 'v/w', photoId: 'id', postSlug: 'post' };
    const cases = benchCases(d);
    const ids = new Set(cases.map((c) => c.id));
    const baselines = cases.filter((c) => c.server === 'b1');
    expect(baselines.every((b) => b.bodyOf && ids.has(b.bodyOf) && b.sameDataAs === b.id && typeof b.statements === 'number')).toBe(true);
    expect(new Set(baselines.map((b) => b.bodyOf)).size).toBe(baselines.length);
    for (const route of ['R8', 'R9', 'R10', 'R11', 'R12', 'R13', 'R14', 'R15', 'R16', 'R17', 'R18']) {
      const c = cases.find((x) => x.id === route)!;
      expect(baselines.find((b) => b.id === c.sameDataAs)?.bodyOf, route).toBe(route);
    }
  });

  it('every baseline is sent the query string of the API case it stands for (it parses its inputs, as the route does)', () => {
    const d: Discovery = { slug: 'a/b/c', page5Path: '/p', page5FirstSlug: 'x', vendorSlug: 'v/w', photoId: 'id', postSlug: 'post' };
    const cases = benchCases(d);
    const queryOf = (path: string) => (path.includes('?') ? path.slice(path.indexOf('?') + 1) : '');
    const withQuery = cases.filter((c) => c.server === 'b1' && queryOf(c.request.path)).map((c) => c.id);
    expect(withQuery.sort()).toEqual(['B1', 'B1k', 'B1pe', 'B1rr', 'B1v']);
    for (const baseline of cases.filter((c) => c.server === 'b1')) {
      const api = cases.find((c) => c.id === baseline.bodyOf)!;
      expect(queryOf(baseline.request.path), baseline.id).toBe(queryOf(api.request.path));
    }
  });
});

describe('node options of npm start (the bench servers and the tests\u2019 server processes use them)', () => {
  it('are read from package.json: source maps, a 32 MB semi-space, the old generation growing by at most 100 %', () => {
    expect(startNodeOptions(repoRoot)).toEqual(['--enable-source-maps', '--max-semi-space-size=32', '--heap-growing-percent=100']);
  });

  it("its environment defaults (two malloc arenas) apply where the caller's environment leaves them unset", () => {
    expect(withStartEnvironment(repoRoot, { PORT: '1' })).toEqual({ MALLOC_ARENA_MAX: '2', PORT: '1' });
    expect(withStartEnvironment(repoRoot, { MALLOC_ARENA_MAX: '8' })).toEqual({ MALLOC_ARENA_MAX: '8' });
  });

  it('a start script that does not run node … dist/src/main.js is refused rather than guessed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wv-start-'));
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { start: 'tsx src/main.ts' } }));
      expect(() => startNodeOptions(dir)).toThrow(/does not run node/);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { start: 'exec node dist/src/main.js' } }));
      expect(startNodeOptions(dir)).toEqual([]);
      expect(withStartEnvironment(dir, {})).toEqual({});
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { start: 'exec env A=${B:-1} node dist/src/main.js' } }));
      expect(() => withStartEnvironment(dir, {})).toThrow(/sets A from B/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a server started with another checkout's start (bench:ab --start-of) runs with that one's options and defaults", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wv-start-of-'));
    const start = 'exec env MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-7} node --max-semi-space-size=8 dist/src/main.js';
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { start } }));
    writeFileSync(join(dir, 'echo.js'), 'console.log(JSON.stringify([process.execArgv, process.env.MALLOC_ARENA_MAX]));');
    // Without MALLOC_ARENA_MAX, so the start script's default for it shows.
    const { MALLOC_ARENA_MAX: _cap, ...env } = process.env;
    const started = async (startOf?: string) => {
      const child = startNode('echo', 'echo.js', { env, cwd: dir, startOf });
      try {
        return JSON.parse((await child.waitFor(/^\[.*\]$/m, 10_000))[0]) as unknown;
      } finally {
        await child.stop();
      }
    };
    try {
      expect(await started()).toEqual([['--max-semi-space-size=8'], '7']);
      expect(await started(repoRoot)).toEqual([startNodeOptions(repoRoot), '2']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('load order', () => {
  const d: Discovery = { slug: 'a/b/c', page5Path: '/p', page5FirstSlug: 'x', vendorSlug: 'v/w', photoId: 'id', postSlug: 'post' };
  const cases = benchCases(d);
  const ids = loadOrder(cases).map((i) => cases[i].id);

  it('loads every case once', () => {
    expect([...ids].sort()).toEqual(cases.map((c) => c.id).sort());
  });

  it('loads each API case after its own baseline with no other baseline between them', () => {
    for (const [position, id] of ids.entries()) {
      const c = cases.find((x) => x.id === id)!;
      if (c.server !== 'api' || !c.sameDataAs || !cases.some((x) => x.id === c.sameDataAs && x.server === 'b1')) continue;
      const baselineAt = ids.indexOf(c.sameDataAs);
      expect(baselineAt, `${id} after ${c.sameDataAs}`).toBeLessThan(position);
      const between = ids.slice(baselineAt + 1, position).map((x) => cases.find((y) => y.id === x)!);
      expect(
        between.every((x) => x.server === 'api' && x.sameDataAs === c.sameDataAs),
        `${id}: ${between.map((x) => x.id)}`,
      ).toBe(true);
    }
    // R1 directly after B1, R3 after B1d: the goal's pairs are seconds apart.
    expect(ids[ids.indexOf('B1') + 1]).toBe('R1');
    expect(ids[ids.indexOf('B1d') + 1]).toBe('R3');
  });
});

describe('interleaved slices', () => {
  const d: Discovery = { slug: 'a/b/c', page5Path: '/p', page5FirstSlug: 'x', vendorSlug: 'v/w', photoId: 'id', postSlug: 'post' };
  const cases = benchCases(d);
  const groups = loadGroups(cases).map((g) => g.map((i) => cases[i].id));

  it('groups each baseline with exactly the API cases compared with it, in loadOrder', () => {
    expect(groups.flat()).toEqual(loadOrder(cases).map((i) => cases[i].id));
    for (const group of groups) {
      const [first, ...rest] = group.map((id) => cases.find((c) => c.id === id)!);
      if (first.server !== 'b1') {
        expect(rest, `${first.id} is measured alone`).toEqual([]);
        continue;
      }
      expect(
        rest.every((c) => c.server === 'api' && c.sameDataAs === first.id),
        group.join(),
      ).toBe(true);
      const compared = cases.filter((c) => c.server === 'api' && c.sameDataAs === first.id).map((c) => c.id);
      expect(rest.map((c) => c.id)).toEqual(compared);
    }
    expect(groups.find((g) => g[0] === 'B1pe')).toEqual(['B1pe', 'R10']);
  });

  const slice = (over: Partial<Measurement>): Measurement => ({
    rps: 0,
    ok: 0,
    failures: 0,
    errors: 0,
    timeouts: 0,
    statusCodes: {},
    p50Ms: 1,
    p99Ms: 2,
    cpuMicrosPerRequest: 100,
    foreignCores: 0,
    seconds: 1,
    ...over,
  });

  it('sums requests and seconds, weighs CPU by responses, keeps the median p50 and the worst p99', () => {
    const m = combineMeasurements([
      slice({ ok: 1000, seconds: 1, cpuMicrosPerRequest: 100, p50Ms: 5, p99Ms: 9, statusCodes: { '200': 1000 }, foreignCores: 0.1 }),
      slice({ ok: 3000, seconds: 1, cpuMicrosPerRequest: 60, p50Ms: 3, p99Ms: 30, statusCodes: { '200': 3000 }, foreignCores: 0.3 }),
      slice({
        ok: 2000,
        failures: 12,
        errors: 1,
        timeouts: 1,
        seconds: 2,
        cpuMicrosPerRequest: 80,
        p50Ms: 4,
        p99Ms: 7,
        statusCodes: { '200': 2000, '503': 10 },
      }),
    ]);
    // 6,000 answered in 4 s; a slow slice does not count as much as a fast one's share of the time.
    expect(m.rps).toBe(1500);
    expect(m.ok).toBe(6000);
    expect([m.failures, m.errors, m.timeouts]).toEqual([12, 1, 1]);
    expect(m.statusCodes).toEqual({ '200': 6000, '503': 10 });
    expect(m.seconds).toBe(4);
    // (1000 × 100 + 3000 × 60 + 2010 × 80) ÷ 6010 responses (a timeout or socket error is no response).
    expect(m.cpuMicrosPerRequest).toBeCloseTo((100_000 + 180_000 + 160_800) / 6010, 6);
    expect(m.p50Ms).toBe(4);
    expect(m.p99Ms).toBe(30);
    expect(m.foreignCores).toBeCloseTo((0.1 + 0.3 + 0) / 4, 6);
  });

  it('leaves one slice as it was, and says unknown when a slice could not read /proc', () => {
    const one = slice({ ok: 10, rps: 10 });
    expect(combineMeasurements([one])).toBe(one);
    expect(combineMeasurements([slice({ ok: 1 }), slice({ ok: 1, cpuMicrosPerRequest: null, foreignCores: null })])).toMatchObject({
      cpuMicrosPerRequest: null,
      foreignCores: null,
    });
  });
});
