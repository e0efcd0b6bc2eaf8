import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SerialQueue } from './serial-queue.js';

/**
 * The only way the repositories reach the database.
 *
 * better-sqlite3 gives TypeORM a single connection, so two transactions (or a read while
 * another request's transaction is open between awaits) would share it and corrupt each
 * other. On SQLite every unit of work therefore goes through one in-process queue; each unit
 * is a few indexed statements, so the queue costs microseconds, and no unit ever waits on the
 * model. PostgreSQL has a pool of connections and row locks: units run concurrently.
 */
@Injectable()
export class DatabaseService {
  private readonly queue: SerialQueue | null;

  constructor(private readonly dataSource: DataSource) {
    this.queue = dataSource.options.type === 'postgres' ? null : new SerialQueue();
  }

  /** Runs `work` in a transaction: all of it commits, or none of it. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.run(() => this.dataSource.transaction(work));
  }

  /** Runs read-only `work`; it sees only committed data. */
  read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.run(() => work(this.dataSource.manager));
  }

  private run<T>(job: () => Promise<T>): Promise<T> {
    return this.queue ? this.queue.run(job) : job();
  }

  async ping(): Promise<void> {
    await this.read((em) => em.query('SELECT 1'));
  }
}
