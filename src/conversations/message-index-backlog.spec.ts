import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { DatabaseService } from '../database/database.service.js';
import { MessageIndexBacklog } from './message-index-backlog.js';

/**
 * A database holding `waiting` noted rows: reads and transactions run their work at once, and a
 * read's answer reaches its caller only when `gate` (if set) opens, as a slow queue would.
 */
function fakeDatabase() {
  const state = {
    waiting: [] as number[],
    reads: 0,
    indexed: [] as number[],
    gate: null as Promise<void> | null,
    failNext: false,
  };
  const em = {
    async query(sql: string, params: unknown[] = []): Promise<unknown> {
      if (sql.includes('EXISTS')) return [{ waiting: state.waiting.length > 0 ? 1 : 0 }];
      if (sql.startsWith('WITH b')) {
        const batch = state.waiting.slice(0, 2_000);
        return batch.length ? [{ n: batch.length, actor: 'api:a', last: Math.max(...batch) }] : [];
      }
      const last = Number(params[1]);
      if (sql.startsWith('INSERT')) state.indexed.push(...state.waiting.filter((k) => k <= last));
      if (sql.startsWith('DELETE')) state.waiting = state.waiting.filter((k) => k > last);
      return [];
    },
  } as unknown as EntityManager;
  const db = {
    async read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
      state.reads++;
      const result = await work(em);
      if (state.gate) await state.gate;
      return result;
    },
    async transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
      if (state.failNext) {
        state.failNext = false;
        throw new Error('database or disk is full');
      }
      return work(em);
    },
  } as unknown as DatabaseService;
  const dataSource = { options: { type: 'better-sqlite3' } } as unknown as DataSource;
  return { state, backlog: new MessageIndexBacklog(db, dataSource) };
}

describe('MessageIndexBacklog', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'warn', 'error']));

  it('indexes the noted rows, and one read is all it costs when none waits', async () => {
    const { state, backlog } = fakeDatabase();
    await backlog.catchUp();
    expect(state.reads).toBe(1);
    state.waiting = [3, 4];
    await backlog.catchUp();
    expect(state.indexed).toEqual([3, 4]);
    expect(state.waiting).toEqual([]);
  });

  it('a catch-up asked while one runs runs again after it, so it sees the writes before it was asked', async () => {
    const { state, backlog } = fakeDatabase();
    let open!: () => void;
    state.gate = new Promise<void>((resolve) => (open = resolve));
    const first = backlog.catchUp();
    // The first has read that nothing waits; a row is written and a search asks.
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.reads).toBe(1);
    state.waiting = [7];
    const second = backlog.catchUp();
    expect(second).not.toBe(first);
    state.gate = null;
    open();
    await second;
    expect(state.indexed).toEqual([7]);
    expect(state.reads).toBe(2);
  });

  it('callers that ask before a catch-up starts share it', async () => {
    const { state, backlog } = fakeDatabase();
    state.waiting = [1];
    const [a, b] = [backlog.catchUp(), backlog.catchUp()];
    expect(b).toBe(a);
    await a;
    expect(state.reads).toBe(1);
    expect(state.indexed).toEqual([1]);
  });

  it('never fails its callers: a failed batch waits for the next catch-up', async () => {
    const { state, backlog } = fakeDatabase();
    state.waiting = [5];
    state.failNext = true;
    await expect(backlog.catchUp()).resolves.toBeUndefined();
    expect(state.waiting).toEqual([5]);
    await backlog.catchUp();
    expect(state.indexed).toEqual([5]);
  });

  it('lets a catch-up under way end before the database closes, and starts none after', async () => {
    const { state, backlog } = fakeDatabase();
    let open!: () => void;
    state.gate = new Promise<void>((resolve) => (open = resolve));
    state.waiting = [5];
    void backlog.catchUp();
    await new Promise((resolve) => setImmediate(resolve));
    let closed = false;
    const closing = backlog.onModuleDestroy().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false); // the database closes after every onModuleDestroy: not yet
    open();
    await closing;
    expect(state.indexed).toEqual([5]);
    state.waiting = [6];
    await backlog.catchUp();
    expect(state.indexed).toEqual([5]);
    expect(state.reads).toBe(1);
  });
});
