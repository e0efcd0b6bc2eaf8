import { Inject, Injectable, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Metrics, NO_METRICS, secondsSince } from '../metrics/metrics.js';
import { isPostgres } from './dialect.js';
import { GroupCommitQueue } from './group-commit-queue.js';
import { ReadReplicas } from './read-replicas.js';
import type { StorageError } from '../common/storage.errors.js';
import { storageErrorOf } from './driver-errors.js';
import { deferWalFlushes } from './wal-durability.js';

/** How long another process may hold SQLite's write lock before a unit of work fails as busy (SQLITE_BUSY_TIMEOUT_MS). */
export const SQLITE_BUSY_TIMEOUT_MS = Symbol('SQLITE_BUSY_TIMEOUT_MS');
/** How often, at most, a database seen failing to write is tried again by the readiness check. */
const PROBE_INTERVAL_MS = 2_000;

export interface DatabaseHealth {
  /** The database answers a read. */
  readonly reachable: boolean;
  /** The last write (or a probe since) succeeded. */
  readonly writable: boolean;
}

/**
 * The only way the repositories reach the database.
 *
 * better-sqlite3 gives TypeORM a single connection, so two transactions (or a read while
 * another request's transaction is open between awaits) would share it and corrupt each
 * other. On SQLite every unit of work therefore goes through one in-process queue, which lets
 * the transactions waiting together share one COMMIT (GroupCommitQueue); each unit is a few
 * indexed statements, and no unit ever waits on the model. PostgreSQL has a pool of
 * connections and row locks: units run concurrently.
 *
 * Failures of the database itself (full, unreachable, locked by another process) reach callers
 * as StorageErrors, and a failed write makes the database count as not writable until a write
 * succeeds again (the readiness check tries one now and then, so it recovers without traffic).
 */
@Injectable()
export class DatabaseService implements OnApplicationShutdown {
  private readonly queue: GroupCommitQueue | null;
  private writeFailure: StorageError | null = null;
  private probe: Promise<void> | null = null;
  private lastProbeAt = 0;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(SQLITE_BUSY_TIMEOUT_MS) busyTimeoutMs: number,
    @Optional() private readonly metrics: Metrics = NO_METRICS,
    @Optional() private readonly replicas?: ReadReplicas,
  ) {
    this.queue = isPostgres(dataSource)
      ? null
      : new GroupCommitQueue(dataSource, {
          busyTimeoutMs,
          onCommit: (seconds) => metrics.committed(seconds),
          durability: deferWalFlushes(dataSource),
        });
    const queue = this.queue;
    metrics.watchQueueDepth(() => queue?.depth ?? 0);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close();
  }

  /**
   * Runs `work` in a transaction: all of it commits, or none of it, and the returned promise
   * settles only once the commit is durable. `work` must not start another unit of work.
   */
  async transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    try {
      const result = await (this.queue ? this.queue.transaction(work) : this.timedTransaction(work));
      this.writeFailure = null;
      return result;
    } catch (error) {
      const storage = storageErrorOf(error);
      if (storage) this.writeFailure = storage;
      throw storage ?? error;
    }
  }

  /** PostgreSQL: the whole transaction, BEGIN to COMMIT, is what a caller waits for. */
  private async timedTransaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const start = performance.now();
    const result = await this.dataSource.transaction(work);
    this.metrics.committed(secondsSince(start));
    return result;
  }

  /** Runs read-only `work`; it sees only committed data. */
  async read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await (this.queue ? this.queue.read(work) : work(this.dataSource.manager));
    } catch (error) {
      throw storageErrorOf(error) ?? error;
    }
  }

  /**
   * Runs read-only `work` for `actor` on a read replica when one holds every write of that
   * actor's and lags within DATABASE_READ_MAX_LAG_MS (read-replicas.ts), else on the primary.
   * For what a caller lists, searches, exports and pages through: never inside a turn or a
   * write, and never for a read whose answer decides a write. If the replica fails, the read is
   * run again on the primary (a read has no effect to repeat).
   */
  async replicaRead<T>(actor: string, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.onReplica(this.replicas?.managerFor(actor) ?? null, work);
  }

  /**
   * Runs read-only `work` that must see every write committed before `asOf` (a
   * performance.now() reading: followers woken by a commit) on a read replica that holds them,
   * else on the primary; as `replicaRead`, a failed replica read is run again on the primary.
   */
  async replicaReadAsOf<T>(asOf: number, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.onReplica(this.replicas?.enabled ? await this.replicas.managerAsOf(asOf) : null, work);
  }

  private async onReplica<T>(
    replica: { manager: EntityManager; replica: number } | null,
    work: (em: EntityManager) => Promise<T>,
  ): Promise<T> {
    if (!replica) {
      if (this.replicas?.enabled) this.metrics.replicaRoutedRead('primary');
      return this.read(work);
    }
    try {
      const result = await work(replica.manager);
      this.metrics.replicaRoutedRead('replica');
      return result;
    } catch (error) {
      if (isConnectionFailure(error)) this.replicas!.failed(replica.replica, error);
      // Whatever failed there (a lost connection, a query cancelled by the replay, a row not
      // replayed yet), the primary answers for itself.
      this.metrics.replicaRoutedRead('primary');
      return this.read(work);
    }
  }

  /**
   * Runs `work`, a single write statement, on its own: on PostgreSQL it commits by itself,
   * without the round trips of BEGIN and COMMIT (for counters and a reply's final save on the
   * hot path), and has returned only once it is committed; on SQLite it is a unit of work like
   * any other.
   */
  async statement<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    if (this.queue) return this.transaction(work);
    try {
      const start = performance.now();
      const result = await work(this.dataSource.manager);
      // An autocommitted statement is a transaction of its own: it counts as a commit.
      this.metrics.committed(secondsSince(start));
      this.writeFailure = null;
      return result;
    } catch (error) {
      const storage = storageErrorOf(error);
      if (storage) this.writeFailure = storage;
      throw storage ?? error;
    }
  }

  async ping(): Promise<void> {
    await this.read((em) => em.query('SELECT 1'));
  }

  /** Whether the database answers, and whether it takes writes (tried again if the last write failed). */
  async health(): Promise<DatabaseHealth> {
    try {
      await this.ping();
    } catch {
      return { reachable: false, writable: false };
    }
    if (this.writeFailure && Date.now() - this.lastProbeAt >= PROBE_INTERVAL_MS) {
      this.probe ??= this.probeWrite().finally(() => {
        this.lastProbeAt = Date.now();
        this.probe = null;
      });
      await this.probe;
    }
    return { reachable: true, writable: this.writeFailure === null };
  }

  /** A write that needs a fresh page and a durable commit, undone in the same transaction. */
  private async probeWrite(): Promise<void> {
    await this.transaction(async (em) => {
      await em.query(
        `INSERT INTO storage_probe (id, filler) VALUES (1, ${this.queue ? 'zeroblob(8192)' : "'\\x00'::bytea"})`,
      );
      await em.query('DELETE FROM storage_probe WHERE id = 1');
    }).catch(() => undefined);
  }
}

/** Errors of the connection rather than of the query: no SQLSTATE, or class 08 (connection) or 57P (shutdown). */
function isConnectionFailure(error: unknown): boolean {
  const code =
    (error as { code?: unknown; driverError?: { code?: unknown } }).driverError?.code ??
    (error as { code?: unknown }).code;
  return typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code) || code.startsWith('08') || code.startsWith('57P');
}
