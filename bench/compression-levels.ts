/**
 * What compressing a real answer costs at each level withCompression could use (src/http/conventions.ts): gzip 1, 4, 6,
 * brotli quality 1, 3, 4, 5 and zstd 1, 2, 3, on R1's body (REST venue search) and R4's (GraphQL, 20 venues with lists).
 *
 *   npx tsx bench/compression-levels.ts --url http://127.0.0.1:4000 --key <key>   fetch both bodies from a running server
 *   npx tsx bench/compression-levels.ts --files r1.json r4.json                    or read them from files
 *
 * `npm run bench` runs the same measurement on the bodies it fetched and prints it beside its tables.
 * Each setting compresses the body synchronously on this thread (no thread-pool hop), `--iterations` times after a
 * warm-up; µs is the median of the iterations' wall times, bytes the compressed size. zstd is the API's own
 * WebAssembly build (src/http/zstd.ts), which always runs on the event loop. A second table gives the
 * process's CPU per compression at the levels the API uses (src/http/conventions.ts DYNAMIC_COMPRESSION), in line
 * and on the thread pool (one at a time, awaited: what the pool's hop costs even without contention).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { DYNAMIC_COMPRESSION } from '../src/http/conventions.js';
import { zstdCompressor } from '../src/http/zstd.js';
import { graphqlPost } from './cases.js';

export interface CompressionSetting {
  encoding: 'gzip' | 'br' | 'zstd';
  level: number;
}

/** The settings compared: the levels the issue names. */
export const COMPRESSION_SETTINGS: CompressionSetting[] = [
  { encoding: 'gzip', level: 1 },
  { encoding: 'gzip', level: 4 },
  { encoding: 'gzip', level: 6 },
  { encoding: 'br', level: 1 },
  { encoding: 'br', level: 3 },
  { encoding: 'br', level: 4 },
  { encoding: 'br', level: 5 },
  { encoding: 'zstd', level: 1 },
  { encoding: 'zstd', level: 2 },
  { encoding: 'zstd', level: 3 },
];

export interface CompressionRow extends CompressionSetting {
  body: string;
  rawBytes: number;
  bytes: number;
  medianMicros: number;
  p90Micros: number;
}

const brotliParams = (level: number, bytes: Buffer) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: level, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
});

type Compressor = (bytes: Buffer) => Uint8Array;

async function compressors(): Promise<(setting: CompressionSetting) => Compressor> {
  const zstd = await zstdCompressor();
  return ({ encoding, level }) =>
    encoding === 'gzip'
      ? (bytes) => gzipSync(bytes, { level })
      : encoding === 'br'
        ? (bytes) => brotliCompressSync(bytes, brotliParams(level, bytes))
        : (bytes) => zstd(bytes, level);
}

/** Every setting on every body: median and p90 µs per compression, and the compressed size. */
export async function measureCompression(bodies: Record<string, string>, iterations = 200): Promise<CompressionRow[]> {
  const compressor = await compressors();
  const rows: CompressionRow[] = [];
  for (const [body, text] of Object.entries(bodies)) {
    const bytes = Buffer.from(text);
    for (const setting of COMPRESSION_SETTINGS) {
      const pack = compressor(setting);
      for (let i = 0; i < Math.min(20, iterations); i++) pack(bytes);
      const times: number[] = [];
      let size = 0;
      for (let i = 0; i < iterations; i++) {
        const started = performance.now();
        size = pack(bytes).byteLength;
        times.push((performance.now() - started) * 1000);
      }
      times.sort((a, b) => a - b);
      rows.push({
        ...setting,
        body,
        rawBytes: bytes.byteLength,
        bytes: size,
        medianMicros: Math.round(times[times.length >> 1]),
        p90Micros: Math.round(times[Math.floor(times.length * 0.9)]),
      });
    }
  }
  return rows;
}

export interface DispatchRow extends CompressionSetting {
  body: string;
  /** Process CPU (every thread) per compression, µs. */
  inLineCpuMicros: number;
  threadPoolCpuMicros: number;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** CPU per compression at the API's levels, in line and on the thread pool (zlib's encodings; zstd runs in line only). */
export async function measureDispatch(bodies: Record<string, string>, iterations = 200): Promise<DispatchRow[]> {
  const rows: DispatchRow[] = [];
  const cpuPerCall = async (calls: number, call: () => unknown) => {
    const before = process.cpuUsage();
    for (let i = 0; i < calls; i++) await call();
    const used = process.cpuUsage(before);
    return Math.round((used.user + used.system) / calls);
  };
  for (const [body, text] of Object.entries(bodies)) {
    const bytes = Buffer.from(text);
    for (const setting of [
      { encoding: 'br', level: DYNAMIC_COMPRESSION.br },
      { encoding: 'gzip', level: DYNAMIC_COMPRESSION.gzip },
    ] as const) {
      const inLine = () =>
        setting.encoding === 'br' ? brotliCompressSync(bytes, brotliParams(setting.level, bytes)) : gzipSync(bytes, { level: setting.level });
      const pooled = () =>
        setting.encoding === 'br' ? brotliAsync(bytes, brotliParams(setting.level, bytes)) : gzipAsync(bytes, { level: setting.level });
      await cpuPerCall(Math.min(20, iterations), pooled);
      rows.push({
        ...setting,
        body,
        inLineCpuMicros: await cpuPerCall(iterations, inLine),
        threadPoolCpuMicros: await cpuPerCall(iterations, pooled),
      });
    }
  }
  return rows;
}

export function dispatchTable(rows: DispatchRow[]): string {
  return [
    '| body | encoding | level | CPU µs in line | CPU µs on the thread pool |',
    '|---|---|--:|--:|--:|',
    ...rows.map((r) => `| ${r.body} | ${r.encoding} | ${r.level} | ${r.inLineCpuMicros} | ${r.threadPoolCpuMicros} |`),
  ].join('\n');
}

export function compressionTable(rows: CompressionRow[]): string {
  return [
    '| body | raw bytes | encoding | level | bytes | ratio | median µs | p90 µs |',
    '|---|--:|---|--:|--:|--:|--:|--:|',
    ...rows.map(
      (r) =>
        `| ${r.body} | ${r.rawBytes.toLocaleString('en-US')} | ${r.encoding} | ${r.level} | ${r.bytes.toLocaleString('en-US')} | ${(r.rawBytes / r.bytes).toFixed(1)} | ${r.medianMicros} | ${r.p90Micros} |`,
    ),
  ].join('\n');
}

async function fetchBodies(url: string, key: string): Promise<Record<string, string>> {
  const headers = { authorization: `Bearer ${key}` };
  const r1 = await fetch(`${url}/api/v1/venues?limit=20`, { headers });
  const r4Request = graphqlPost();
  const r4 = await fetch(`${url}${r4Request.path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: r4Request.body,
  });
  if (r1.status !== 200 || r4.status !== 200) throw new Error(`R1 answered ${r1.status}, R4 ${r4.status}`);
  return { R1: await r1.text(), R4: await r4.text() };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      files: { type: 'boolean', default: false },
      iterations: { type: 'string', default: '200' },
    },
  });
  const bodies =
    values.files && positionals.length === 2
      ? { R1: readFileSync(positionals[0], 'utf8'), R4: readFileSync(positionals[1], 'utf8') }
      : values.url && values.key
        ? await fetchBodies(values.url.replace(/\/+$/, ''), values.key)
        : null;
  if (!bodies) {
    process.stderr.write('usage: --url <server> --key <key>, or --files <r1.json> <r4.json>\n');
    process.exit(2);
  }
  const iterations = Number(values.iterations);
  process.stdout.write(
    `${compressionTable(await measureCompression(bodies, iterations))}\n\n${dispatchTable(await measureDispatch(bodies, iterations))}\n`,
  );
}
