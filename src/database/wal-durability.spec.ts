import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { GroupCommitQueue } from './group-commit-queue.js';
import { StorageUnavailableError } from '../common/storage.errors.js';
import { WalDurability, deferWalFlushes, flushFile } from './wal-durability.js';

/** A flush the test finishes by hand, counting how many were started. */
function manualFlush() {
  const pending: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  return {
    started: () => pending.length,
    flush: () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject })),
    finish: (n: number) => pending[n].resolve(),
    fail: (n: number) => pending[n].reject(new Error('EIO: i/o error, fdatasync')),
  };
}
const settled = async <T>(p: Promise<T>) => {
  let state = 'pending';
  p.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  await new Promise((r) => setImmediate(r));
  return state;
};

describe('WalDurability', () => {
  it('answers a COMMIT only after a flush that started after it; two flushes run at once, and one covers every COMMIT before it', async () => {
    const f = manualFlush();
    const d = new WalDurability(f.flush);
    const first = d.committed();
    expect(f.started()).toBe(1);
    // Written while the first flush runs: that flush may not hold it, so a second one starts.
    const second = d.committed();
    expect(f.started()).toBe(2);
    // Two run already: these wait for the next one.
    const third = d.committed();
    const fourth = d.committed();
    expect(f.started()).toBe(2);
    f.finish(0);
    expect(await settled(first)).toBe('resolved');
    expect(await settled(second)).toBe('pending');
    expect(f.started()).toBe(3);
    // The third flush began after every COMMIT so far: ending first, it makes all of them durable.
    f.finish(2);
    expect(await settled(second)).toBe('resolved');
    expect(await settled(third)).toBe('resolved');
    expect(await settled(fourth)).toBe('resolved');
    f.finish(1);
    expect(f.started()).toBe(3);
    await d.close();
  });

  it('gives a read no barrier when everything it could see is durable, and one that waits otherwise', async () => {
    const f = manualFlush();
    const d = new WalDurability(f.flush);
    expect(d.barrier()).toBeNull();
    void d.committed();
    const barrier = d.barrier()!;
    expect(await settled(barrier)).toBe('pending');
    f.finish(0);
    expect(await settled(barrier)).toBe('resolved');
    expect(d.barrier()).toBeNull();
  });

  it('after a failed flush reports no COMMIT durable again, later ones included', async () => {
    const f = manualFlush();
    const d = new WalDurability(f.flush);
    const first = d.committed();
    f.fail(0);
    await expect(first).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(first).rejects.toThrow(/could not flush its log to disk: EIO/);
    expect(d.failed).toBe(true);
    await expect(d.committed()).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(d.barrier()).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(f.started()).toBe(1);
  });
});

describe('GroupCommitQueue with deferred WAL flushes', () => {
  let dir: string;
  let ds: DataSource;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wal-durability-'));
    ds = await new DataSource({
      type: 'better-sqlite3',
      database: join(dir, 'db.sqlite'),
      enableWAL: true,
    }).initialize();
    await ds.query('CREATE TABLE item (id INTEGER PRIMARY KEY)');
  });
  afterEach(async () => {
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('flushes the WAL file that exists, and fails when there is none to flush', async () => {
    await ds.query('INSERT INTO item (id) VALUES (1)');
    const flush = flushFile(join(dir, 'db.sqlite-wal'));
    await expect(flush()).resolves.toBeUndefined();
    await expect(flush()).resolves.toBeUndefined();
    await flush.close!();
    await expect(flushFile(join(dir, 'missing.sqlite-wal'))()).rejects.toThrow(/ENOENT/);
  });

  it('switches a WAL file database to synchronous NORMAL, and leaves an in-memory one alone', async () => {
    expect(deferWalFlushes(ds)).toBeInstanceOf(WalDurability);
    expect(await ds.query('PRAGMA synchronous')).toEqual([{ synchronous: 1 }]);
    const memory = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    try {
      expect(deferWalFlushes(memory)).toBeUndefined();
      expect(await memory.query('PRAGMA synchronous')).toEqual([{ synchronous: 2 }]);
    } finally {
      await memory.destroy();
    }
  });

  it('answers a write once its flush is done, runs the next group meanwhile, and holds a read of it until then', async () => {
    const f = manualFlush();
    const queue = new GroupCommitQueue(ds, { busyTimeoutMs: 1_000, durability: new WalDurability(f.flush) });
    const insert = (id: number) =>
      queue.transaction((em) => em.query('INSERT INTO item (id) VALUES (?)', [id]).then(() => id));
    const first = insert(1);
    while (f.started() < 1) await new Promise((r) => setImmediate(r));
    expect(await settled(first)).toBe('pending');
    // The next group commits while the first one's flush is still running.
    const second = insert(2);
    // Reads waiting with a write go first: this one sees the first row only.
    const earlyRead = queue.read((em) => em.query('SELECT count(*) AS n FROM item'));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(await ds.query('SELECT id FROM item ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
    const lateRead = queue.read((em) => em.query('SELECT count(*) AS n FROM item'));
    expect(await settled(earlyRead)).toBe('pending');
    f.finish(0);
    expect(await first).toBe(1);
    expect(await earlyRead).toEqual([{ n: 1 }]);
    expect(await settled(second)).toBe('pending');
    expect(await settled(lateRead)).toBe('pending');
    f.finish(1);
    expect(await second).toBe(2);
    expect(await lateRead).toEqual([{ n: 2 }]);
  });

  it('fails the writes of a group whose flush failed, and stores nothing more afterwards', async () => {
    const f = manualFlush();
    const queue = new GroupCommitQueue(ds, { busyTimeoutMs: 1_000, durability: new WalDurability(f.flush) });
    const insert = (id: number) => queue.transaction((em) => em.query('INSERT INTO item (id) VALUES (?)', [id]));
    const first = insert(1);
    while (f.started() < 1) await new Promise((r) => setImmediate(r));
    f.fail(0);
    await expect(first).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(insert(2)).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(await ds.query('SELECT id FROM item ORDER BY id')).toEqual([{ id: 1 }]);
  });
});
