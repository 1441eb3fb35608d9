import { Response } from './fetch-api.js';

/** Statuses whose answers never carry a body (Fetch's null body statuses). */
export const BODYLESS_STATUSES = new Set([101, 103, 204, 205, 304]);

/** An answer's headers in order, as node's writeHead takes them (names in lower case). */
export class HeadList {
  private readonly values = new Map<string, string>();

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }
  set(name: string, value: string): void {
    this.values.set(name.toLowerCase(), value);
  }
  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }
  delete(name: string): void {
    this.values.delete(name.toLowerCase());
  }
  append(name: string, value: string): void {
    const before = this.get(name);
    this.set(name, before === null ? value : `${before}, ${value}`);
  }
  /** As writeHead takes them: name, value, name, value, … */
  flat(): string[] {
    const flat: string[] = [];
    for (const [name, value] of this.values) flat.push(name, value);
    return flat;
  }
  entries(): IterableIterator<[string, string]> {
    return this.values.entries();
  }
}

/**
 * An answer on its way out: its status, headers and body's bytes (null: none). Every surface gives one (Yoga's
 * Responses are read into one, `Answer.of`); the answer steps (src/http/answer-steps.ts) change it; the ingress
 * (src/http/ingress.ts) writes it with one writeHead, or makes it a Response for a caller in process. One form, so
 * each step is written once.
 */
export class Answer {
  readonly headers = new HeadList();

  constructor(
    public status: number,
    head: Iterable<[string, string]>,
    public body: Buffer<ArrayBuffer> | null,
  ) {
    for (const [name, value] of head) this.headers.set(name, value);
    if (body) this.headers.set('content-length', String(body.byteLength));
  }

  /** A Response as an Answer: its body read whole (every body this service sends is a whole one). */
  static async of(response: Response): Promise<Answer> {
    const body = BODYLESS_STATUSES.has(response.status) ? null : Buffer.from(await response.arrayBuffer());
    return new Answer(response.status, response.headers as unknown as Iterable<[string, string]>, body);
  }

  toResponse(): Response {
    return new Response(this.body, { status: this.status, headers: [...this.headers.entries()] });
  }
}
