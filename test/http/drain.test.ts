// The drain on SIGTERM (src/http/drain.ts) over real sockets: nothing the server acknowledged is reset.
import type { RequestListener } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logging/logger.js';
import { targets, validBody } from '../inquiries/support.js';
import { openRawConnection, type RawResponse } from '../support/raw-http.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('graceful drain', () => {
  it('50 in-flight requests (searches and inquiries) all complete; then nothing is accepted', async () => {
    const tg = await targets(t);
    let received = 0;
    let draining: Promise<void> | undefined;
    const app = t.app.requestListener;
    const server = createHttpServer(
      (req, res) => {
        if (++received === 50) draining = server.drain();
        app(req, res);
      },
      { log: createLogger({ level: 'silent' }), baseUrl: 'http://api.test' },
    );
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    const headers = { authorization: `Bearer ${t.keys.partner}`, 'content-type': 'application/json' };
    const requests = Array.from({ length: 50 }, (_v, i) =>
      i % 5 === 0
        ? fetch(`${base}/api/v1/inquiries/venue`, {
            method: 'POST',
            headers: { ...headers, 'x-idempotency-key': `drain-${i}` },
            body: JSON.stringify(validBody('venue', tg, { guest_name: `Drain ${i}` })),
          })
        : fetch(`${base}/api/v1/venues?limit=50&capacity_min=${i}`, { headers }),
    );
    const responses = await Promise.all(requests);
    expect(responses.map((r) => r.status).sort()).toEqual([...Array(10).fill(201), ...Array(40).fill(200)].sort());
    await Promise.all(responses.map((r) => r.text()));
    await draining;
    expect(server.server.listening).toBe(false);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  /** A server of the test app on a free port, whose listener is wrapped by `wrap` (to hold or watch requests). */
  async function listening(wrap: (app: RequestListener) => RequestListener = (app) => app) {
    const server = createHttpServer(wrap(t.app.requestListener), { log: createLogger({ level: 'silent' }), baseUrl: 'http://api.test' });
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.server.address() as AddressInfo).port };
  }

  /** A refusal of the drain: 503 service_unavailable with Retry-After and Connection: close, and its request id. */
  function expectRefusedWhileDraining(res: RawResponse) {
    expect(res.status, res.body).toBe(503);
    expect(res.headers.connection).toBe('close');
    expect(res.headers['retry-after']).toBe('1');
    const error = JSON.parse(res.body).error;
    expect(error).toMatchObject({ code: 'service_unavailable', type: 'internal_error' });
    expect(error.request_id).toBe(res.headers['x-request-id']);
  }

  it('stops accepting at once and resolves at once when nothing is in flight', async () => {
    const { server, port } = await listening();
    const began = performance.now();
    await server.drain();
    expect(performance.now() - began).toBeLessThan(500);
    expect(server.server.listening).toBe(false);
    const refused = await fetch(`http://127.0.0.1:${port}/healthz`).catch((e: { cause?: { code?: string } }) => e.cause?.code);
    expect(refused).toBe('ECONNREFUSED');
  });

  it('answers what clients sent before the drain began and the server had not read yet: 503, never a reset', async () => {
    // The kernel holds new connections in the listen queue and request bytes in socket buffers until the event loop
    // reads them. Closing the listener then resets the queued connections, and destroying an "idle" connection resets
    // its unread request. A worker thread writes both while this thread is blocked, so none has been read when the
    // drain begins.
    const { server, port } = await listening();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(
      `
      const { workerData: { port, flag }, parentPort } = require('node:worker_threads');
      const net = require('node:net');
      const request = 'GET /healthz HTTP/1.1\\r\\nHost: api.test\\r\\n\\r\\n';
      function open() {
        const socket = net.connect(port, '127.0.0.1');
        const state = { socket, text: '', error: undefined, wrote: undefined };
        socket.on('data', (d) => (state.text += d));
        socket.on('error', (e) => (state.error = e.code));
        state.closed = new Promise((r) => socket.on('close', r));
        state.send = () => new Promise((r) => socket.write(request, () => r()));
        return state;
      }
      const until = async (check) => { while (!check()) await new Promise((r) => setTimeout(r, 5)); };
      (async () => {
        // Keep-alive connections with one request answered: idle when the drain begins.
        const idle = Array.from({ length: 5 }, open);
        await Promise.all(idle.map((c) => c.send()));
        await until(() => idle.every((c) => c.text.includes('\\r\\n\\r\\n{')));
        for (const c of idle) c.text = '';
        parentPort.postMessage('ready');
        await new Promise((r) => parentPort.once('message', r));
        // The main thread is blocked now: a second request on each idle connection, and ten new connections.
        const fresh = Array.from({ length: 10 }, open);
        await Promise.all([...idle, ...fresh].map((c) => c.send()));
        Atomics.store(flag, 0, 1);
        Atomics.notify(flag, 0);
        const all = [...idle, ...fresh];
        await Promise.all(all.map((c) => c.closed));
        parentPort.postMessage(all.map((c) => ({ text: c.text, error: c.error })));
      })();
      `,
      { eval: true, workerData: { port, flag } },
    );
    let drained: Promise<unknown> = Promise.resolve();
    const answers = new Promise<{ text: string; error?: string }[]>((resolve, reject) => {
      worker.on('message', (m) => {
        if (m === 'ready') {
          worker.postMessage('go');
          // Blocks this thread's event loop (and so the server) until the worker has written everything.
          expect(Atomics.wait(flag, 0, 0, 10_000)).not.toBe('timed-out');
          drained = server.drain();
        } else resolve(m);
      });
      worker.on('error', reject);
    });
    const results = await answers;
    await worker.terminate();
    expect(results.map((r) => r.error ?? 'answered')).toEqual(Array(15).fill('answered'));
    for (const r of results) {
      const [head, body] = r.text.split('\r\n\r\n');
      const headers = Object.fromEntries(
        head
          .split('\r\n')
          .slice(1)
          .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      expectRefusedWhileDraining({ status: Number(head.split(' ')[1]), headers, body });
    }
    // The listener closes on the first loop turn that accepts nothing, which may come after the last answer.
    await drained;
    expect(server.server.listening).toBe(false);
  });

  it('while a request is in flight, a keep-alive connection is answered 503; idle and silent ones close once it is done', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { server, port } = await listening((app) => (req, res) => {
      if (req.url === '/hold') void held.then(() => res.writeHead(200, { 'content-length': '4' }).end('done'));
      else app(req, res);
    });
    const healthz = 'GET /healthz HTTP/1.1\r\nHost: api.test\r\n\r\n';
    const [holding, reused, idle] = await Promise.all([openRawConnection(port), openRawConnection(port), openRawConnection(port)]);
    for (const c of [reused, idle]) expect((await c.exchange(healthz)).status).toBe(200);
    const silent = await openRawConnection(port);
    const heldAnswer = holding.exchange('GET /hold HTTP/1.1\r\nHost: api.test\r\n\r\n');
    await new Promise((r) => setTimeout(r, 50));
    let drained = false;
    const draining = server.drain().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(server.server.listening).toBe(false);
    // The drain is held open by /hold: the keep-alive connections stay open, and a request on one is answered.
    expect([reused.ended(), idle.ended(), silent.ended(), drained]).toEqual([false, false, false, false]);
    expectRefusedWhileDraining(await reused.exchange(healthz));
    release();
    const answer = await heldAnswer;
    expect([answer.status, answer.body, answer.headers.connection]).toEqual([200, 'done', 'close']);
    await draining;
    // Closed by the server without waiting for their timeouts (keep-alive 5 s, headers 10 s).
    await Promise.all([reused.closed, idle.closed, silent.closed]);
    expect([reused.ended(), idle.ended(), silent.ended()]).toEqual([true, true, true]);
  });

  it('a response still being flushed when the drain ends arrives whole (Node 20 closeIdleConnections cut it)', async () => {
    const big = 'x'.repeat(8 * 1024 * 1024);
    let ended!: () => void;
    const endedResponse = new Promise<void>((resolve) => (ended = resolve));
    const { server, port } = await listening(() => (_req, res) => {
      res.writeHead(200, { 'content-length': String(big.length) }).end(big);
      ended();
    });
    const socket = connect(port, '127.0.0.1');
    let bytes = 0;
    socket.write('GET /big HTTP/1.1\r\nHost: api.test\r\n\r\n');
    // Not read yet: most of the body waits in the server's buffers after res.end().
    socket.pause();
    await endedResponse;
    const draining = server.drain();
    await new Promise((r) => setTimeout(r, 100));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (d: Buffer) => (bytes += d.length));
    socket.resume();
    await closed;
    await draining;
    expect(bytes).toBeGreaterThan(big.length);
  });
});
