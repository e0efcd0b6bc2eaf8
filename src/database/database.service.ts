import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GroupCommitQueue } from './group-commit-queue.js';

/**
 * The only way the repositories reach the database.
 *
 * better-sqlite3 gives TypeORM a single connection, so two transactions (or a read while
 * another request's transaction is open between awaits) would share it and corrupt each
 * other. On SQLite every unit of work therefore goes through one in-process queue, which lets
 * the transactions waiting together share one COMMIT (GroupCommitQueue); each unit is a few
 * indexed statements, and no unit ever waits on the model. PostgreSQL has a pool of
 * connections and row locks: units run concurrently.
 */
@Injectable()
export class DatabaseService {
  private readonly queue: GroupCommitQueue | null;

  constructor(private readonly dataSource: DataSource) {
    this.queue = dataSource.options.type === 'postgres' ? null : new GroupCommitQueue(dataSource);
  }

  /**
   * Runs `work` in a transaction: all of it commits, or none of it, and the returned promise
   * settles only once the commit is durable. `work` must not start another unit of work.
   */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.queue ? this.queue.transaction(work) : this.dataSource.transaction(work);
  }

  /** Runs read-only `work`; it sees only committed data. */
  read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.queue ? this.queue.read(work) : work(this.dataSource.manager);
  }

  /**
   * Runs `work`, a single write statement, on its own: on PostgreSQL it commits by itself,
   * without the round trips of BEGIN and COMMIT (for counters on the hot path); on SQLite it
   * is a unit of work like any other.
   */
  statement<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.queue ? this.queue.transaction(work) : work(this.dataSource.manager);
  }

  async ping(): Promise<void> {
    await this.read((em) => em.query('SELECT 1'));
  }
}
