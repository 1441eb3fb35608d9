import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Logger } from '../logging/logger.js';

/**
 * How long a drain waits for the requests in flight, milliseconds; then their connections are cut (the only way a
 * drain resets anything).
 * @default 10_000
 */
export const DRAIN_TIMEOUT_MS = 10_000;

/**
 * How long a drain may keep accepting while connections are still queued in the kernel, milliseconds. libuv accepts
 * one connection per event-loop turn (libuv#3696), so a queue is emptied a turn at a time, and closing the listener
 * before it is empty resets what is left. The listener closes after the first turn that accepts nothing: on a quiet
 * server the first, well under a millisecond; with 50 requests queued behind busy turns, seconds (up to 3.2 s, 50 to
 * 200 ms a turn, in 20 restarts with 40 searches of 100 venues in flight on a 2-core host at load 15). This bounds it
 * when connections keep coming faster than the loop turns, below `DRAIN_TIMEOUT_MS` so that the last ones accepted
 * are answered before the cut.
 * @default 8_000
 */
export const DRAIN_ACCEPT_MAX_MS = 8_000;

export interface Drain {
  /** Whether the drain has begun: a request read from then on is refused (503, `Connection: close`). */
  draining: () => boolean;
  /** Holds the drain open until this response has been flushed to the kernel, or its connection is gone. */
  track: (res: ServerResponse) => void;
  /**
   * Stops accepting, lets every tracked response finish, then closes the connections with no request on them and
   * resolves when the last connection has closed. Calling it again returns the same promise.
   */
  drain: () => Promise<void>;
}

/**
 * Runs `fn` after the event loop's next poll phase, which reads every socket with bytes waiting in the kernel. An
 * immediate queued from the check phase runs in the next one, so two in a row straddle a poll from any phase.
 */
function afterNextPoll(fn: () => void): void {
  setImmediate(() => setImmediate(fn));
}

/**
 * Calls `fn` in the check phase after the first poll phase that accepted no connection (libuv accepts at most one per
 * poll, and a queued connection keeps the listener readable, so none accepted means none queued), or once `maxMs`
 * have passed. An immediate queued from the check phase runs in the next one: each check below spans one poll.
 */
function whenAcceptQueueEmpty(server: Server, maxMs: number, fn: (accepted: number, ms: number) => void): void {
  const began = performance.now();
  let accepted = 0;
  const count = () => void accepted++;
  server.on('connection', count);
  const check = (seen: number) =>
    setImmediate(() => {
      const ms = performance.now() - began;
      if (accepted !== seen && ms < maxMs) return check(accepted);
      server.off('connection', count);
      fn(accepted, ms);
    });
  setImmediate(() => check(accepted));
}

/**
 * The graceful drain of a node:http server. Two things in Node reset requests a client has already sent, and neither
 * is used until nothing can be lost:
 * - closing the listener resets every connection still in the kernel's accept queue, so it is closed only once that
 *   queue is empty (`DRAIN_ACCEPT_MAX_MS`);
 * - `server.close()` also calls `closeIdleConnections()`, which on Node 20 destroys a socket whose response has been
 *   ended but not yet flushed (it counts as finished), truncating it, and one whose request bytes are still unread.
 *   The listener is closed with net.Server's close instead, which leaves connections alone (and keeps Node's header
 *   and request deadlines running), and idle connections are closed only once no tracked response is left and a
 *   poll phase has read whatever had arrived.
 */
export function createDrain(server: Server, log: Logger): Drain {
  let draining: Promise<void> | undefined;
  let listenerClosed = false;
  const inFlight = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  /** Once nothing is in flight: close the keep-alive connections between requests and those that never sent a byte. */
  const closeQuietConnections = () => {
    if (!listenerClosed || inFlight.size > 0) return;
    afterNextPoll(() => {
      // A request read in that poll is in flight now; its response's close calls this again.
      if (inFlight.size > 0) return;
      // Safe now: no response is waiting to be flushed, so "idle" means between requests.
      server.closeIdleConnections();
      // Node counts a connection as busy from its accept, so a silent one would hold the drain for headersTimeout.
      for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    });
  };

  const track = (res: ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (draining && inFlight.size === 0) closeQuietConnections();
    });
  };

  const drain = () =>
    (draining ??= new Promise<void>((resolve) => {
      log.info({ inFlight: inFlight.size }, 'drain: finishing the requests in flight');
      // Their clients must not send another request on these connections.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      const force = setTimeout(() => {
        log.warn({ inFlight: inFlight.size }, `drain: requests still running after ${DRAIN_TIMEOUT_MS} ms; closing their connections`);
        server.closeAllConnections();
      }, DRAIN_TIMEOUT_MS);
      force.unref();
      whenAcceptQueueEmpty(server, DRAIN_ACCEPT_MAX_MS, (accepted, ms) => {
        NetServer.prototype.close.call(server, () => {
          clearTimeout(force);
          resolve();
        });
        listenerClosed = true;
        log.info({ inFlight: inFlight.size, accepted, ms: Math.round(ms) }, 'drain: no longer accepting connections');
        closeQuietConnections();
      });
    }));

  return { draining: () => draining !== undefined, track, drain };
}
