import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCErrorResponse, type JSONRPCMessage, type JSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { utf8Bytes } from '../http/utf8.js';

/** One message of an HTTP request as it is handed over: a refused request is answered without reaching the server. */
export interface Delivery {
  message: JSONRPCMessage;
  /** The answer to a request refused before the server sees it (bad params, src/mcp/mcp.messages.ts). */
  refusal?: JSONRPCErrorResponse;
}

type Pending<T> = { scope: T; id: RequestId; answer: (bytes: Buffer<ArrayBuffer>) => void };

/**
 * The transport of the one assistant server of an app (src/mcp/mcp.http.ts). Each HTTP request hands over its
 * messages with what they run under (`T`: its tool runner and error context) and gets back the answers to its
 * requests, in their order, under its own ids.
 *
 * Not the SDK's stateless Streamable HTTP transport: it serves one HTTP request and must then be replaced (it maps
 * answers back by the client's ids, which two clients may share), and a Server is connected to one transport at a
 * time, so it meant a Server per request too. Here every request reaches the one Server under an id of this
 * transport's own, which the server's handlers pass to `scopeOf`; its answer leaves under the client's id again.
 */
export class ExchangeTransport<T> implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private lastId = 0;
  private readonly pending = new Map<number, Pending<T>>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** What the request the server knows by this id runs under. */
  scopeOf(id: RequestId): T {
    const pending = this.pending.get(id as number);
    if (!pending) throw new Error(`mcp exchange: no request ${String(id)} is in flight`);
    return pending.scope;
  }

  /**
   * The server's answers. Nothing else is sent on: the tools send no notifications or requests of their own, and a
   * stateless exchange has no stream to carry them.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    // An answer is the message with an id and no method; the SDK's own tests of that are schema parses of the whole.
    if (!('id' in message) || 'method' in message) return;
    const pending = this.pending.get(message.id as number);
    if (!pending) return;
    this.pending.delete(message.id as number);
    // The client's id in the place the SDK wrote ours, so the answer reads as the SDK writes it. Encoded here, while
    // the text is new: a long JSON text is made of parts that encoding joins into one copy, which V8 makes in the old
    // generation when the parts have reached it, as they had by the time the HTTP answer was built.
    const bytes = utf8Bytes(JSON.stringify({ ...message, id: pending.id }));
    release(message);
    pending.answer(bytes);
  }

  /**
   * Hands one HTTP request's messages to the server in order and resolves with the answers to its requests, each as
   * the UTF-8 bytes of its JSON text. Responses a client sends are dropped (this server sends no requests to answer),
   * and so are cancellations: every request of the exchange is answered in its HTTP response, which waits for all of
   * them, and no other exchange's request can be named.
   */
  exchange(deliveries: Delivery[], scope: T): Promise<Array<Buffer<ArrayBuffer>>> {
    const deliver = this.onmessage;
    if (!deliver) throw new Error('mcp exchange: connect the server first');
    return new Promise((resolve) => {
      const answers: Array<Buffer<ArrayBuffer>> = [];
      let waiting = 0;
      const forward: JSONRPCMessage[] = [];
      for (const { message, refusal } of deliveries) {
        if (!('method' in message) || message.method === 'notifications/cancelled') continue;
        if (!('id' in message)) {
          forward.push(message);
          continue;
        }
        const slot = answers.length;
        answers.push(refusal ? utf8Bytes(JSON.stringify(refusal)) : NOT_YET);
        if (refusal) continue;
        const id = ++this.lastId;
        waiting++;
        this.pending.set(id, {
          scope,
          id: message.id,
          answer: (answer) => {
            answers[slot] = answer;
            if (--waiting === 0) resolve(answers);
          },
        });
        forward.push({ ...(message as JSONRPCRequest), id });
      }
      // Delivered once every request is registered: the server answers some (an unknown method) before deliver returns.
      for (const message of forward) deliver(message);
      if (waiting === 0) resolve(answers);
    });
  }
}

/** The place of an answer not yet sent. */
const NOT_YET = Buffer.alloc(0);

/**
 * Drops what a sent answer's result holds. The SDK's protocol layer fulfils promises made at a call's start with the
 * result; under load they have reached the old generation by then, and a result still reachable from them (a search's
 * rows, venues and prices) lived there until the next full collection instead of dying young (docs/performance.md).
 * Nothing reads an answer after its transport has encoded it. Only the result's own keys are dropped (the object
 * the server made for this answer: its copy of a tool's result), never the objects they point to, which the response
 * cache may hold.
 */
function release(message: JSONRPCMessage): void {
  if (!('result' in message) || typeof message.result !== 'object' || message.result === null) return;
  const result = message.result as Record<string, unknown>;
  for (const key of Object.keys(result)) result[key] = undefined;
}
