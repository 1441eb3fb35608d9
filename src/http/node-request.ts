import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Request } from './fetch-api.js';
import type { HeaderReader } from '../graphql/context.js';

/**
 * What the lanes (src/rest/get-lane.ts, src/graphql/post-lane.ts) read from node's request in place of a Fetch
 * Request, and the Fetch Request the adapter would have made, for the answers they hand to the common answer steps (src/http/ingress.ts).
 */

/** node's parsed headers read as Fetch's Headers reads them (the adapter builds its Headers from the same object). */
export function nodeHeaderReader(headers: IncomingHttpHeaders): HeaderReader {
  return {
    get(name) {
      const value = headers[name];
      return value === undefined ? null : typeof value === 'string' ? value : value.join(', ');
    },
  };
}

/** The Fetch Request the adapter would have made of a lane request (without its body, which the lane has read). */
export function fetchRequestOf(req: IncomingMessage): Request {
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, { method: req.method, headers: req.headers as HeadersInit });
}

/**
 * A body of a declared length, read from node's request into one buffer. Node's parser delivers exactly that many
 * bytes (it refuses a request that also says chunked); a client that hangs up first rejects the promise.
 */
export function readDeclaredBody(req: IncomingMessage, length: number): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const body = new Uint8Array(length);
    let offset = 0;
    let ended = false;
    req.on('data', (chunk: Buffer) => {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    });
    req.once('end', () => {
      ended = true;
      resolve(body);
    });
    req.once('error', reject);
    req.once('close', () => {
      if (!ended) reject(new Error('the client closed the request before its body was read'));
    });
  });
}
