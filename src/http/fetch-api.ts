// The Fetch classes the HTTP adapter (@whatwg-node/server) sends fastest. Node's own Response turns a string body into
// a ReadableStream that the adapter pumps chunk by chunk (TextEncoder, stream reads, a write per chunk); the adapter's
// Response keeps the string, which it writes to the socket in one call. Every response the service builds uses these.
export { Headers, Request, Response } from '@whatwg-node/fetch';
