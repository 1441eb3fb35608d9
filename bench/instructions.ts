/**
 * Instructions per request, counted by valgrind's callgrind (`npm run bench:ab -- --instructions …`). On these
 * machines one server's CPU per request moves by a third between two runs a minute apart, so a change worth 5–10 %
 * cannot be seen in req/s or CPU time; an instruction count does not depend on what else the host runs. The server
 * runs under callgrind with counting off; after a warm-up (so V8 has tiered the hot code up) counting is switched on
 * for exactly `requests` requests and the total is read back from the dump.
 *
 * What it leaves out: the kernel's work (socket writes, syscalls), cache and branch behaviour, and anything valgrind
 * emulates differently: it hides SHA extensions from the CPU, so OpenSSL's SHA-256 counts ~10× what it costs natively.
 * Garbage collections land in some windows and not others: compare the lowest of several windows.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

const run = promisify(execFile);

/** Is valgrind (with its vgdb) installed here? */
export const hasCallgrind = (): boolean => spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0;

/** The command put before `node …`: callgrind, counting off, dumps into `dir`, vgdb's pipes named apart from other runs. */
export function callgrindWrapper(dir: string): string[] {
  return [
    'valgrind',
    '--tool=callgrind',
    '--instr-atstart=no',
    // V8 writes and patches machine code in its own heap: valgrind must see those writes.
    '--smc-check=all-non-file',
    `--callgrind-out-file=${join(dir, 'callgrind.%p')}`,
    `--vgdb-prefix=${join(dir, 'vgdb')}`,
  ];
}

/**
 * The instructions of a callgrind dump: its `totals:` line (a dump made on request has `summary: 0` above it), else
 * its `summary:`; null when it has neither.
 */
export function instructionsOf(dump: string): number | null {
  const line = /^totals:\s+(\d+)/m.exec(dump) ?? /^summary:\s+(\d+)/m.exec(dump);
  return line ? Number(line[1]) : null;
}

export interface CountTarget {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
}

async function load(target: CountTarget, requests: number): Promise<number> {
  const { url, method, body, headers } = target;
  const result = await autocannon({ url, method, body, headers, connections: 10, amount: requests, timeout: 60 });
  const failed = result.non2xx + result.errors;
  if (failed) throw new Error(`${target.url}: ${failed} of ${requests} requests failed under callgrind`);
  return result['2xx'];
}

/**
 * Instructions per request of one server under callgrindWrapper(dir), pid `pid`: `warmup` requests uncounted, then
 * `requests` counted.
 */
export async function instructionsPerRequest(dir: string, pid: number, target: CountTarget, warmup: number, requests: number): Promise<number> {
  const monitor = (...command: string[]) => run('vgdb', [`--vgdb-prefix=${join(dir, 'vgdb')}`, `--pid=${pid}`, ...command]);
  await load(target, warmup);
  await monitor('zero');
  await monitor('instrumentation', 'on');
  const served = await load(target, requests);
  await monitor('instrumentation', 'off');
  await monitor('dump');
  const dumps = readdirSync(dir)
    .filter((name) => name.startsWith(`callgrind.${pid}.`))
    .sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()));
  const total = dumps.length ? instructionsOf(readFileSync(join(dir, dumps.at(-1)!), 'utf8')) : null;
  if (total === null) throw new Error(`no callgrind dump of pid ${pid} in ${dir}`);
  return total / served;
}
