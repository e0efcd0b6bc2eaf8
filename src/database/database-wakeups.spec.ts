import type { DataSource } from 'typeorm';
import { DatabaseWakeups } from './database-wakeups.js';

/** SQLite's wake-ups: in-process, from the writer once its commit is durable. */
describe('DatabaseWakeups (SQLite: in-process)', () => {
  const sqlite = { options: { type: 'better-sqlite3' } } as unknown as DataSource;
  let wakeups: DatabaseWakeups;
  beforeEach(() => (wakeups = new DatabaseWakeups(sqlite)));

  it('is live, and hands a waiting subscriber the committed text', async () => {
    expect(wakeups.live).toBe(true);
    const sub = wakeups.subscribe('reply-1');
    const next = sub.next(60_000);
    wakeups.committed('reply-1', 'Hello');
    await expect(next).resolves.toEqual({ content: 'Hello' });
    sub.close();
  });

  it('keeps a wake that came while nobody waited (the latest wins), so a read-then-wait misses nothing', async () => {
    const sub = wakeups.subscribe('reply-1');
    wakeups.committed('reply-1', 'Hel');
    wakeups.committed('reply-1', 'Hello');
    await expect(sub.next(60_000)).resolves.toEqual({ content: 'Hello' });
    // A later wake without text (the reply ended) supersedes the text: read the row.
    wakeups.committed('reply-1', 'Hello there');
    wakeups.committed('reply-1');
    await expect(sub.next(60_000)).resolves.toEqual({});
    sub.close();
  });

  it('wakes every subscriber of the key and no other', async () => {
    const a = wakeups.subscribe('reply-1');
    const b = wakeups.subscribe('reply-1');
    const other = wakeups.subscribe('reply-2');
    const waits = [a.next(60_000), b.next(60_000)];
    wakeups.committed('reply-1', 'x');
    await expect(Promise.all(waits)).resolves.toEqual([{ content: 'x' }, { content: 'x' }]);
    await expect(other.next(20)).resolves.toBeNull();
    [a, b, other].forEach((s) => s.close());
  });

  it('answers null after the timeout or on abort, and forgets closed subscribers', async () => {
    const sub = wakeups.subscribe('reply-1');
    await expect(sub.next(10)).resolves.toBeNull();
    const stop = new AbortController();
    const waiting = sub.next(60_000, stop.signal);
    stop.abort();
    await expect(waiting).resolves.toBeNull();
    expect(wakeups.size).toBe(1);
    sub.close();
    expect(wakeups.size).toBe(0);
    // Waking a key nobody follows costs nothing and keeps nothing.
    wakeups.committed('reply-1', 'late');
    expect(wakeups.size).toBe(0);
  });

  it("sends nothing in a transaction (the NOTIFY is PostgreSQL's)", async () => {
    const queries: unknown[] = [];
    await wakeups.notifyIn({ query: async (...args: unknown[]) => queries.push(args) } as never, 'reply-1');
    expect(queries).toEqual([]);
  });
});
