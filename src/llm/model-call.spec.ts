import { getEventListeners } from 'node:events';
import v8 from 'node:v8';
import vm from 'node:vm';
import { APIError } from 'openai';
import { ModelCall, retryAfterSeconds } from './model-call.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

async function collectGarbage(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
}

describe('ModelCall', () => {
  it('leaves nothing behind once a call ends: its signal is collectable and the caller keeps no listener', async () => {
    const caller = new AbortController();
    const signals: WeakRef<AbortSignal>[] = [];
    for (let i = 0; i < 200; i++) {
      const call = new ModelCall(60_000, caller.signal);
      // The SDK listens on the signal it is given, as fetch does.
      call.signal.addEventListener('abort', () => undefined);
      signals.push(new WeakRef(call.signal));
      call.end();
    }
    await collectGarbage();
    expect(signals.filter((s) => s.deref() !== undefined).length).toBeLessThan(5);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('aborts when the caller aborts, with the caller as the reason for the failure', () => {
    const caller = new AbortController();
    const call = new ModelCall(60_000, caller.signal);
    caller.abort();
    expect(call.signal.aborted).toBe(true);
    expect(call.failure(new Error('aborted')).constructor.name).toBe('ModelCancelledError');
    call.end();
  });

  it('aborts on its deadline', async () => {
    const call = new ModelCall(10);
    await new Promise((resolve) => call.signal.addEventListener('abort', resolve));
    expect(call.failure(new Error('aborted')).constructor.name).toBe('ModelTimeoutError');
    call.end();
  });

  it('is aborted from the start when the caller already was', () => {
    const caller = new AbortController();
    caller.abort();
    const call = new ModelCall(60_000, caller.signal);
    expect(call.signal.aborted).toBe(true);
    call.end();
  });

  it("says an upstream 429 is a rate limit, with the server's Retry-After", () => {
    const call = new ModelCall(60_000);
    const limited = (headers: Record<string, string>) =>
      call.failure(APIError.generate(429, { error: { message: 'slow down' } }, undefined, new Headers(headers)));
    expect(limited({ 'retry-after': '20' })).toMatchObject({
      code: 'model_unavailable',
      upstreamStatus: 429,
      message: 'The model is rate-limited: its server answered 429 (too many requests); retry in 20 s',
    });
    expect(limited({}).message).toBe(
      'The model is rate-limited: its server answered 429 (too many requests); retry later',
    );
    call.end();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-12-04T10:00:00Z');
    expect(retryAfterSeconds(new Headers({ 'retry-after': '7' }), now)).toBe(7);
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'Fri, 04 Dec 2026 10:00:30 GMT' }), now)).toBe(30);
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
