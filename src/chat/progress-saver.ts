import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { ProgressSave } from '../conversations/progress-save.js';
import type { ProgressSaves, ReplyProgress } from './reply-progress.js';
import { ReplyStore } from './reply-store.js';

/**
 * Saves statements of this many replies go to the database as one unit of work; the units of
 * one tick still share a commit (SQLite's group commit), and the event loop breathes between them.
 */
const SAVES_PER_UNIT = 100;

/**
 * Texts saved in one tick, at most: the work of a tick, and so the wait for its commit, stays
 * bounded however many replies stream. Beyond it, the replies whose text was saved longest ago
 * go first, the others in the next tick (their leases are renewed meanwhile when due).
 */
export const MAX_TEXTS_PER_TICK = 500;

/**
 * Saves the progress of every reply this instance generates on one timer, every
 * `STREAM_FLUSH_MS`: all of a tick's saves share a commit (on PostgreSQL, one statement per 100
 * replies), instead of one transaction per reply per tick. Replies with nothing new are only
 * asked, together, whether a stop was requested. A slow database does not pile ticks up: a tick
 * is skipped while the last one runs.
 */
@Injectable()
export class ProgressSaver implements ProgressSaves, OnModuleDestroy {
  private readonly logger = new Logger(ProgressSaver.name);
  private readonly live = new Set<ReplyProgress>();
  /** Replies in the tick under way, which `remove` waits for. */
  private readonly inTick = new Set<ReplyProgress>();
  private timer?: NodeJS.Timeout;
  private tick: Promise<void> | null = null;

  constructor(
    private readonly replies: ReplyStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  add(progress: ReplyProgress): void {
    this.live.add(progress);
    this.timer ??= setInterval(() => {
      this.tick ??= this.flush().finally(() => {
        this.tick = null;
        this.inTick.clear();
      });
    }, this.config.streamFlushMs);
  }

  async remove(progress: ReplyProgress): Promise<void> {
    this.live.delete(progress);
    if (this.live.size === 0) this.stopTimer();
    // The final save of a reply must not be overtaken by a progress save of it still in flight.
    if (this.inTick.has(progress)) await this.tick;
  }

  onModuleDestroy(): void {
    this.stopTimer();
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async flush(): Promise<void> {
    const now = Date.now();
    const saves: Array<{ progress: ReplyProgress; save: ProgressSave }> = [];
    const idle: ReplyProgress[] = [];
    let texts = 0;
    // `live` is kept in the order the texts were last saved (see `save`): the longest waiting first.
    for (const progress of this.live) {
      this.inTick.add(progress);
      const save = progress.pending(now, this.config.replyLeaseMs / 3, texts < MAX_TEXTS_PER_TICK);
      if (save?.content !== undefined) texts += 1;
      if (save) saves.push({ progress, save });
      else idle.push(progress);
    }
    const units: Promise<void>[] = [];
    for (let i = 0; i < saves.length; i += SAVES_PER_UNIT) units.push(this.save(saves.slice(i, i + SAVES_PER_UNIT)));
    if (idle.length) units.push(this.checkCancelled(idle));
    await Promise.all(units);
  }

  private async save(batch: ReadonlyArray<{ progress: ReplyProgress; save: ProgressSave }>): Promise<void> {
    const askedAt = Date.now();
    try {
      const saved = await this.replies.saveProgress(batch.map((b) => b.save));
      for (const { progress, save } of batch) {
        if (!saved.has(save.id)) {
          progress.cancelled();
          continue;
        }
        progress.saved(save, askedAt);
        // To the end of the line for the next text save (unless it stopped meanwhile).
        if (save.content !== undefined && this.live.delete(progress)) this.live.add(progress);
      }
    } catch (error) {
      // The final save still happens when each reply ends; a missed tick only delays followers.
      this.logger.warn(`Could not save the progress of ${batch.length} replies: ${(error as Error).message}`);
    }
  }

  private async checkCancelled(idle: readonly ReplyProgress[]): Promise<void> {
    try {
      const cancelled = await this.replies.cancelRequested(idle.map((p) => ({ id: p.replyId, actor: p.actor })));
      for (const progress of idle) if (cancelled.has(progress.replyId)) progress.cancelled();
    } catch (error) {
      this.logger.warn(`Could not check ${idle.length} replies for stop requests: ${(error as Error).message}`);
    }
  }
}
