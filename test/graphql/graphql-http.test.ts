import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverAudits } from 'graphql-http';
import { createTestApp, BASE_URL, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GraphQL over HTTP conformance (graphql-http serverAudits) through auth', () => {
  const audits = serverAudits({
    url: `${BASE_URL}/graphql`,
    fetchFn: (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      request.headers.set('authorization', `Bearer ${t.keys.partner}`);
      return t.app.fetch(request);
    },
  });
  for (const audit of audits) {
    it(`${audit.id} ${audit.name}`, async () => {
      const result = await audit.fn();
      // Every MUST (error) and every SHOULD (warn) must pass.
      expect(result.status, 'reason' in result ? result.reason : '').toBe('ok');
    });
  }
});
