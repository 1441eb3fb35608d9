import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Request } from './fetch-api.js';
import type { HeaderReader } from '../graphql/context.js';
import { joined, payloadTooLarge } from './body.js';

/**
 * What the ingress (src/http/ingress.ts) reads from node's request in place of a Fetch Request, and the Fetch Request
 * made of it when a surface or an answer step reads one.
 */

/** node's parsed headers read as Fetch's Headers reads them (a Fetch Request's Headers is built from the same object). */
export function nodeHeaderReader(headers: IncomingHttpHeaders): HeaderReader {
  return {
    get(name) {
      const value = headers[name];
      return value === undefined ? null : typeof value === 'string' ? value : value.join(', ');
    },
  };
}

/** node's request as a Fetch Request, without its body (read by readNodeBody); `method` GET for a HEAD's. */
export function fetchRequestOf(req: IncomingMessage, method = req.method): Request {
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, { method, headers: req.headers as HeadersInit });
}

/**
 * The body, refused with 413 as soon as it passes `maxBytes`, before any of it is parsed: a declared length past it
 * unread, a chunked body as it streams. What is left unread when the answer is written, Node reads and drops.
 */
export function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined) {
    // Node's parser has checked the length is digits, and refuses it beside Transfer-Encoding.
    const length = declared === undefined ? 0 : Number(declared);
    if (length > maxBytes) return Promise.reject(payloadTooLarge(maxBytes));
    return length === 0 ? Promise.resolve(new Uint8Array()) : readDeclaredBody(req, length);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= maxBytes) return void chunks.push(chunk);
      req.off('data', onData);
      ended = true;
      reject(payloadTooLarge(maxBytes));
    };
    req.on('data', onData);
    req.once('end', () => {
      if (ended) return;
      ended = true;
      resolve(joined(chunks, size));
    });
    req.once('error', reject);
    req.once('close', () => {
      if (!ended) reject(new Error('the client closed the request before its body was read'));
    });
  });
}

/**
 * A body of a declared length, read from node's request into one buffer. Node's parser delivers exactly that many
 * bytes (it refuses a request that also says chunked); a client that hangs up first rejects the promise.
 */
function readDeclaredBody(req: IncomingMessage, length: number): Promise<Uint8Array<ArrayBuffer>> {
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
