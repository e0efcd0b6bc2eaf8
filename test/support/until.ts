/** Polls `check` until it holds; fails the test after `ms` instead of hanging it. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000, everyMs = 10): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A promise and the function that resolves it: lets a test hold a fake model's answer. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
