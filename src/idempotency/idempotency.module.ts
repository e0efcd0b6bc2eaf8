import { Module, type OnApplicationBootstrap, type OnModuleDestroy, Logger, Injectable } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { IdempotencyService } from './idempotency.service.js';

/** Purges expired keys hourly. */
@Injectable()
class IdempotencyPurge implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('IdempotencyPurge');
  private timer?: NodeJS.Timeout;

  constructor(private readonly keys: IdempotencyService) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => {
        this.keys.purgeExpired().catch((error: Error) => this.logger.warn(`Purge failed: ${error.message}`));
      },
      60 * 60 * 1000,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }
}

@Module({
  imports: [ConversationsModule],
  providers: [IdempotencyService, IdempotencyPurge],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
