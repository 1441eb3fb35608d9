// The server's side of knowledge.model-process.ts: the sentence model runs in a child process, started on the first
// embed and stopped after a while without one, so a server holds the model's memory only while it answers knowledge
// searches, and inference never blocks its event loop. A child that dies fails the embeds in flight (a knowledge
// search then answers from words alone, §4.6 degraded) and the next embed starts a new one.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { prepareText, USE_LITE_ID, type Embedder } from './knowledge.embedder.js';
import type { ModelReply, ModelRequest } from './knowledge.model-process.js';

const entry = fileURLToPath(new URL(`./knowledge.model-process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));

const MODEL_NODE_OPTIONS = ['--max-semi-space-size=1', '--v8-pool-size=1'];

/** How long the model process outlives its last embed by default. */
export const MODEL_IDLE_MS = 10 * 60_000;

export interface ModelProcessEmbedder extends Embedder {
  /** The model process's pid while one runs (tests, diagnostics). */
  readonly pid: number | undefined;
  /** Stops the model process now; a later embed starts another. */
  close(): Promise<void>;
}

interface Pending {
  /** The process asked: its exit fails only its own embeds. */
  owner: ChildProcess;
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
}

/**
 * USE-lite in a child process that exits after `idleMs` without an embed. Long because starting, reusing and losing
 * the process share its pending embeds.
 */
export function createModelProcessEmbedder(options: { idleMs?: number } = {}): ModelProcessEmbedder {
  const idleMs = options.idleMs ?? MODEL_IDLE_MS;
  let child: ChildProcess | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const start = (): ChildProcess => {
    const started = fork(entry, [], {
      // Not the server's heap options (its young generation is sized for serving): the model allocates little on the
      // JavaScript heap, and inference runs on one thread, so a small young generation, one V8 worker thread and one
      // malloc arena hold ~185 MB after 200 embeds against ~225 MB with the defaults, at the same ~13 ms an embed
      // (docs/operations.md#memory). From source, the TypeScript loader too.
      execArgv: [...MODEL_NODE_OPTIONS, ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : [])],
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '1' },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    started.on('message', (reply: ModelReply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if ('error' in reply) waiting.reject(new Error(`sentence model: ${reply.error}`));
      else waiting.resolve(reply.vectors);
      settle();
    });
    started.on('exit', (code, signal) => {
      if (child === started) child = undefined;
      failEmbedsOf(started, new Error(`the sentence model process stopped (${signal ?? `exit ${code}`})`));
    });
    // A spawn failure comes as 'error' and maybe no 'exit'; the embeds in flight fail the same way.
    started.on('error', (error) => {
      if (child === started) child = undefined;
      failEmbedsOf(started, error);
    });
    // Neither the process nor its channel keeps the server (or a CLI that seeded content) running.
    started.unref();
    started.channel?.unref();
    return started;
  };

  const failEmbedsOf = (owner: ChildProcess, error: Error) => {
    for (const [id, waiting] of pending) {
      if (waiting.owner !== owner) continue;
      pending.delete(id);
      waiting.reject(error);
    }
  };

  /** With nothing in flight: let the process go after `idleMs`, and let our event loop end without it. */
  const settle = () => {
    if (pending.size) return;
    child?.channel?.unref();
    clearTimeout(idleTimer);
    const idle = child;
    idleTimer = setTimeout(() => idle?.kill(), idleMs).unref();
  };

  return {
    id: USE_LITE_ID,
    get pid() {
      return child?.pid;
    },
    async embed(texts) {
      const clean = texts.map(prepareText);
      if (clean.some((t) => !t)) throw new Error('cannot embed blank text');
      if (!clean.length) return [];
      clearTimeout(idleTimer);
      const owner = (child ??= start());
      const id = nextId++;
      const vectors = new Promise<Float32Array[]>((resolve, reject) => pending.set(id, { owner, resolve, reject }));
      owner.channel?.ref();
      owner.send({ id, texts: clean } satisfies ModelRequest, (error) => {
        if (!error) return;
        pending.get(id)?.reject(error);
        pending.delete(id);
        settle();
      });
      return vectors;
    },
    async close() {
      clearTimeout(idleTimer);
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill();
      await exited;
    },
  };
}

let shared: ModelProcessEmbedder | undefined;
/** The one process-wide embedder: one model process serves every app and database of this process. */
export function sharedEmbedder(): ModelProcessEmbedder {
  return (shared ??= createModelProcessEmbedder());
}
