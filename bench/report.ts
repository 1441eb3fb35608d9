import type { Measurement } from './load.js';
import type { BaselineId, ServerName } from './cases.js';
import type { StatementCount } from './sql-count.js';
import { failureDetail, type OpenLoopResult } from './open-loop.js';
import type { CompressionRow } from './compression-levels.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface CaseRun {
  id: string;
  label: string;
  server: ServerName;
  sameDataAs: BaselineId | null;
  /** Baselines: SQL statements per request, as written (API cases are counted in-process instead). */
  statements?: number;
  /** 'realistic': a browser-like client's case (bench/realistic.ts); absent: the stack floor's. */
  profile?: 'realistic';
  /** One per round; null when the body check failed and the round was not loaded. */
  rounds: Array<Measurement | null>;
  /** Body check failures, by round. */
  problems: string[];
}

export interface DatabaseRun {
  database: DatabaseKind;
  /** Seconds from spawn to "ready" on the first start (includes seeding). */
  firstStartSeconds: number | null;
  demoKeyPrinted: boolean;
  /** What the server's X-RateLimit-Limit said, and how many partner keys the load rotated to stay under it. */
  rateLimits: { reported: string; keys: number };
  /** CPU used by others while every bench process idled for 1 s, in cores. */
  foreignIdle: { cores: number; perCpu: number[]; stealCores: number } | null;
  /** Does each baseline answer exactly what its API case answers (request_id aside)? B1 ↔ R1, B1g ↔ R4, B1v ↔ R6, … */
  sameBodies: Record<string, true | string>;
  statementCounts: Record<string, StatementCount>;
  cases: CaseRun[];
  /** MIX: the replayed list, SQL statements per request over a sample, and whether the warm run ran. */
  mix: {
    entries: number;
    composition: Record<string, number>;
    /** Requests sent over every round, and how many repeated an earlier one (the list wrapped). */
    sent: number;
    repeats: number;
    sql: { sampled: number; statements: number; perRequest: number; failed: string[] };
    /** MIX-warm: seconds to prime the cache with the whole list, and sampled answers identical to the cold server's; null when not run. */
    warm: WarmCheck | null;
  } | null;
  /** OPEN: fixed-rate latency, REST (R1's request) and GraphQL (R4's). */
  open: Array<OpenLoopResult & { id: string; case: string; rateBasis: string }>;
  /** Whether the database had a CPU of its own (bench/database-cpu.ts), as the report says it. */
  databaseCpu?: { pinned: boolean; note: string };
  /** What each compression level cost on this run's R1 and R4 bodies (bench/compression-levels.ts). */
  compression?: CompressionRow[];
  /** The realistic profile's settings, when any of its cases ran. */
  realistic?: RealisticSummary | null;
}

export interface WarmCheck {
  primeSeconds: number;
  sampled: number;
  identical: number;
  hits: number;
}

/** How the realistic cases were sent (bench/realistic.ts). */
export interface RealisticSummary {
  /** Keys (each with a client address of its own) rotated over every realistic request. */
  keys: number;
  origin: string;
  acceptEncoding: string;
  /** Requests sent with the rotation (loads, checks and priming). */
  requestsSent: number;
  /** MIXr-warm's priming and its sampled answers against the cold server's; null when not run. */
  warm: WarmCheck | null;
}

export interface CaseSummary {
  id: string;
  label: string;
  profile: 'stack floor' | 'realistic';
  rps: { median: number; min: number; max: number } | null;
  p50Ms: number | null;
  p99Ms: number | null;
  cpuMicrosPerRequest: number | null;
  /**
   * The server's and the database's CPU per response (on PGlite the server's figure holds its database process; on
   * PostgreSQL its server's processes are added when /proc shows them), median and range over rounds.
   */
  totalCpu: { median: number; min: number; max: number } | null;
  /** The database's part of totalCpu, median over rounds. */
  databaseCpuMicrosPerRequest: number | null;
  /** totalCpu ÷ the same of the case's baseline (sameDataAs), round by round, median. */
  cpuVsBaseline: number | null;
  /** Log lines read from the server's stdout pipe per response (realistic cases), median over rounds. */
  logLinesPerRequest: number | null;
  vsB0: number | null;
  vsB1: number | null;
  vsB1Name: BaselineId | null;
  statements: number | null;
  failures: number;
  problems: string[];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const medianOrNull = (values: Array<number | null | undefined>) => {
  const present = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return present.length ? median(present) : null;
};

/** Ratios are taken round by round (both sides measured minutes apart at most), then the median over rounds. */
export function ratio(run: DatabaseRun, c: CaseRun, baseline: string | null): number | null {
  if (baseline === null) return null;
  const base = run.cases.find((b) => b.id === baseline);
  if (!base) return null;
  return medianOrNull(c.rounds.map((m, i) => (m && base.rounds[i]?.rps ? m.rps / base.rounds[i]!.rps : null)));
}

/**
 * The server's and its database's CPU per response: on PGlite the server's own figure (its embedded database process
 * is its child), on PostgreSQL that plus its server's processes when known.
 */
export function totalCpuOf(m: Measurement, database: DatabaseKind): number | null {
  if (m.cpuMicrosPerRequest === null) return null;
  return database === 'postgres' ? m.cpuMicrosPerRequest + (m.databaseCpuMicrosPerRequest ?? 0) : m.cpuMicrosPerRequest;
}

/** CPU per response of a case ÷ its baseline's, round by round, then the median. */
function cpuRatio(run: DatabaseRun, c: CaseRun, baseline: string | null): number | null {
  const base = baseline === null ? undefined : run.cases.find((b) => b.id === baseline);
  if (!base) return null;
  return medianOrNull(
    c.rounds.map((m, i) => {
      const b = base.rounds[i];
      const [mine, theirs] = [m && totalCpuOf(m, run.database), b && totalCpuOf(b, run.database)];
      return typeof mine === 'number' && typeof theirs === 'number' && theirs > 0 ? mine / theirs : null;
    }),
  );
}

const range = (values: Array<number | null | undefined>) => {
  const present = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return present.length ? { median: median(present), min: Math.min(...present), max: Math.max(...present) } : null;
};

export function summarise(run: DatabaseRun): CaseSummary[] {
  return run.cases.map((c) => {
    const loaded = c.rounds.filter((m): m is Measurement => m !== null);
    const rps = loaded.map((m) => m.rps);
    return {
      id: c.id,
      label: c.label,
      profile: c.profile ?? 'stack floor',
      rps: rps.length ? { median: median(rps), min: Math.min(...rps), max: Math.max(...rps) } : null,
      p50Ms: medianOrNull(loaded.map((m) => m.p50Ms)),
      p99Ms: medianOrNull(loaded.map((m) => m.p99Ms)),
      cpuMicrosPerRequest: medianOrNull(loaded.map((m) => m.cpuMicrosPerRequest)),
      totalCpu: range(loaded.map((m) => totalCpuOf(m, run.database))),
      databaseCpuMicrosPerRequest: medianOrNull(loaded.map((m) => m.databaseCpuMicrosPerRequest)),
      cpuVsBaseline: cpuRatio(run, c, c.sameDataAs ?? (c.id === 'MIXr-warm' ? 'MIXr-cold' : null)),
      logLinesPerRequest: medianOrNull(loaded.map((m) => m.logLinesPerRequest)),
      vsB0: ratio(run, c, 'B0'),
      vsB1: ratio(run, c, c.sameDataAs),
      vsB1Name: c.sameDataAs,
      statements:
        (c.id === 'B0' ? 0 : c.statements) ??
        run.statementCounts[c.id]?.statements ??
        (c.id.startsWith('MIX') && !c.id.startsWith('MIXr') ? (run.mix?.sql.perRequest ?? null) : null),
      failures: loaded.reduce((sum, m) => sum + m.failures, 0),
      problems: c.problems,
    };
  });
}

export const int = (n: number) => Math.round(n).toLocaleString('en-US');
export const dash = '–';
export const fixed = (n: number | null, digits: number) => (n === null ? dash : n.toFixed(digits));

export const rpsText = (s: CaseSummary) =>
  s.rps ? `${int(s.rps.median)} [${int(s.rps.min)}–${int(s.rps.max)}]` : `not run: ${s.problems[0] ?? '?'}`;
export const failuresText = (s: CaseSummary) => `${s.failures}${s.problems.length ? ` (+${s.problems.length} bad check)` : ''}`;

/** The stack floor's table (one hot key, logs off, no Accept-Encoding): every case without a profile. */
export function markdownTable(run: DatabaseRun): string {
  const rows = summarise(run)
    .filter((s) => s.profile === 'stack floor')
    .map((s) => {
      const vsB1 = s.vsB1 === null ? dash : `${s.vsB1.toFixed(3)}${s.vsB1Name === 'B1' ? '' : ` (${s.vsB1Name})`}`;
      const statements = s.statements === null ? dash : Number.isInteger(s.statements) ? String(s.statements) : s.statements.toFixed(2);
      const database = s.databaseCpuMicrosPerRequest === null ? dash : int(s.databaseCpuMicrosPerRequest);
      return `| ${s.id} | ${s.label} | ${rpsText(s)} | ${fixed(s.p99Ms, 0)} | ${s.cpuMicrosPerRequest === null ? dash : int(s.cpuMicrosPerRequest)} | ${database} | ${fixed(s.vsB0, 3)} | ${vsB1} | ${statements} | ${failuresText(s)} |`;
    });
  const mcp = run.cases.find((c) => c.id === 'M1');
  const mcpVsRest = mcp ? ratio(run, mcp, 'R1') : null;
  return [
    '| case | what | req/s median [min–max] | p99 ms | CPU µs/req | database µs/req | ×B0 | ×B1 | SQL/req | failures |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
    ...(mcpVsRest === null ? [] : ['', `M1 (assistant tool) ÷ R1 (REST, same 20 venues): ${mcpVsRest.toFixed(3)}`]),
  ].join('\n');
}

export interface Goals {
  /** A case's req/s over a baseline's (or another case's, e.g. MIX-warm ÷ MIX-cold) in the same rounds. */
  throughput: Array<{
    goal: string;
    case: string;
    baseline: BaselineId | 'B0' | 'MIX-cold' | 'MIXr-cold' | 'R1';
    min: number;
    databases?: DatabaseKind[];
  }>;
  /** A case's CPU per response (server and database) over its baseline's in the same rounds: at most `max`. */
  cpu?: Array<{ goal: string; case: string; baseline: BaselineId; max: number; databases?: DatabaseKind[] }>;
  /** Open-loop p99 ceilings (OPEN-rest, OPEN-gql). */
  open?: Array<{ goal: string; case: string; p99MaxMs: number; databases?: DatabaseKind[] }>;
  /** Failures allowed in the MIX replay (non-2xx, socket errors, timeouts; no 404 is expected). */
  mix?: { goal: string; case: string; failuresMax: number };
  statements: Array<{ goal: string; case: string; max?: number; sameAs?: string }>;
  /** Non-2xx, socket errors and timeouts allowed under load, per case. */
  failuresMax: number;
  /** G10: the Prisma relation strategy that makes nested reads one statement. */
  relationJoins: boolean;
}

export interface GateResult {
  goal: string;
  database: DatabaseKind;
  what: string;
  value: string;
  limit: string;
  pass: boolean;
}

/** `selected`: the cases --cases kept; a gate on a case left out is left out too (one that ran and failed is not). */
export function evaluate(goals: Goals, runs: DatabaseRun[], schemaText: string, selected: (id: string) => boolean = () => true): GateResult[] {
  const gates: GateResult[] = [];
  for (const run of runs) {
    const summary = new Map(summarise(run).map((s) => [s.id, s]));
    for (const g of goals.throughput) {
      if ((g.databases && !g.databases.includes(run.database)) || !selected(g.case)) continue;
      const s = summary.get(g.case);
      const value = s
        ? g.baseline === 'B0'
          ? s.vsB0
          : g.baseline === s.vsB1Name
            ? s.vsB1
            : ratio(
                run,
                run.cases.find((c) => c.id === g.case)!,
                g.baseline,
              )
        : null;
      gates.push({
        goal: g.goal,
        database: run.database,
        what: `${g.case} req/s ÷ ${g.baseline}`,
        value: fixed(value, 3),
        limit: `≥ ${g.min}`,
        pass: value !== null && value >= g.min,
      });
    }
    for (const g of goals.cpu ?? []) {
      if ((g.databases && !g.databases.includes(run.database)) || !selected(g.case)) continue;
      const c = run.cases.find((x) => x.id === g.case);
      const value = c ? cpuRatio(run, c, g.baseline) : null;
      const partial = run.database === 'postgres' && !c?.rounds.some((m) => typeof m?.databaseCpuMicrosPerRequest === 'number');
      gates.push({
        goal: g.goal,
        database: run.database,
        what: `${g.case} CPU µs/req ÷ ${g.baseline}${partial ? ' (servers only: PostgreSQL not visible)' : ' (server + database)'}`,
        value: fixed(value, 3),
        limit: `≤ ${g.max}`,
        pass: value !== null && value <= g.max,
      });
    }
    for (const g of goals.open ?? []) {
      if ((g.databases && !g.databases.includes(run.database)) || !selected(g.case)) continue;
      const o = run.open.find((x) => x.id === g.case);
      gates.push({
        goal: g.goal,
        database: run.database,
        what: `${g.case} p99 at ${o ? `${o.rate.toFixed(0)}/s` : 'the fixed rate'} (open loop)`,
        value: o ? `${o.p99Ms} ms${o.failures ? `, ${o.failures} failed${failureDetail(o)}` : ''}` : 'not run',
        limit: `≤ ${g.p99MaxMs} ms, 0 failed`,
        pass: o !== undefined && o.completed > 0 && o.failures === 0 && o.p99Ms <= g.p99MaxMs,
      });
    }
    if (goals.mix && selected(goals.mix.case)) {
      const s = summary.get(goals.mix.case);
      const failed = s ? s.failures + s.problems.length : null;
      gates.push({
        goal: goals.mix.goal,
        database: run.database,
        what: `${goals.mix.case} failed requests (non-2xx, errors, timeouts)`,
        value: s?.rps ? String(failed) : 'not run',
        limit: `≤ ${goals.mix.failuresMax}`,
        pass: s?.rps !== null && s !== undefined && failed !== null && failed <= goals.mix.failuresMax,
      });
    }
    for (const g of goals.statements) {
      const count = run.statementCounts[g.case];
      const bad = count?.problem;
      if (g.sameAs !== undefined) {
        const other = run.statementCounts[g.sameAs]?.statements;
        gates.push({
          goal: g.goal,
          database: run.database,
          what: `SQL/req ${g.case} = ${g.sameAs}`,
          value: String(count?.statements ?? dash),
          limit: `= ${other ?? dash}`,
          pass: !bad && count !== undefined && count.statements === other,
        });
      } else {
        gates.push({
          goal: g.goal,
          database: run.database,
          what: `SQL/req ${g.case}`,
          value: bad ? `bad answer: ${bad}` : String(count?.statements ?? dash),
          limit: `≤ ${g.max}`,
          pass: !bad && count !== undefined && count.statements <= (g.max ?? Infinity),
        });
      }
    }
    for (const s of summary.values()) {
      if (s.failures > goals.failuresMax || s.problems.length) {
        gates.push({
          goal: 'valid',
          database: run.database,
          what: `${s.id} failures under load / bad checks`,
          value: `${s.failures} / ${s.problems.length}`,
          limit: `≤ ${goals.failuresMax} / 0`,
          pass: false,
        });
      }
    }
  }
  if (goals.relationJoins) {
    const on = /previewFeatures\s*=\s*\[[^\]]*"relationJoins"/.test(schemaText);
    gates.push({
      goal: 'G10',
      database: runs[0]?.database ?? 'pglite',
      what: 'prisma previewFeatures has relationJoins',
      value: on ? 'yes' : 'no',
      limit: 'yes',
      pass: on,
    });
  }
  return gates;
}

export function gatesTable(gates: GateResult[]): string {
  return [
    '| goal | db | gate | value | limit | result |',
    '|---|---|---|--:|--:|---|',
    ...gates.map((g) => `| ${g.goal} | ${g.database} | ${g.what} | ${g.value} | ${g.limit} | ${g.pass ? 'pass' : '**FAIL**'} |`),
  ].join('\n');
}
