import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ReplyStore } from './reply-store.js';

/**
 * Closes, as failed, replies left `streaming` by a generator that died (a crashed or killed
 * instance), once their lease has run out: at start and then every lease period. Readers and
 * new turns also close such replies when they meet them; this catches the ones nobody meets.
 */
@Injectable()
export class ReplyJanitor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ReplyJanitor.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly replies: ReplyStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.config.replyLeaseMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private async sweep(): Promise<void> {
    try {
      const closed = await this.replies.sweepExpired();
      if (closed > 0)
        this.logger.warn(
          `Closed ${closed} interrupted repl${closed === 1 ? 'y' : 'ies'} (failed, or cancelled if a stop was pending)`,
        );
    } catch (error) {
      this.logger.warn(`Reply sweep failed: ${(error as Error).message}`);
    }
  }
}
