import type { Logger } from '@nestjs/common';
import type { Bot } from 'grammy';
import { botSignal } from './bot.js';
import { ALLOWED_UPDATES } from './routing.js';
import type { TelegramIntake } from './telegram-intake.js';
import { sleep } from '../../common/sleep.js';
import { UpdateTooLargeError } from '../../telegram-inbox/telegram-inbox.errors.js';

/** How long one getUpdates call waits for an update (Telegram's long polling). */
const POLL_TIMEOUT_SECONDS = 30;
const MAX_BACKOFF_MS = 30_000;

/**
 * Long polling of our own instead of bot.start(): bot.start() handles one update at a time,
 * so one slow model reply would hold up every user. Here each update is only taken in
 * (recorded, queued by chat) before the offset moves past it; the chat queues do the work.
 */
export class LongPolling {
  private offset = 0;

  constructor(
    private readonly bot: Bot,
    private readonly intake: TelegramIntake,
    private readonly logger: Logger,
  ) {}

  /** Fetches updates until `signal` aborts; network and server errors are retried with back-off. */
  async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const updates = await this.bot.api.getUpdates(
          { offset: this.offset, timeout: POLL_TIMEOUT_SECONDS, allowed_updates: [...ALLOWED_UPDATES] },
          botSignal(signal),
        );
        for (const update of updates) {
          // If this throws (database down, too many pending), the offset stays here and the batch
          // comes again: the offset confirms only what is recorded.
          await this.intake.accept(update).catch((error: Error) => {
            // Telegram would serve it forever: it is skipped, and said so.
            if (!(error instanceof UpdateTooLargeError)) throw error;
            this.logger.error(`Skipped update ${update.update_id}: ${error.message}`);
          });
          this.offset = update.update_id + 1;
        }
        failures = 0;
      } catch (error) {
        if (signal.aborted) break;
        failures++;
        // A 409 means another process polls with this token, or a webhook is set.
        this.logger.warn(`Long polling failed: ${(error as Error).message}; retrying`);
        await sleep(Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(failures - 1, 10)), signal);
      }
    }
  }

  /**
   * Confirms the updates taken in so far, so Telegram does not send them again after a
   * restart. Best effort: the database would recognise them anyway.
   */
  async confirm(): Promise<void> {
    if (this.offset === 0) return;
    await this.bot.api
      .getUpdates({ offset: this.offset, limit: 1, timeout: 0 }, botSignal(AbortSignal.timeout(5_000)))
      .catch(() => undefined);
  }
}
