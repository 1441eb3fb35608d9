import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { expect } from 'vitest';

/** An answer with its headers and bytes exactly as the server wrote them (Date left out: it may tick between two). */
export interface RawAnswer {
  status: number;
  /** `name: value`, names in lower case, sorted. */
  headers: string[];
  body: Buffer;
}

/** One request over a real connection of its own; a body is sent with its Content-Length unless headers say chunked. */
export function sendRaw(
  base: string,
  target: string,
  init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<RawAnswer> {
  const headers = { ...init.headers };
  const chunked = Object.keys(headers).some((name) => name.toLowerCase() === 'transfer-encoding');
  if (init.body !== undefined && !chunked) headers['content-length'] = String(Buffer.byteLength(init.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${target}`, { method: init.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = res.rawHeaders;
        const pairs: string[] = [];
        for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() !== 'date') pairs.push(`${raw[i].toLowerCase()}: ${raw[i + 1]}`);
        resolve({ status: res.statusCode!, headers: pairs.sort(), body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A raw answer whose body is text: latin1 when it is encoded (compressed bytes then compare exactly), UTF-8 otherwise. */
export type RawTextAnswer = Omit<RawAnswer, 'body'> & { body: string };

/** Headers of the connection, not of the answer: a socket has them, an answer in process does not. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** The answer as `app.fetch` gives it, in a RawAnswer's form. */
async function rawOf(response: Response): Promise<RawAnswer> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    if (name !== 'date') headers.push(`${name.toLowerCase()}: ${value}`);
  });
  return { status: response.status, headers: headers.sort(), body: Buffer.from(await response.arrayBuffer()) };
}

/** What two ways must agree on: the status, every header of the answer, the bytes (as text: latin1 when encoded). */
function comparable(answer: RawAnswer): RawTextAnswer {
  const encoded = answer.headers.some((x) => x.startsWith('content-encoding:'));
  const headers = answer.headers.filter((h) => !CONNECTION_HEADERS.has(h.slice(0, h.indexOf(':'))));
  return { status: answer.status, headers, body: answer.body.toString(encoded ? 'latin1' : 'utf8') };
}

/**
 * A request sent two ways to one app: over a real connection (src/http/ingress.ts writes an answer that no step
 * changes as bytes with one writeHead) and in process through `app.fetch` (every answer finished as a Response),
 * after a third client's `warm` copy, so that with the response cache on both sides are answered from it.
 * `headersOf` gives each side's headers (its own key and client IP keep their limit headers in step). The two answers
 * must be equal, status, every header but the connection's and every byte; the socket's is returned, with its
 * Content-Length checked against its body.
 */
export async function sendBothWays(
  app: { fetch(request: Request): Promise<Response> },
  base: string,
  target: string,
  init: { method?: string; body?: string },
  options: { headersOf: (side: 'socket' | 'process') => Record<string, string>; warm: Record<string, string> },
): Promise<RawTextAnswer> {
  const method = init.method ?? 'GET';
  await sendRaw(base, target, { method, headers: options.warm, body: init.body });
  const socket = await sendRaw(base, target, { method, headers: options.headersOf('socket'), body: init.body });
  const length = rawHeader(socket, 'content-length');
  if (length !== undefined && method !== 'HEAD') expect(Number(length)).toBe(socket.body.byteLength);
  const inProcess = await app.fetch(new Request(`${base}${target}`, { method, headers: options.headersOf('process'), body: init.body }));
  const answer = comparable(socket);
  expect(answer).toEqual(comparable(await rawOf(inProcess)));
  return answer;
}

/** A POST of `body` (text as given, anything else as JSON) sent both ways (sendBothWays). */
export function postBothWays(
  app: { fetch(request: Request): Promise<Response> },
  base: string,
  target: string,
  body: unknown,
  options: Parameters<typeof sendBothWays>[4],
): Promise<RawTextAnswer> {
  return sendBothWays(app, base, target, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) }, options);
}

/** A header's value in a raw answer. */
export const rawHeader = (answer: { headers: string[] }, name: string) =>
  answer.headers.find((h) => h.startsWith(`${name}: `))?.slice(name.length + 2);

/** One response read off a raw connection: interim 1xx answers skipped, the body as the server sent it. */
export interface RawResponse {
  status: number;
  /** Names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** A connection of its own, kept open between requests, written and read byte for byte. */
export interface RawConnection {
  /** Writes `bytes` and resolves with the next whole response; rejects with what the socket said instead. */
  exchange: (bytes: string) => Promise<RawResponse>;
  /** Writes `bytes` without waiting for anything. */
  write: (bytes: string) => void;
  /** Resolves once the server has sent `text` (an interim `100 Continue`, say). */
  waitFor: (text: string) => Promise<void>;
  /** Whether the server has closed its side: no request can be sent on it any more. */
  ended: () => boolean;
  /** Resolves when the socket has closed, whichever side closed it. */
  closed: Promise<void>;
  destroy: () => void;
}

/**
 * Opens a raw connection. A response is whole at its Content-Length, or at the server's close when it has none; an
 * error (a reset, a close before a whole response) rejects with the socket's code, so a test can tell them apart.
 */
export function openRawConnection(port: number, host = '127.0.0.1'): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    let received = Buffer.alloc(0);
    let ended = false;
    let failure: string | undefined;
    let wake: (() => void) | undefined;
    const changed = () => wake?.();
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      changed();
    });
    socket.on('end', () => {
      ended = true;
      changed();
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('close', changed);
    socket.on('error', (e: NodeJS.ErrnoException) => {
      failure = e.code ?? e.message;
      changed();
    });
    const nextChange = () => new Promise<void>((r) => (wake = r));

    /** The next whole final response in what has arrived, taken off it; undefined while it is still arriving. */
    const take = (): RawResponse | undefined => {
      for (;;) {
        const headEnd = received.indexOf('\r\n\r\n');
        if (headEnd < 0) return undefined;
        const [statusLine, ...lines] = received.subarray(0, headEnd).toString('latin1').split('\r\n');
        const status = Number(statusLine.split(' ')[1]);
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        const rest = received.subarray(headEnd + 4);
        if (status >= 100 && status < 200) {
          received = rest;
          continue;
        }
        const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
        if (length === undefined ? !ended : rest.length < length) return undefined;
        received = length === undefined ? Buffer.alloc(0) : rest.subarray(length);
        return { status, headers, body: rest.subarray(0, length).toString('utf8') };
      }
    };

    const connection: RawConnection = {
      write: (bytes) => socket.write(bytes),
      exchange: async (bytes) => {
        socket.write(bytes);
        for (;;) {
          const response = take();
          if (response) return response;
          if (failure) throw new Error(failure);
          if (ended || socket.destroyed) throw new Error('closed before a whole response');
          await nextChange();
        }
      },
      waitFor: async (text) => {
        while (!received.includes(text)) {
          if (failure || ended || socket.destroyed) throw new Error(`${failure ?? 'closed'} before "${text}"`);
          await nextChange();
        }
      },
      ended: () => ended,
      closed,
      destroy: () => socket.destroy(),
    };
    socket.once('connect', () => resolve(connection));
    socket.once('error', reject);
  });
}
