/** The flat, per-case part of bench/results.json (issue 13): what a reader or a chart needs without the raw rounds. */
import { summarise, type DatabaseRun } from './report.js';
import type { ChartRow } from './chart.js';

export interface CaseResult {
  database: string;
  case: string;
  /** 'stack floor' (one hot key, logs off, no Accept-Encoding) or 'realistic' (bench/realistic.ts). */
  profile?: string;
  label: string;
  /** Median over rounds, with the lowest and highest round. */
  rps: number | null;
  rpsMin?: number | null;
  rpsMax?: number | null;
  /** CPU µs per response, the server and its database (bench/report.ts totalCpuOf), median over rounds. */
  cpuMicrosPerRequest?: number | null;
  /** The database's part of it. */
  databaseCpuMicrosPerRequest?: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  /** Non-2xx, socket errors and timeouts over every round, plus failed body checks. */
  errors: number;
  statementsPerRequest: number | null;
  baseline: string | null;
  baselineRps: number | null;
  ratio: number | null;
  /** CPU per response ÷ the baseline's, round by round, median. */
  cpuRatio?: number | null;
}

/**
 * The name of one run's raw results file under bench/results/: its start time (UTC, sortable, no colons) and commit,
 * e.g. 2026-12-02T10-15-00Z-944631b.json; `+uncommitted` becomes `-uncommitted`.
 */
export function runFileName(results: { date: string; commit: string }): string {
  const when = results.date.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  return `${when}-${results.commit.replace(/[^A-Za-z0-9]+/g, '-')}.json`;
}

export interface ResultsHeader {
  date: string;
  commit: string;
  machine: { node: string; cpuModel: string; cores: number };
  databases: string[];
}

const r2 = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100);
const r3 = (n: number | null) => (n === null ? null : Math.round(n * 1000) / 1000);

export function caseResults(runs: DatabaseRun[]): CaseResult[] {
  return runs.flatMap((run) => {
    const summaries = summarise(run);
    const byId = new Map(summaries.map((s) => [s.id, s]));
    return summaries.map((s) => {
      const base = !/^B\d/.test(s.id) && s.vsB1Name ? byId.get(s.vsB1Name) : undefined;
      return {
        database: run.database,
        case: s.id,
        label: s.label,
        rps: r2(s.rps?.median ?? null),
        p50Ms: r2(s.p50Ms),
        p99Ms: r2(s.p99Ms),
        errors: s.failures + s.problems.length,
        statementsPerRequest: s.statements,
        baseline: base ? base.id : null,
        baselineRps: base ? r2(base.rps?.median ?? null) : null,
        ratio: base ? r3(s.vsB1) : null,
        profile: s.profile,
        rpsMin: r2(s.rps?.min ?? null),
        rpsMax: r2(s.rps?.max ?? null),
        cpuMicrosPerRequest: r2(s.totalCpu?.median ?? null),
        databaseCpuMicrosPerRequest: r2(s.databaseCpuMicrosPerRequest),
        cpuRatio: base ? r3(s.cpuVsBaseline) : null,
      };
    });
  });
}

/** Chart rows: the API cases (baselines appear beside them, not as rows of their own). */
export function chartRows(cases: CaseResult[]): ChartRow[] {
  return cases
    .filter((c) => !/^B\d/.test(c.case))
    .map((c) => ({ label: `${c.database} ${c.case}`, rps: c.rps, baselineRps: c.baselineRps, baseline: c.baseline, p99Ms: c.p99Ms }));
}

/** Problems with a results.json (empty when it has the header and well-typed per-case results). */
export function resultsProblems(json: any): string[] {
  const problems: string[] = [];
  const isNum = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));
  if (typeof json?.date !== 'string' || Number.isNaN(Date.parse(json.date))) problems.push('date is not an ISO date');
  if (typeof json?.commit !== 'string' || !json.commit) problems.push('commit missing');
  if (typeof json?.machine?.cores !== 'number' || typeof json?.machine?.node !== 'string') problems.push('machine missing');
  if (!Array.isArray(json?.databases) || !json.databases.length) problems.push('databases missing');
  if (!Array.isArray(json?.cases) || !json.cases.length) return [...problems, 'cases missing'];
  json.cases.forEach((c: any, i: number) => {
    const where = `cases[${i}]`;
    if (typeof c.case !== 'string' || typeof c.database !== 'string') problems.push(`${where}: case or database missing`);
    for (const k of ['rps', 'p50Ms', 'p99Ms', 'statementsPerRequest', 'baselineRps', 'ratio']) if (!isNum(c[k])) problems.push(`${where}.${k} is not a number or null`);
    for (const k of ['rpsMin', 'rpsMax', 'cpuMicrosPerRequest', 'databaseCpuMicrosPerRequest', 'cpuRatio'])
      if (k in c && !isNum(c[k])) problems.push(`${where}.${k} is not a number or null`);
    if (!Number.isInteger(c.errors) || c.errors < 0) problems.push(`${where}.errors is not a count`);
    if (c.baseline !== null && typeof c.baseline !== 'string') problems.push(`${where}.baseline is not a name or null`);
  });
  return problems;
}
