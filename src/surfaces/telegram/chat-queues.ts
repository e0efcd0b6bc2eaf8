/**
 * One queue per chat: jobs of a chat run one after another in the order they were added,
 * while different chats run side by side (one user's slow reply never holds up another's).
 * A failing job does not stop its queue. Only ordering lives here; what was received is in
 * the database (see TelegramIntake).
 */
export class ChatQueues {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly running = new Set<Promise<void>>();

  /** Adds `job` behind the jobs already queued for `key`. */
  enqueue(key: string | number, job: () => Promise<void>): void {
    const name = String(key);
    const previous = this.tails.get(name) ?? Promise.resolve();
    const next = previous.then(job).catch(() => undefined);
    this.tails.set(name, next);
    this.running.add(next);
    void next.then(() => {
      this.running.delete(next);
      // Forget idle chats, so the map holds only chats with work.
      if (this.tails.get(name) === next) this.tails.delete(name);
    });
  }

  /** How many jobs are queued or running. */
  get size(): number {
    return this.running.size;
  }

  /** Resolves when every job queued so far has finished, or after `timeoutMs`; true if all finished. */
  async drain(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const all = (async () => {
      // Jobs may queue more jobs (a chat's next update) while we wait.
      while (this.running.size > 0) await Promise.allSettled([...this.running]);
      return true as const;
    })();
    try {
      return await Promise.race([all, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
