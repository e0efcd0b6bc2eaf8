import { getEventListeners } from 'node:events';
import v8 from 'node:v8';
import vm from 'node:vm';
import { ModelCall } from './model-call.js';

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
});
