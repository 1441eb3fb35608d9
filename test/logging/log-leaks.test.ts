// The scan the run's teardown applies to every captured log line (test/support/run-log.ts): what it flags and what
// it lets through, so a clean run means something.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findLogLeaks, LOG_LEAKS } from '../support/run-log.js';
import { STACK_OR_PATH } from '../support/log-stacks.js';

const leaking = {
  'an API key': '{"msg":"auth","key":"wv_live_0123456789abcdefghijABCDEFGHIJ01"}',
  'an e-mail address': '{"msg":"new lead","to":"zebulon.q@private-mail.example"}',
  'a phone number': '{"msg":"sms","to":"+1 555 0199 8877"}',
  'an inquiry field': '{"msg":"body","lead":{"guestName":"Ada"}}',
};
const clean = [
  '{"level":30,"time":1795000000000,"pid":4242,"requestId":"req_abc","method":"POST","path":"/api/v1/inquiries/venue","status":201,"ms":12,"msg":"request"}',
  '{"level":30,"msg":"new lead","inquiryId":"5f0c7a3e-1f2b-4c3d-9e8f-0a1b2c3d4e5f","kind":"venue","keyPrefix":"wv_live_AbCd1234"}',
  '{"level":50,"err":{"stack":"Error: x\\n    at f (/work/node_modules/@pothos/core/esm/index.js:1:2)"},"msg":"unexpected error"}',
];

describe('captured-log scan', () => {
  it('flags a whole key, an e-mail, a phone number and an inquiry field by name; passes request lines, ids and key prefixes', async () => {
    for (const [what, line] of Object.entries(leaking)) expect(LOG_LEAKS.find((l) => l.pattern.test(line))?.what, line).toBe(what);
    for (const line of clean)
      expect(
        LOG_LEAKS.filter((l) => l.pattern.test(line)),
        line,
      ).toEqual([]);
    const dir = await mkdtemp(join(tmpdir(), 'wv-log-scan-'));
    try {
      await writeFile(join(dir, '1-0.log'), [...clean, leaking['an e-mail address']].join('\n'));
      await writeFile(join(dir, '2-0.log'), clean.join('\n'));
      expect(findLogLeaks(dir)).toEqual({ leaks: [`an e-mail address: ${leaking['an e-mail address']}`], lines: 2 * clean.length + 1 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the stack check (test/support/log-stacks.ts) flags a stack frame, a source location and a path into the code', () => {
    expect(clean.filter((line) => STACK_OR_PATH.test(line))).toEqual([clean[2]]);
    for (const line of [
      '{"err":{"name":"Error","message":"x"},"detail":"/work/main/src/notify/dispatcher.ts"}',
      '{"msg":"invocation in dispatcher.ts:101:49"}',
      '{"msg":"failed","where":"node_modules/ioredis/built/redis/index.js"}',
    ])
      expect(line).toMatch(STACK_OR_PATH);
  });
});
