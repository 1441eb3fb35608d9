/**
 * OPEN's generator in a process of its own (bench/database-run.ts starts it pinned to the load CPU): the bench process
 * has driven every closed-loop case by then, and a pause of its own (a full GC of its larger heap) would send requests
 * late and count the lateness as the server's latency. Reads the job from OPEN_LOOP_JOB and prints one result line.
 */
import { openLoop, type OpenLoopJob } from './open-loop.js';

const job = JSON.parse(process.env.OPEN_LOOP_JOB ?? 'null') as OpenLoopJob | null;
if (!job) throw new Error('OPEN_LOOP_JOB is not set');
if (job.warmupSeconds > 0) await openLoop(job.target, job.request, { rate: job.rate, seconds: job.warmupSeconds });
const result = await openLoop(job.target, job.request, { rate: job.rate, seconds: job.seconds });
process.stdout.write(`OPEN_RESULT ${JSON.stringify(result)}\n`);
