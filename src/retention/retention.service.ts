import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DatabaseService } from '../database/database.service.js';
import { StaleConversationsRepository } from '../conversations/stale-conversations.repository.js';
import { MemoryService } from '../memory/memory.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The first sweep waits a little, so that it does not compete with start-up. */
export const RETENTION_FIRST_RUN_MS = 60_000;
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
/** Conversations deleted per transaction: a sweep never holds the database for long. */
export const RETENTION_BATCH = 500;

interface RetentionResult {
  readonly conversations: number;
  readonly messages: number;
  readonly memories: number;
}

/**
 * RETENTION_DAYS: deletes conversations (of every actor) not updated for that many days, with
 * their messages, threads, summaries and tags. Runs a minute after start, then hourly, in
 * batches of RETENTION_BATCH per transaction; off when RETENTION_DAYS is unset. Shutdown stops
 * it between two batches.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Retention');
  private firstRun?: NodeJS.Timeout;
  private timer?: NodeJS.Timeout;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: DatabaseService,
    private readonly repo: StaleConversationsRepository,
    private readonly memories: MemoryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const days = this.config.retentionDays;
    if (days === null) return;
    this.logger.log(
      `Conversations not updated for ${days} day${days === 1 ? '' : 's'} are deleted (RETENTION_DAYS), checked hourly`,
    );
    this.firstRun = setTimeout(() => this.tick(), RETENTION_FIRST_RUN_MS);
    this.firstRun.unref();
    this.timer = setInterval(() => this.tick(), RETENTION_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the timers and waits for the batch in progress, so the database closes after it. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.firstRun);
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * One sweep: deletes, batch by batch, every conversation whose `updatedAt` is older than
   * RETENTION_DAYS before `now`. Returns what was deleted (nothing when retention is off).
   */
  async sweep(now = new Date()): Promise<RetentionResult> {
    const days = this.config.retentionDays;
    const total = { conversations: 0, messages: 0, memories: 0 };
    if (days === null) return total;
    const cutoff = new Date(now.getTime() - days * DAY_MS);
    while (!this.stopped) {
      const batch = await this.db.transaction(async (em) => {
        const ids = await this.repo.staleIds(em, cutoff, RETENTION_BATCH);
        const messages = await this.repo.countMessages(em, ids);
        return { selected: ids.length, messages, conversations: await this.repo.deleteStale(em, ids, cutoff) };
      });
      total.conversations += batch.conversations;
      total.messages += batch.messages;
      if (batch.selected < RETENTION_BATCH) break;
    }
    // Long-term memories follow the same rule: one not updated (edited, pinned, rewritten) since the cutoff goes.
    while (!this.stopped) {
      const deleted = await this.memories.deleteStale(cutoff, RETENTION_BATCH);
      total.memories += deleted;
      if (deleted < RETENTION_BATCH) break;
    }
    return total;
  }

  private tick(): void {
    if (this.running || this.stopped) return;
    this.running = this.sweep()
      .then(({ conversations, messages, memories }) => {
        if (memories > 0)
          this.logger.log(
            `Deleted ${memories} memor${memories === 1 ? 'y' : 'ies'} not updated for ${this.config.retentionDays} days (RETENTION_DAYS)`,
          );
        if (conversations > 0) {
          this.logger.log(
            `Deleted ${conversations} conversation${conversations === 1 ? '' : 's'} (${messages} message${messages === 1 ? '' : 's'}) ` +
              `not updated for ${this.config.retentionDays} days (RETENTION_DAYS)`,
          );
        }
      })
      .catch((error: Error) => this.logger.warn(`Retention sweep failed: ${error.message}`))
      .finally(() => {
        this.running = null;
      });
  }
}
