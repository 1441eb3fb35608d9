import { request as httpRequest } from 'node:http';

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

/** A header's value in a raw answer. */
export const rawHeader = (answer: { headers: string[] }, name: string) =>
  answer.headers.find((h) => h.startsWith(`${name}: `))?.slice(name.length + 2);
