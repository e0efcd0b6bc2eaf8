import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SerialQueue } from './serial-queue.js';

/**
 * The only way the repositories reach the database.
 *
 * better-sqlite3 gives TypeORM a single connection, so two transactions (or a read while
 * another request's transaction is open between awaits) would share it and corrupt each
 * other. Every unit of work therefore goes through one in-process queue. Each unit is a few
 * indexed statements, so the queue costs microseconds; no unit ever waits on the model.
 */
@Injectable()
export class DatabaseService {
  private readonly queue = new SerialQueue();

  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in a transaction: all of it commits, or none of it. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.queue.run(() => this.dataSource.transaction(work));
  }

  /** Runs read-only `work`; it sees only committed data. */
  read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.queue.run(() => work(this.dataSource.manager));
  }

  async ping(): Promise<void> {
    await this.read((em) => em.query('SELECT 1'));
  }
}
