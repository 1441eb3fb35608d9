// The realistic profile's pure pieces: its cases and baselines, the servers' environment, the case filter, the CPU
// gate, the per-run results file, and what a realistic baseline does for a request (bench/realistic*.ts).
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { benchCases, loadGroups, type Answer, type Discovery } from '../../bench/cases.js';
import { clientAddress, realisticApiEnv, realisticCases, REALISTIC_HEADERS, REALISTIC_IDS, REALISTIC_ORIGIN } from '../../bench/realistic.js';
import { caseFilter, selectCases } from '../../bench/rounds.js';
import { combineMeasurements, createRotation, type Measurement } from '../../bench/load.js';
import { evaluate, summarise, type CaseRun, type DatabaseRun, type Goals } from '../../bench/report.js';
import { runFileName } from '../../bench/results-file.js';
import { realisticDuties } from '../../bench/realistic-baseline.js';

const d: Discovery = { slug: 'a/b/c', page5Path: '/p', page5FirstSlug: 'x', vendorSlug: 'v/w', photoId: 'id', postSlug: 'post' };

describe('realistic cases', () => {
  const cases = realisticCases(d);
  const floor = new Map(benchCases(d).map((c) => [c.id, c]));
  const byId = new Map(cases.map((c) => [c.id, c]));

  it('are the stack floor R1, M1, R4 and their baselines, with a browser’s headers on every request', () => {
    expect(cases.map((c) => c.id)).toEqual(['B0r', 'B1r', 'B1gr', 'R1r', 'M1r', 'R4r']);
    expect(REALISTIC_IDS).toEqual(expect.arrayContaining(cases.map((c) => c.id)));
    for (const c of cases) {
      const from = floor.get(c.id.replace(/r$/, ''))!;
      expect(c.request.path, c.id).toBe(from.request.path);
      expect(c.request.body, c.id).toBe(from.request.body);
      expect(c.request.headers, c.id).toMatchObject(REALISTIC_HEADERS);
      expect(c.server, c.id).toBe(from.server);
    }
    expect(REALISTIC_HEADERS['accept-encoding']).toBe('gzip, br');
  });

  it('compares R1r and M1r with B1r, R4r with B1gr, each baseline standing for its API case', () => {
    expect([byId.get('R1r')!.sameDataAs, byId.get('M1r')!.sameDataAs, byId.get('R4r')!.sameDataAs]).toEqual(['B1r', 'B1r', 'B1gr']);
    expect([byId.get('B1r')!.bodyOf, byId.get('B1gr')!.bodyOf]).toEqual(['R1r', 'R4r']);
    // The key lookup by hash, then the body's statement.
    expect([byId.get('B1r')!.statements, byId.get('B1gr')!.statements]).toEqual([2, 2]);
    expect(loadGroups(cases).map((g) => g.map((i) => cases[i].id))).toEqual([['B0r'], ['B1r', 'R1r', 'M1r'], ['B1gr', 'R4r']]);
  });

  it('accept an answer only when it is the floor’s good answer, compressed with br, with the origin allowed', () => {
    const good = {
      data: Array.from({ length: 20 }, (_, i) => ({ slug: `s${i}`, pricing: { currency: 'USD' } })),
      pagination: { total_count: 20, has_more: false },
    };
    const answer = (headers: Record<string, string>): Answer => ({
      status: 200,
      headers: new Headers(headers),
      text: JSON.stringify(good),
      json: good,
    });
    const check = byId.get('R1r')!.check;
    expect(check(answer({ 'content-encoding': 'br', 'access-control-allow-origin': REALISTIC_ORIGIN }))).toBeNull();
    expect(check(answer({ 'access-control-allow-origin': REALISTIC_ORIGIN }))).toMatch(/content-encoding none/);
    expect(check(answer({ 'content-encoding': 'gzip', 'access-control-allow-origin': REALISTIC_ORIGIN }))).toMatch(/gzip, not br/);
    expect(check(answer({ 'content-encoding': 'br' }))).toMatch(/Access-Control-Allow-Origin/);
    expect(check({ ...answer({ 'content-encoding': 'br', 'access-control-allow-origin': REALISTIC_ORIGIN }), status: 429 })).toBe('status 429');
  });
});

describe('the realistic API environment', () => {
  const floorEnv = { BENCH: '1', LOG_LEVEL: 'silent', RESPONSE_CACHE_TTL_SECONDS: '0', API_KEY_LEASE_MS: '0', DATA_DIR: '/d', PORT: '1' };

  it('logs at info, allows the origin, keeps the default key lease and BENCH=1’s numbers; the cache off or at its default', () => {
    const cold = realisticApiEnv(floorEnv, { responseCache: false });
    expect(cold).toMatchObject({
      LOG_LEVEL: 'info',
      CORS_ORIGINS: REALISTIC_ORIGIN,
      MCP_ALLOWED_ORIGINS: REALISTIC_ORIGIN,
      TRUST_PROXY: '1',
      BENCH: '1',
    });
    expect(cold.RESPONSE_CACHE_TTL_SECONDS).toBe('0');
    expect('API_KEY_LEASE_MS' in cold).toBe(false);
    const warm = realisticApiEnv(floorEnv, { responseCache: true });
    expect('RESPONSE_CACHE_TTL_SECONDS' in warm).toBe(false);
    expect(floorEnv.LOG_LEVEL).toBe('silent');
  });

  it('gives every key of the pool a client address of its own', () => {
    const addresses = Array.from({ length: 20_000 }, (_, i) => clientAddress(i));
    expect(new Set(addresses).size).toBe(20_000);
    expect(addresses.every((a) => /^10\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a))).toBe(true);
  });

  it('rotates keys and addresses in turn, one turn per request, across loads', () => {
    const rotation = createRotation(['k0', 'k1', 'k2'], (i) => ({ 'x-forwarded-for': clientAddress(i) }));
    const take = () => rotation.headersAt(rotation.next++ % rotation.size);
    expect([take(), take(), take(), take()].map((h) => h.authorization)).toEqual(['Bearer k0', 'Bearer k1', 'Bearer k2', 'Bearer k0']);
    expect(rotation.headersAt(1)['x-forwarded-for']).toBe(clientAddress(1));
  });
});

describe('--cases', () => {
  const cases = [...benchCases(d), ...realisticCases(d)];
  const ids = (pattern: string | undefined) => selectCases(cases, caseFilter(pattern)).map((c) => c.id);

  it('keeps the cases named, the baselines they are compared with, and B0 / B0r; every case without a pattern', () => {
    expect(ids('R1r')).toEqual(['B0', 'B0r', 'B1r', 'R1r']);
    expect(ids('R1|R4r')).toEqual(['B0', 'B1', 'R1', 'B0r', 'B1gr', 'R4r']);
    expect(ids(undefined)).toHaveLength(cases.length);
    expect(ids('MIXr-cold')).toEqual([]);
    expect(caseFilter('MIXr-.*')('MIXr-warm')).toBe(true);
    // Whole ids only: R1 does not select R10–R18 or R1g.
    expect(caseFilter('R1')('R10')).toBe(false);
  });
});

const m = (rps: number, cpu: number, database: number | null = null): Measurement => ({
  rps,
  ok: rps,
  failures: 0,
  errors: 0,
  timeouts: 0,
  statusCodes: { '200': rps },
  p50Ms: 1,
  p99Ms: 2,
  cpuMicrosPerRequest: cpu,
  databaseCpuMicrosPerRequest: database,
  foreignCores: 0,
  seconds: 1,
});
const caseRun = (id: string, rounds: Measurement[], sameDataAs: CaseRun['sameDataAs'] = null): CaseRun => ({
  id,
  label: id,
  server: id.startsWith('B') ? 'b1' : 'api',
  sameDataAs,
  profile: 'realistic',
  rounds,
  problems: [],
});
const run = (database: DatabaseRun['database'], cases: CaseRun[]): DatabaseRun => ({
  database,
  firstStartSeconds: 1,
  demoKeyPrinted: true,
  rateLimits: { reported: 'x', keys: 1 },
  foreignIdle: null,
  sameBodies: {},
  statementCounts: {},
  cases,
  mix: null,
  open: [],
});

describe('realistic gates', () => {
  const goals: Goals = {
    throughput: [
      { goal: 'Real-R1', case: 'R1r', baseline: 'B1r', min: 0.6 },
      { goal: 'Real-warm', case: 'MIXr-warm', baseline: 'MIXr-cold', min: 5 },
    ],
    cpu: [{ goal: 'Real-R1', case: 'R1r', baseline: 'B1r', max: 1.6 }],
    statements: [],
    failuresMax: 0,
    relationJoins: false,
  };
  const cases = [
    caseRun('B1r', [m(100, 1000, 400), m(100, 1000, 400), m(100, 1000, 400)], 'B1r'),
    caseRun('R1r', [m(50, 2000, 500), m(70, 1500, 500), m(65, 1700, 500)], 'B1r'),
    caseRun('MIXr-cold', [m(100, 5000), m(100, 5000), m(100, 5000)]),
    caseRun('MIXr-warm', [m(400, 300), m(600, 300), m(700, 300)]),
  ];

  it('gate req/s and CPU per request round by round, medians over the rounds', () => {
    const gates = evaluate(goals, [run('pglite', cases)], '');
    const byWhat = Object.fromEntries(gates.map((g) => [g.what, g]));
    expect(byWhat['R1r req/s ÷ B1r']).toMatchObject({ value: '0.650', pass: true });
    expect(byWhat['MIXr-warm req/s ÷ MIXr-cold']).toMatchObject({ value: '6.000', pass: true });
    // PGlite: the server's CPU holds its database process: 2.0, 1.5, 1.7 → 1.7, over 1.6.
    expect(byWhat['R1r CPU µs/req ÷ B1r (server + database)']).toMatchObject({ value: '1.700', pass: false });
  });

  it('add PostgreSQL’s own CPU to both sides there', () => {
    const gates = evaluate(goals, [run('postgres', cases)], '');
    // (2000 + 500) ÷ (1000 + 400), (1500 + 500) ÷ 1400, (1700 + 500) ÷ 1400 → median 1.571.
    expect(gates.find((g) => g.what.startsWith('R1r CPU'))).toMatchObject({ value: '1.571', pass: true });
  });

  it('summarise the CPU per request with its range, the database part and the ratio to the baseline', () => {
    const r1r = summarise(run('pglite', cases)).find((s) => s.id === 'R1r')!;
    expect(r1r).toMatchObject({ profile: 'realistic', totalCpu: { median: 1700, min: 1500, max: 2000 }, databaseCpuMicrosPerRequest: 500 });
    expect(r1r.cpuVsBaseline).toBeCloseTo(1.7, 6);
  });

  it('leave out the gates of cases --cases left out', () => {
    const gates = evaluate(goals, [run('pglite', cases)], '', (id) => id !== 'MIXr-warm');
    expect(gates.some((g) => g.what.startsWith('MIXr-warm'))).toBe(false);
    expect(gates.some((g) => g.what.startsWith('R1r'))).toBe(true);
  });
});

describe('measurements', () => {
  it('combine the database’s CPU and the log lines per response like the server’s CPU, and leave them out when never sampled', () => {
    const slice = (ok: number, database: number, lines: number): Measurement => ({ ...m(ok, 100, database), logLinesPerRequest: lines });
    const combined = combineMeasurements([slice(100, 50, 1), slice(300, 10, 1)]);
    expect(combined.databaseCpuMicrosPerRequest).toBeCloseTo((100 * 50 + 300 * 10) / 400, 6);
    expect(combined.logLinesPerRequest).toBe(1);
    const plain = { ...m(1, 1) };
    delete plain.databaseCpuMicrosPerRequest;
    expect('databaseCpuMicrosPerRequest' in combineMeasurements([plain, plain])).toBe(false);
  });

  it('name each run’s raw results file by its start and commit, sortable and without colons', () => {
    expect(runFileName({ date: '2026-12-02T10:15:00.123Z', commit: '944631b+uncommitted' })).toBe('2026-12-02T10-15-00Z-944631b-uncommitted.json');
    expect(runFileName({ date: '2026-12-02T10:15:00.000Z', commit: 'abc1234' })).toBe('2026-12-02T10-15-00Z-abc1234.json');
  });
});

describe('a realistic baseline’s duties', () => {
  const key = 'wv_live_abcdefghijklmnopqrstuvwxyz012345';
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().trim().split('\n'));
      done();
    },
  });
  const queries: unknown[][] = [];
  const duties = realisticDuties({
    query: async (_sql, params) => {
      queries.push(params);
      return params[0] === createHash('sha256').update(key).digest('hex') ? [{ id: 'k', tier: 'partner' }] : [];
    },
    corsOrigins: [REALISTIC_ORIGIN],
    destination,
  });
  const body = JSON.stringify({ data: 'x'.repeat(4000) });

  async function ask(headers: IncomingHttpHeaders, answer = body): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const server = createServer((req, res) => void duties.admit(req, res).then((ok) => ok && duties.send(req, res, 200, answer)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      return await new Promise((resolve, reject) =>
        httpRequest({ host: '127.0.0.1', port, path: '/search?limit=20', headers }, (res) => {
          const chunks: Buffer[] = [];
          res
            .on('data', (c: Buffer) => chunks.push(c))
            .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end(),
      );
    } finally {
      server.close();
    }
  }

  it('look the key up by its SHA-256, compress as asked, allow the origin, and log one line', async () => {
    const before = lines.length;
    const res = await ask({ authorization: `Bearer ${key}`, ...REALISTIC_HEADERS });
    expect(res.status).toBe(200);
    expect(queries.at(-1)).toEqual([createHash('sha256').update(key).digest('hex')]);
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.body).toString()).toBe(body);
    expect(res.headers['access-control-allow-origin']).toBe(REALISTIC_ORIGIN);
    expect(res.headers.vary).toBe('Accept-Encoding, Origin');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.length).toBe(before + 1);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ level: 'info', method: 'GET', path: '/search', status: 200, msg: 'request' });
  });

  it('refuse an unknown key with 401, send a small body as it is, and name no other origin', async () => {
    expect((await ask({ authorization: 'Bearer wv_live_nope', ...REALISTIC_HEADERS })).status).toBe(401);
    const small = await ask({ authorization: `Bearer ${key}`, 'accept-encoding': 'gzip, br', origin: 'https://elsewhere.example' }, '{"data":[]}');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.toString()).toBe('{"data":[]}');
    expect(small.headers['access-control-allow-origin']).toBeUndefined();
  });
});
