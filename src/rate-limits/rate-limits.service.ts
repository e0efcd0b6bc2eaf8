import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { MemoryStore, type Store } from 'express-rate-limit';
import { DataSource } from 'typeorm';
import { DatabaseService } from '../database/database.service.js';
import { isPostgres } from '../database/dialect.js';
import { PostgresRateStore, purgeEndedWindows } from './postgres-rate-store.js';

/**
 * Where rate-limit counters live. On PostgreSQL, in the `rate_limit_counters` table, which
 * every instance shares (this module owns it, and purges the rows of ended windows); on
 * SQLite, which serves one process, in that process's memory.
 */
@Injectable()
export class RateLimitsService implements OnModuleDestroy {
  private readonly postgres: boolean;
  private purgeTimer: NodeJS.Timeout | null = null;
  private longestWindowMs = 0;

  constructor(
    private readonly db: DatabaseService,
    dataSource: DataSource,
  ) {
    this.postgres = isPostgres(dataSource);
  }

  /** A store counting hits per key in windows of `windowMs`; `prefix` keeps its keys apart from other stores'. */
  store(prefix: string, windowMs: number): Store {
    if (!this.postgres) return new MemoryStore();
    this.longestWindowMs = Math.max(this.longestWindowMs, windowMs);
    this.purgeTimer ??= setInterval(
      () => void purgeEndedWindows(this.db, this.longestWindowMs).catch(() => undefined),
      this.longestWindowMs,
    );
    // A timer must not keep a process alive that is otherwise done.
    this.purgeTimer.unref();
    return new PostgresRateStore(this.db, prefix, windowMs);
  }

  onModuleDestroy(): void {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    this.purgeTimer = null;
  }
}
