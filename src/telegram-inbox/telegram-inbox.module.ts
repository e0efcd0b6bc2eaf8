import { Injectable, Logger, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { TelegramInboxService } from './telegram-inbox.service.js';

/** Purges day-old update records hourly (and says so when any was never answered). */
@Injectable()
class TelegramInboxPurge implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('TelegramInboxPurge');
  private timer?: NodeJS.Timeout;

  constructor(private readonly inbox: TelegramInboxService) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), 60 * 60 * 1000);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private async purge(): Promise<void> {
    try {
      const { pending } = await this.inbox.purgeExpired();
      if (pending > 0) this.logger.warn(`Dropped ${pending} Telegram update(s) still unanswered after 24 hours`);
    } catch (error) {
      this.logger.warn(`Purge failed: ${(error as Error).message}`);
    }
  }
}

/** The Telegram updates acknowledged and not yet answered (table `telegram_updates`). */
@Module({
  providers: [TelegramInboxService, TelegramInboxPurge],
  exports: [TelegramInboxService],
})
export class TelegramInboxModule {}
