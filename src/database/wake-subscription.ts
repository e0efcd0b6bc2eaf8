/** What woke a subscriber: on SQLite the committed text itself, so an in-process follower needs no read. */
export interface Wake {
  /** The row's committed text, when the waker had it at hand; absent: read the row. */
  readonly content?: string;
}

/**
 * One waiter's view of wake-ups for one key (a reply's id). It latches: a wake that comes while
 * nobody waits is kept (the latest one wins) and returned by the next `next()`, so a follower
 * that reads the row and then waits misses nothing committed in between.
 */
export class WakeSubscription {
  private latched: Wake | null = null;
  private waiting: ((wake: Wake | null) => void) | null = null;

  constructor(private readonly onClose: (subscription: WakeSubscription) => void) {}

  /** Resolves with the next wake (at once if one came since the last call), or null after `timeoutMs` or on abort. */
  next(timeoutMs: number, signal?: AbortSignal): Promise<Wake | null> {
    if (this.latched) {
      const wake = this.latched;
      this.latched = null;
      return Promise.resolve(wake);
    }
    if (signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (wake: Wake | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting = null;
        resolve(wake);
      };
      const onAbort = () => done(null);
      const timer = setTimeout(() => done(null), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting = done;
    });
  }

  /** Called by the fan-out. A later wake supersedes an earlier one (the text only grows, or is to be read). */
  deliver(wake: Wake): void {
    if (this.waiting) this.waiting(wake);
    else this.latched = wake;
  }

  close(): void {
    this.waiting?.(null);
    this.onClose(this);
  }
}
