import { Inject, Injectable, Logger } from '@nestjs/common';
import { BotError, type Bot } from 'grammy';
import type { Update } from 'grammy/types';
import type { Actor } from '../../actor-auth/actor.js';
import type { TelegramConfig } from '../../config/app-config.js';
import { IdempotencyService } from '../../idempotency/idempotency.service.js';
import { ChatQueues } from './chat-queues.js';
import { routeUpdate, type Routing } from './routing.js';
import { refusalText, TEXTS } from './texts.js';
import { TELEGRAM_BOT, TELEGRAM_CONFIG } from './telegram.tokens.js';

export type IntakeResult = 'queued' | 'duplicate' | 'ignored' | 'refused';

/** Every update claims the same "request"; only its key (the update_id) differs. */
const UPDATE_HASH = 'telegram-update';

/**
 * Where every update comes in, from long polling or the webhook alike. An update for the bot
 * is recorded in the database under its update_id before it is acknowledged, then handled in
 * the background in the order of its chat. Promises: an update is handled once, even when
 * Telegram sends it again (after a restart, or a webhook answer it did not get), on any
 * instance; nothing from a user outside TELEGRAM_ALLOWED_USERS is stored.
 */
@Injectable()
export class TelegramIntake {
  private readonly logger = new Logger('TelegramIntake');
  private readonly queues = new ChatQueues();
  private readonly allowedUsers: ReadonlySet<number> | null;

  constructor(
    @Inject(TELEGRAM_BOT) private readonly bot: Bot,
    @Inject(TELEGRAM_CONFIG) config: TelegramConfig,
    private readonly keys: IdempotencyService,
  ) {
    this.allowedUsers = config.allowedUsers ? new Set(config.allowedUsers) : null;
  }

  /**
   * Takes one update in. Resolves once it is recorded and queued (or known, or not for the
   * bot); rejects when it could not be recorded, so the caller lets Telegram send it again.
   */
  async accept(update: Update): Promise<IntakeResult> {
    const routing = routeUpdate(update, this.bot.botInfo, this.allowedUsers);
    if (routing.kind === 'ignore') return 'ignored';
    if (routing.kind === 'refuse') {
      // Not recorded: a refusal repeated after a redelivery costs less than storing anything of theirs.
      this.queues.enqueue(routing.chatId, () => this.refuse(routing));
      return 'refused';
    }
    const key = `update:${update.update_id}`;
    const claim = await this.keys.claim(this.botActor(), key, UPDATE_HASH);
    if (claim.kind !== 'claimed') return 'duplicate';
    this.queues.enqueue(routing.chatId, async () => {
      await this.handle(update);
      await this.keys.complete(this.botActor(), key, claim.token, 200, {}).catch((error: Error) => {
        this.logger.warn(`Could not mark update ${update.update_id} as done: ${error.message}`);
      });
    });
    return 'queued';
  }

  /** Updates queued or being handled. */
  get pending(): number {
    return this.queues.size;
  }

  /** Waits for the queued updates to be handled, at most `timeoutMs`; true if all were. */
  drain(timeoutMs: number): Promise<boolean> {
    return this.queues.drain(timeoutMs);
  }

  private async handle(update: Update): Promise<void> {
    try {
      await this.bot.handleUpdate(update);
    } catch (error) {
      // Logged without the update: it holds the user's text.
      const cause = error instanceof BotError ? error.error : error;
      const message = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
      this.logger.error(`Update ${update.update_id} failed: ${message}`);
    }
  }

  private async refuse(routing: Extract<Routing, { kind: 'refuse' }>): Promise<void> {
    try {
      if (routing.callbackQueryId) await this.bot.api.answerCallbackQuery(routing.callbackQueryId, { text: TEXTS.refusal });
      else await this.bot.api.sendMessage(routing.chatId, refusalText(routing.userId));
    } catch (error) {
      this.logger.warn(`Could not send a refusal: ${(error as Error).message}`);
    }
  }

  /** Update ids are per bot, so the records are too (a new token starts a new series). */
  private botActor(): Actor {
    return { id: `telegram-bot:${this.bot.botInfo.id}` };
  }
}
