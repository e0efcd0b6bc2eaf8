import type { ApiCallFn } from 'grammy';
import { honourRetryAfter } from './retry-after.js';

type Answer =
  | { ok: true; result: unknown }
  | { ok: false; error_code: number; description: string; parameters?: { retry_after?: number } };

/** A fake previous step answering from a script, and a clock that records the waits. */
function setUp(answers: Answer[], options = {}) {
  const calls: string[] = [];
  const waits: number[] = [];
  const prev = (async (method: string) => {
    calls.push(method);
    return answers.shift() ?? { ok: true, result: true };
  }) as unknown as ApiCallFn;
  const transformer = honourRetryAfter({ ...options, sleep: async (ms) => void waits.push(ms) });
  const call = () => transformer(prev, 'sendMessage', { chat_id: 1, text: 'hi' } as never);
  return { calls, waits, call };
}

const tooMany = (seconds: number): Answer => ({
  ok: false,
  error_code: 429,
  description: 'Too Many Requests',
  parameters: { retry_after: seconds },
});

describe('honourRetryAfter', () => {
  it('waits retry_after seconds and makes the same call again', async () => {
    const { calls, waits, call } = setUp([tooMany(3), tooMany(1)]);
    expect(await call()).toEqual({ ok: true, result: true });
    expect(calls).toEqual(['sendMessage', 'sendMessage', 'sendMessage']);
    expect(waits).toEqual([3000, 1000]);
  });

  it('gives up after maxRetries and returns the 429', async () => {
    const { calls, call } = setUp([tooMany(1), tooMany(1), tooMany(1)], { maxRetries: 2 });
    expect(await call()).toMatchObject({ ok: false, error_code: 429 });
    expect(calls).toHaveLength(3);
  });

  it('does not sit out a wait longer than maxDelaySeconds', async () => {
    const { waits, call } = setUp([tooMany(3600)], { maxDelaySeconds: 300 });
    expect(await call()).toMatchObject({ ok: false, error_code: 429 });
    expect(waits).toEqual([]);
  });

  it('passes other errors through untouched', async () => {
    const { calls, call } = setUp([{ ok: false, error_code: 400, description: 'Bad Request: chat not found' }]);
    expect(await call()).toMatchObject({ ok: false, error_code: 400 });
    expect(calls).toHaveLength(1);
  });
});
