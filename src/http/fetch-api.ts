// The Fetch classes of @whatwg-node/fetch, which Yoga's server uses too. Node's own Response turns a string body into a
// ReadableStream read back chunk by chunk (TextEncoder, stream reads); this one keeps a string or bytes body as it is,
// read back whole (src/http/answer.ts). Every Response the service builds uses these.
export { Headers, Request, Response } from '@whatwg-node/fetch';
