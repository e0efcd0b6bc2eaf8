import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { GroupCommitQueue } from './group-commit-queue.js';
import { failNextCommits, rawConnection } from '../../test/support/storage-faults.js';

/** The queue on a real SQLite file: what is stored, what each caller is told, how units group. */
describe('GroupCommitQueue', () => {
  let dir: string;
  let ds: DataSource;
  let queue: GroupCommitQueue;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    ds = await new DataSource({
      type: 'better-sqlite3',
      database: join(dir, 'db.sqlite'),
      enableWAL: true,
    }).initialize();
    await ds.query('PRAGMA foreign_keys = ON');
    await ds.query('CREATE TABLE parent (id INTEGER PRIMARY KEY)');
    // Checked at COMMIT, not per statement: lets a test make a COMMIT fail.
    await ds.query(
      'CREATE TABLE item (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)',
    );
    queue = new GroupCommitQueue(ds);
  });
  afterEach(async () => {
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What is committed: read through a connection of its own, which never sees another's open transaction. */
  const ids = async () => {
    const other = await new DataSource({
      type: 'better-sqlite3',
      database: join(dir, 'db.sqlite'),
      readonly: true,
    }).initialize();
    try {
      return ((await other.query('SELECT id FROM item ORDER BY id')) as Array<{ id: number }>).map((r) => r.id);
    } finally {
      await other.destroy();
    }
  };
  const insert = (id: number) =>
    queue.transaction((em) => em.query('INSERT INTO item (id) VALUES (?)', [id]).then(() => id));

  /** The COMMITs the queue issues, counted on the connection's query runner. */
  const commits = () => {
    const query = jest.spyOn(ds.createQueryRunner(), 'query');
    return () => query.mock.calls.filter(([sql]) => sql === 'COMMIT').length;
  };

  it('runs the writes that wait together in one transaction, and answers each caller with its own result', async () => {
    const committed = commits();
    const results = await Promise.all([1, 2, 3, 4, 5].map(insert));
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(committed()).toBe(1);
    expect(await ids()).toEqual([1, 2, 3, 4, 5]);
  });

  it('lets the event loop run between the units of a long group, still committing them once', async () => {
    const committed = commits();
    const order: string[] = [];
    // Each unit holds the thread for about 3 ms, as a large batch of statements would.
    const slow = (id: number) =>
      queue.transaction(async (em) => {
        const until = performance.now() + 3;
        while (performance.now() < until);
        await em.query('INSERT INTO item (id) VALUES (?)', [id]);
        order.push(`unit ${id}`);
      });
    const units = Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(slow));
    setImmediate(() => order.push('other work'));
    await units;
    expect(committed()).toBe(1);
    // Other work ran after some units of the group and before its last.
    const at = order.indexOf('other work');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(order.length - 1);
    expect(await ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('rolls back only the unit that failed; the others of its group are stored', async () => {
    const failing = queue.transaction(async (em) => {
      await em.query('INSERT INTO item (id) VALUES (?)', [20]);
      throw new Error('this unit fails after writing');
    });
    const outcomes = await Promise.allSettled([insert(10), failing, insert(30)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('this unit fails after writing');
    expect(await ids()).toEqual([10, 30]);
  });

  it('fails every unit of a group whose COMMIT fails, and stores none of them', async () => {
    const orphan = queue.transaction((em) => em.query('INSERT INTO item (id, parent_id) VALUES (2, 999)'));
    const outcomes = await Promise.allSettled([insert(1), orphan, insert(3)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(await ids()).toEqual([]);
    // The queue carries on.
    await insert(4);
    expect(await ids()).toEqual([4]);
  });

  it('fails a lone unit with its own error and keeps nothing of it', async () => {
    const lone = queue.transaction(async (em) => {
      await em.query('INSERT INTO item (id) VALUES (7)');
      throw new Error('lone failure');
    });
    await expect(lone).rejects.toThrow('lone failure');
    expect(await ids()).toEqual([]);
  });

  it('answers a writer only after its COMMIT: another connection sees its row by then', async () => {
    let committedWhenResolved: number[] | undefined;
    const write = insert(1).then(async () => {
      committedWhenResolved = await ids();
    });
    await write;
    expect(committedWhenResolved).toEqual([1]);
  });

  it('runs reads outside the write transaction, so they never see uncommitted rows, and a failing read does not stop the queue', async () => {
    let seenInside: number[] | undefined;
    const slowWrite = queue.transaction(async (em) => {
      await em.query('INSERT INTO item (id) VALUES (1)');
      return new Promise((resolve) => setTimeout(resolve, 20));
    });
    const throwing = queue.read(() => {
      throw new Error('read failed synchronously');
    });
    const read = queue.read(async (em) => {
      seenInside = (await em.query('SELECT id FROM item')).map((r: { id: number }) => r.id);
    });
    const outcomes = await Promise.allSettled([slowWrite, throwing, read]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // Reads waiting with the write ran before it: they saw the table as committed then.
    expect(seenInside).toEqual([]);
    expect(await queue.read(async (em) => (await em.query('SELECT COUNT(*) AS n FROM item'))[0].n)).toBe(1);
  });

  it('keeps groups bounded: 150 waiting writes take three commits', async () => {
    const committed = commits();
    await Promise.all(Array.from({ length: 150 }, (_, i) => insert(i + 1)));
    expect(committed()).toBe(3);
    expect((await ids()).length).toBe(150);
  });

  /** The queue's connection, as better-sqlite3 sees it. */
  const raw = () => rawConnection(ds);

  it.each(['SQLITE_FULL', 'SQLITE_IOERR_WRITE'])(
    'after COMMITs that fail with %s the connection is outside any transaction, and later units are really committed',
    async (code) => {
      failNextCommits(ds, code, ['rolled back', 'kept open']);
      await expect(insert(1)).rejects.toBeDefined();
      await expect(insert(2)).rejects.toBeDefined();
      expect(raw().inTransaction).toBe(false);
      // TypeORM must not count a transaction still open, or it nests these in a savepoint that is never committed.
      for (let i = 10; i < 15; i++) await insert(i);
      expect(raw().inTransaction).toBe(false);
      expect(await ids()).toEqual([10, 11, 12, 13, 14]);
    },
  );

  it('a unit that fills the database fails its whole group as storage_full (SQLite rolls it all back), and the queue carries on', async () => {
    await ds.query('CREATE TABLE blob (b BLOB)');
    const [{ page_count }] = await ds.query('PRAGMA page_count');
    await ds.query(`PRAGMA max_page_count = ${page_count + 2}`);
    const big = queue.transaction((em) => em.query('INSERT INTO blob (b) VALUES (zeroblob(1000000))'));
    const outcomes = await Promise.allSettled([insert(1), big, insert(2)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const o of outcomes) expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'storage_full' });
    expect(raw().inTransaction).toBe(false);
    expect(await ids()).toEqual([]);
    await insert(3);
    expect(await ids()).toEqual([3]);
  });

  it('waits for a write lock held by another connection, serving reads meanwhile', async () => {
    // As the application sets it: short, since better-sqlite3 waits synchronously.
    await ds.query('PRAGMA busy_timeout = 10');
    const other = await new DataSource({ type: 'better-sqlite3', database: join(dir, 'db.sqlite') }).initialize();
    try {
      const otherRaw = rawConnection(other);
      otherRaw.exec('BEGIN IMMEDIATE');
      let written = false;
      const write = insert(1).then(() => (written = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await queue.read(async (em) => (await em.query('SELECT COUNT(*) AS n FROM item'))[0].n)).toBe(0);
      expect(written).toBe(false);
      otherRaw.exec('COMMIT');
      await write;
      expect(await ids()).toEqual([1]);
    } finally {
      await other.destroy();
    }
  });

  it('gives up on a write lock held past its wait with a busy error, and stores nothing', async () => {
    await ds.query('PRAGMA busy_timeout = 10');
    const short = new GroupCommitQueue(ds, { busyTimeoutMs: 100 });
    const other = await new DataSource({ type: 'better-sqlite3', database: join(dir, 'db.sqlite') }).initialize();
    try {
      const otherRaw = rawConnection(other);
      otherRaw.exec('BEGIN IMMEDIATE');
      await expect(short.transaction((em) => em.query('INSERT INTO item (id) VALUES (1)'))).rejects.toMatchObject({
        code: 'storage_busy',
      });
      otherRaw.exec('ROLLBACK');
      expect(await ids()).toEqual([]);
    } finally {
      await other.destroy();
    }
  });
});
