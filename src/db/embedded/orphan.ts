import { readFile } from 'node:fs/promises';

/** True when `pid` is an embedded database process whose server is gone (read from Linux /proc; elsewhere false). */
export async function isOrphanedDatabaseProcess(pid: number): Promise<boolean> {
  const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
  const parent = Number(/(?:^|\0)EMBEDDED_PARENT_PID=(\d+)/.exec(environ)?.[1]);
  if (!parent) return false;
  try {
    process.kill(parent, 0);
    return false;
  } catch {
    return true;
  }
}
