// The embedded database's PostgreSQL wire protocol endpoint: PGlite is one single-session backend, so every client
// connection is multiplexed onto it here. What makes that safe is below; pglite-socket 0.2.x missed the first two.
// 1. A statement's messages reach PGlite together: a connection's frames are queued until a message that ends a unit
//    (Sync, simple Query, Flush) has arrived whole, however the bytes were split across reads.
// 2. One connection at a time, from that unit until PGlite answers ReadyForQuery "idle": a transaction (status T or E)
//    keeps the backend to itself, so no other connection's statement runs inside it or sees its uncommitted rows.
// 3. A connection that goes away inside a transaction is rolled back before the next one runs.
import { chmod, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Frontend messages after which the client waits for an answer, so the unit goes to PGlite now. */
const UNIT_ENDS = new Set(['S', 'Q', 'H']);
const TERMINATE = 'X';

/** FIFO mutual exclusion over the single backend session. */
class SessionQueue {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves, in arrival order, with the function that hands the session on. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const granted = this.tail.then(() => release);
    this.tail = next;
    return granted;
  }
}

/** The status byte of the last ReadyForQuery in a run of backend messages, or undefined when there is none. */
export function lastReadyStatus(messages: Uint8Array): string | undefined {
  let status: string | undefined;
  const view = new DataView(messages.buffer, messages.byteOffset, messages.byteLength);
  for (let at = 0; at + 5 <= messages.length; at += 1 + view.getInt32(at + 1)) {
    if (messages[at] === 0x5a /* Z */) status = String.fromCharCode(messages[at + 5]);
  }
  return status;
}

/**
 * Runs one unit of frontend messages (the startup message included) and returns PGlite's backend messages as they
 * are. Not `execProtocolRaw`: in PGlite 0.5 that one also parses every backend message into objects (each DataRow's
 * values as strings) and appends them to a result list that only `execProtocol` ever empties, so the database process
 * kept every row it had ever sent, and its full GCs stalled queries for over a second (docs/performance.md, Levers).
 * `execProtocolRawStream` hands the bytes to a callback without parsing them.
 */
export async function execute(pglite: PGlite, unit: Uint8Array): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  // A chunk is a view of PGlite's memory, reused after the callback: copied.
  await pglite.execProtocolRawStream(unit, { onRawData: (chunk) => chunks.push(Buffer.from(chunk)) });
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

function simpleQuery(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`);
  const message = Buffer.alloc(5 + text.length);
  message.write('Q', 0);
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}

export interface WireServer {
  socketPath: string;
  /** Stops accepting, ends every connection (rolling back what they left open) and removes the socket file. */
  close(): Promise<void>;
}

/**
 * Serves `pglite` on a Unix socket at `socketPath` (mode 0600: the file system is the authentication). Long because
 * one connection's protocol states (startup, queries, transactions, close) share its buffers and the session queue.
 */
export async function serveWireProtocol(pglite: PGlite, socketPath: string): Promise<WireServer> {
  const session = new SessionQueue();
  const connections = new Set<Socket>();

  const handle = (socket: Socket) => {
    connections.add(socket);
    let pending: Buffer = Buffer.alloc(0);
    let started = false;
    let release: (() => void) | undefined;
    let work = Promise.resolve();
    let closed = false;

    const run = async (unit: Uint8Array) => {
      release ??= await session.acquire();
      if (closed) return;
      const answer = await execute(pglite, unit);
      if (!closed) socket.write(answer);
      if (lastReadyStatus(answer) === 'I') {
        release();
        release = undefined;
      }
    };

    const end = () => {
      if (closed) return;
      closed = true;
      connections.delete(socket);
      // After whatever this connection still had queued: roll back a transaction it left open, then hand on the session.
      work = work.then(async () => {
        if (!release) return;
        await execute(pglite, simpleQuery('ROLLBACK')).catch(() => undefined);
        release();
        release = undefined;
      });
    };

    const fail = () => {
      socket.destroy();
      end();
    };

    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const units: Buffer[] = [];
      let terminated = false;
      let unitStart = 0;
      let at = 0;
      while (true) {
        if (!started) {
          // Startup phase: length-prefixed messages without a type byte.
          if (pending.length - at < 8) break;
          const length = pending.readInt32BE(at);
          if (length < 8 || length > 10_000) return fail();
          if (pending.length - at < length) break;
          const code = pending.readInt32BE(at + 4);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            socket.write('N');
            at += length;
            unitStart = at;
            continue;
          }
          if (code === CANCEL_REQUEST) return fail();
          // PGlite answers the startup message itself (AuthenticationOk, parameters, ReadyForQuery).
          units.push(pending.subarray(at, at + length));
          at += length;
          unitStart = at;
          started = true;
          continue;
        }
        if (pending.length - at < 5) break;
        const type = String.fromCharCode(pending[at]);
        const length = pending.readInt32BE(at + 1);
        if (length < 4) return fail();
        if (pending.length - at < 1 + length) break;
        if (type === TERMINATE) {
          terminated = true;
          break;
        }
        at += 1 + length;
        if (UNIT_ENDS.has(type)) {
          units.push(pending.subarray(unitStart, at));
          unitStart = at;
        }
      }
      // Copies, not views: `pending` is reused for the next read.
      for (const unit of units) {
        const bytes = Uint8Array.from(unit);
        work = work.then(() => run(bytes)).catch(fail);
      }
      pending = Buffer.from(pending.subarray(unitStart));
      if (terminated) {
        socket.end();
        end();
      }
    });
    socket.on('error', end);
    socket.on('close', end);
  };

  await rm(socketPath, { force: true });
  const server: Server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o600);
  return {
    socketPath,
    async close() {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of connections) socket.destroy();
      await stopped;
      await rm(socketPath, { force: true });
    },
  };
}
