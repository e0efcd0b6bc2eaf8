import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { sleep } from '../common/sleep.js';
import { StorageBusyError, StorageUnavailableError } from '../common/storage.errors.js';
import { storageErrorOf } from './driver-errors.js';
import type { WalDurability } from './wal-durability.js';

interface Unit {
  readonly write: boolean;
  readonly work: (em: EntityManager) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** The better-sqlite3 connection under TypeORM: its own word on whether a transaction is open. */
interface RawConnection {
  readonly inTransaction: boolean;
  exec(sql: string): unknown;
}

/** Transactions that share one COMMIT, at most. */
const MAX_GROUP = 64;

/**
 * A group's units run back to back on the event loop's thread: after this long, the group lets
 * the loop serve other work (sockets, timers) before its next unit, so a large group (the
 * progress saves of hundreds of replies) does not hold every stream's next delta.
 */
const SLICE_MS = 8;

interface GroupCommitOptions {
  /** How long a group waits for the write lock another process holds before failing (SQLITE_BUSY). */
  readonly busyTimeoutMs: number;
  /** Told how long each group took, from BEGIN to its durable COMMIT (metrics). */
  readonly onCommit?: (seconds: number) => void;
  /**
   * Set when the connection commits with `synchronous = NORMAL`: a group is answered once this
   * says its COMMIT is on disk, and the connection goes on with the next group meanwhile.
   * Without it, each COMMIT is durable when it returns (`synchronous = FULL`).
   */
  readonly durability?: WalDurability;
}

/**
 * The unit-of-work queue of a SQLite database, with group commit.
 *
 * better-sqlite3 gives TypeORM one connection, so units of work must run one at a time. A
 * durable COMMIT costs an fsync, which dominated a chat turn. So the write units waiting when
 * the connection frees up run back to back inside one SQLite transaction, each in a savepoint
 * of its own: a unit that throws is rolled back to its savepoint and fails alone, the others
 * commit together with one fsync. No caller hears of its unit before the COMMIT holding it is
 * durable. If the COMMIT itself fails, every unit of the group fails (none of them was stored).
 * With a WalDurability (the application's file database), that fsync runs off the event loop
 * while the next group already runs, and a read is answered only once what it saw is durable.
 *
 * The queue, not TypeORM, owns BEGIN, COMMIT and ROLLBACK, and it checks the connection itself
 * after every group: when SQLite has already rolled back (a full disk, an I/O error), TypeORM's
 * own bookkeeping would believe a transaction still open and nest every later unit in a
 * savepoint that is never committed. The connection always leaves a group outside any
 * transaction, so writes work again as soon as the cause is gone.
 *
 * The write lock is taken up front (BEGIN IMMEDIATE), so a lock held by another process is met
 * before any work, and waited for here asynchronously (the connection's own busy wait would
 * block the event loop).
 *
 * Units waiting together come from concurrent callers (a caller awaits each unit before its
 * next), so their order among themselves is free: reads (outside any transaction, so they only
 * see committed data) go first, then the writes in arrival order.
 */
export class GroupCommitQueue {
  private readonly pending: Unit[] = [];
  private draining = false;
  /** When the queue last let the event loop run (see SLICE_MS). */
  private sliceStart = 0;
  private readonly runner: QueryRunner;
  private readonly raw: RawConnection;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: GroupCommitOptions = { busyTimeoutMs: 5_000 },
  ) {
    // The better-sqlite3 driver has one query runner for its one connection.
    this.runner = dataSource.createQueryRunner();
    this.raw = (dataSource.driver as unknown as { databaseConnection: RawConnection }).databaseConnection;
  }

  /** Units of work waiting for the connection (not counting the group running now). */
  get depth(): number {
    return this.pending.length;
  }

  /** Waits for the WAL flush under way and lets go of the file; the connection closes after. */
  async close(): Promise<void> {
    await this.options.durability?.close();
  }

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(true, work);
  }

  read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(false, work);
  }

  private enqueue<T>(write: boolean, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ write, work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        void this.drain();
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        // Let requests whose input is ready enqueue their units first, so more of them share a COMMIT.
        await new Promise((resolve) => setImmediate(resolve));
        this.sliceStart = performance.now();
        const units = this.pending.splice(0);
        await this.runReads(units);
        const writes = units.filter((unit) => unit.write);
        for (let i = 0; i < writes.length; i += MAX_GROUP) await this.commitGroup(writes.slice(i, i + MAX_GROUP));
      }
    } finally {
      this.draining = false;
    }
  }

  /** Runs the read units among `units`, outside any transaction. */
  private async runReads(units: readonly Unit[]): Promise<void> {
    for (const unit of units) {
      if (unit.write) continue;
      try {
        const value = await unit.work(this.dataSource.manager);
        // What the read saw may include COMMITs still on their way to disk: answer once they are there.
        const barrier = this.options.durability?.barrier();
        if (barrier) barrier.then(() => unit.resolve(value), unit.reject);
        else unit.resolve(value);
      } catch (error) {
        unit.reject(error);
      }
    }
  }

  /** While a group waits for the write lock, reads that arrive meanwhile are served (WAL readers need no lock). */
  private async serveReadsWhileWaiting(): Promise<void> {
    const reads = this.pending.filter((unit) => !unit.write);
    if (reads.length === 0) return;
    this.pending.splice(0, this.pending.length, ...this.pending.filter((unit) => unit.write));
    await this.runReads(reads);
  }

  private async commitGroup(group: readonly Unit[]): Promise<void> {
    const outcomes: Array<{ ok: boolean; value: unknown }> = [];
    const start = performance.now();
    let durable: Promise<void> | undefined;
    try {
      // After a failed flush nothing more could be reported durable: store nothing more either.
      if (this.options.durability?.failed) await this.options.durability.barrier();
      await this.begin();
      const em = this.runner.manager;
      for (const unit of group) {
        if (performance.now() - this.sliceStart > SLICE_MS) {
          // Units that arrive meanwhile wait for the next group; the transaction stays open.
          await new Promise((resolve) => setImmediate(resolve));
          this.sliceStart = performance.now();
        }
        // A lone unit needs no savepoint: its failure rolls the whole transaction back.
        if (group.length === 1) {
          outcomes.push({ ok: true, value: await unit.work(em) });
        } else {
          await em.query('SAVEPOINT unit');
          try {
            const value = await unit.work(em);
            await em.query('RELEASE unit');
            outcomes.push({ ok: true, value });
          } catch (error) {
            // SQLite rolled the whole transaction back (a full disk, an I/O error): the group fails with this error.
            if (!this.raw.inTransaction) throw error;
            await em.query('ROLLBACK TO unit');
            await em.query('RELEASE unit');
            outcomes.push({ ok: false, value: error });
          }
        }
        // A unit that swallowed a full disk may have lost the transaction under it: then nothing of the group holds.
        if (!this.raw.inTransaction)
          throw new StorageUnavailableError('The transaction was rolled back by the database');
      }
      await this.runner.query('COMMIT');
      durable = this.options.durability?.committed();
    } catch (error) {
      const groupError = storageErrorOf(error) ?? error;
      // Nothing of the group was stored: a unit that failed on its own keeps its error, the others get the group's.
      group.forEach((unit, i) => unit.reject(outcomes[i] && !outcomes[i].ok ? outcomes[i].value : groupError));
      return;
    } finally {
      try {
        this.settle();
      } catch {
        // A ROLLBACK that fails now is tried again before the next group, which fails if it still cannot.
      }
    }
    const answer = () => {
      this.options.onCommit?.((performance.now() - start) / 1000);
      group.forEach((unit, i) => (outcomes[i].ok ? unit.resolve(outcomes[i].value) : unit.reject(outcomes[i].value)));
    };
    // Not awaited: the next group runs while this one's COMMIT is flushed.
    if (durable) durable.then(answer, (error: unknown) => group.forEach((unit) => unit.reject(error)));
    else answer();
  }

  /** BEGIN IMMEDIATE, waiting (without blocking the event loop) while another process holds the write lock. */
  private async begin(): Promise<void> {
    this.settle();
    const deadline = Date.now() + this.options.busyTimeoutMs;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      try {
        this.raw.exec('BEGIN IMMEDIATE');
        break;
      } catch (error) {
        if (!(storageErrorOf(error) instanceof StorageBusyError) || Date.now() >= deadline) throw error;
        await this.serveReadsWhileWaiting();
        await sleep(pause);
      }
    }
    // Units may use TypeORM calls that open a transaction of their own unless one is active: they nest in savepoints.
    this.bookkeeping(true);
  }

  /** Leaves the connection outside any transaction, whatever happened, with TypeORM told the same. */
  private settle(): void {
    try {
      if (this.raw.inTransaction) this.raw.exec('ROLLBACK');
    } finally {
      this.bookkeeping(false);
    }
  }

  private bookkeeping(active: boolean): void {
    const runner = this.runner as unknown as { isTransactionActive: boolean; transactionDepth: number };
    runner.isTransactionActive = active;
    runner.transactionDepth = active ? 1 : 0;
  }
}
