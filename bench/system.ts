import { cpus } from 'node:os';
import { processCpuMicros, systemCpuMicros } from './children.js';

export interface Machine {
  node: string;
  cpuModel: string;
  cores: number;
}

export function machine(): Machine {
  const list = cpus();
  return { node: process.version, cpuModel: list[0]?.model.trim() ?? 'unknown', cores: list.length };
}

/**
 * CPU used by other jobs on the machine while the bench idles (its servers waiting, no load) for `ms`:
 * busy time of every CPU minus what the bench's own processes used, in cores.
 */
export async function idleForeignLoad(pids: number[], ms = 1000): Promise<{ cores: number; perCpu: number[]; stealCores: number } | null> {
  const ours = () => pids.reduce((sum, pid) => sum + (processCpuMicros(pid) ?? 0), 0) + cpuOfSelf();
  const before = systemCpuMicros();
  const oursBefore = ours();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = systemCpuMicros();
  const oursUsed = ours() - oursBefore;
  const elapsed = (performance.now() - started) * 1000;
  if (!before || !after) return null;
  return {
    cores: Math.max(0, after.busy - before.busy - oursUsed) / elapsed,
    perCpu: after.perCpuBusy.map((busy, i) => (busy - before.perCpuBusy[i]) / elapsed),
    stealCores: (after.steal - before.steal) / elapsed,
  };
}

const cpuOfSelf = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
