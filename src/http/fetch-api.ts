// The Fetch classes @whatwg-node/server's sendNodeResponse writes fastest (src/http/ingress.ts). Node's own Response
// turns a string body into a ReadableStream pumped chunk by chunk (TextEncoder, stream reads, a write per chunk); this
// Response keeps the string, written to the socket in one call. Every response the service builds uses these.
export { Headers, Request, Response } from '@whatwg-node/fetch';
