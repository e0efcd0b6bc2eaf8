/**
 * Waits `ms`, or less if `signal` aborts first. It never rejects (callers check the signal),
 * and removes its abort listener, so a long loop of sleeps on one signal does not pile them up.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
