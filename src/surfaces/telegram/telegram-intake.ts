import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { BotError, type Bot } from 'grammy';
import type { Update } from 'grammy/types';
import type { TelegramConfig } from '../../config/telegram-config.js';
import { ReadReplicas } from '../../database/read-replicas.js';
import { TelegramInboxService } from '../../telegram-inbox/telegram-inbox.service.js';
import { ChatQueues } from './chat-queues.js';
import { actorOfChat, routeUpdate, type Routing } from './routing.js';
import { refusalText, TEXTS } from './texts.js';
import { TELEGRAM_BOT, TELEGRAM_CONFIG } from './telegram.tokens.js';
import { UpdateDeferred } from './update-deferred.js';

type IntakeResult = 'queued' | 'duplicate' | 'ignored' | 'refused';

/** At most this many taken-over updates are queued at once; the rest come at later sweeps. */
const MAX_IN_HAND = 500;

/**
 * Where every update comes in, from long polling or the webhook alike. An update for the bot
 * is recorded in the database (with its content, TelegramInboxService) before it is
 * acknowledged, then handled in the background in the order of its chat, and marked handled
 * once answered. Promises: an update is handled once, even when Telegram sends it again (after
 * a restart, or a webhook answer it did not get), on any instance; one recorded and not yet
 * answered when its process died is handled again (at start-up, or by another instance once
 * its lease passes); nothing from a user outside TELEGRAM_ALLOWED_USERS is stored.
 */
@Injectable()
export class TelegramIntake implements OnApplicationShutdown {
  private readonly logger = new Logger('TelegramIntake');
  private readonly queues = new ChatQueues();
  private readonly allowedUsers: ReadonlySet<number> | null;
  private renewing?: NodeJS.Timeout;
  private sweeping?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(TELEGRAM_BOT) private readonly bot: Bot,
    @Inject(TELEGRAM_CONFIG) config: TelegramConfig,
    private readonly inbox: TelegramInboxService,
    private readonly replicas: ReadReplicas,
  ) {
    this.allowedUsers = config.allowedUsers ? new Set(config.allowedUsers) : null;
  }

  /**
   * Once the bot knows who it is, before any update is taken in: queues the updates a dead
   * process left unanswered (so each chat's come first), then keeps the leases of the updates
   * held here alive and takes over those of dead instances as their leases pass.
   */
  async start(): Promise<void> {
    // If the database is down now, the first sweep tries again.
    await this.takeOver().catch((error: Error) => this.logger.warn(`Could not take over updates: ${error.message}`));
    const lease = this.inbox.leaseMs;
    this.renewing = setInterval(() => void this.renew(), Math.max(100, Math.floor(lease / 3)));
    this.sweeping = setInterval(
      () =>
        void this.takeOver().catch((error: Error) => this.logger.warn(`Could not take over updates: ${error.message}`)),
      lease,
    );
    this.renewing.unref();
    this.sweeping.unref();
  }

  /** Takes no more pending updates over (shutdown); the leases of those in hand are still renewed. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.sweeping);
  }

  onApplicationShutdown(): void {
    this.stop();
    clearInterval(this.renewing);
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
    const recorded = await this.inbox.record(
      this.botId(),
      update.update_id,
      String(routing.chatId),
      JSON.stringify(update),
    );
    if (recorded === 'known') return 'duplicate';
    this.enqueue(String(routing.chatId), update);
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

  private enqueue(chatKey: string, update: Update): void {
    this.queues.enqueue(chatKey, async () => {
      if (!(await this.handle(update))) return;
      // Right after the answer was sent: a crash before this line is the one window where a
      // replay sends an answer again (docs/telegram.md).
      await this.inbox.markHandled(this.botId(), update.update_id).catch((error: Error) => {
        this.logger.warn(`Could not mark update ${update.update_id} as handled: ${error.message}`);
      });
    });
  }

  /** Queues pending updates of stopped instances, as many as fit beside those in hand (bounded memory). */
  private async takeOver(): Promise<void> {
    if (this.stopped) return;
    const { taken, givenUp } = await this.inbox.takeOver(this.botId(), MAX_IN_HAND - this.queues.size);
    for (const id of givenUp) this.logger.error(`Gave up update ${id}: its handling was interrupted too many times`);
    if (taken.length > 0)
      this.logger.warn(`Handling ${taken.length} Telegram update(s) left unanswered by a stopped process`);
    for (const row of taken) this.enqueue(row.chatKey, JSON.parse(row.payload) as Update);
  }

  private async renew(): Promise<void> {
    if (this.queues.size === 0) return;
    await this.inbox
      .renewLeases(this.botId())
      .catch((error: Error) => this.logger.warn(`Could not renew update leases: ${error.message}`));
  }

  /**
   * Runs the bot's handlers; false when the update was deferred and stays pending. An update may
   * write (a turn, a command), so with read replicas its chat's reads go to the primary until the
   * replicas hold what it wrote.
   */
  private async handle(update: Update): Promise<boolean> {
    const ended = this.replicas.writeBegan(this.actorOf(update));
    try {
      await this.bot.handleUpdate(update);
    } catch (error) {
      // Logged without the update: it holds the user's text.
      const cause = error instanceof BotError ? error.error : error;
      if (cause instanceof UpdateDeferred) {
        this.logger.log(`Update ${update.update_id} left for later: ${cause.message}`);
        return false;
      }
      const message = cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
      this.logger.error(`Update ${update.update_id} failed: ${message}`);
    } finally {
      await ended();
    }
    return true;
  }

  /** Whose conversations an update is about (as the bot's handlers decide it, routing.ts). */
  private actorOf(update: Update): string {
    const message = update.message ?? update.callback_query?.message;
    const user = update.message?.from ?? update.callback_query?.from;
    return message && user ? actorOfChat(message.chat, user.id).id : `telegram:update:${update.update_id}`;
  }

  private async refuse(routing: Extract<Routing, { kind: 'refuse' }>): Promise<void> {
    try {
      if (routing.callbackQueryId)
        await this.bot.api.answerCallbackQuery(routing.callbackQueryId, { text: TEXTS.refusal });
      else await this.bot.api.sendMessage(routing.chatId, refusalText(routing.userId));
    } catch (error) {
      this.logger.warn(`Could not send a refusal: ${(error as Error).message}`);
    }
  }

  /** Update ids are per bot, so the records are too (a new token starts a new series). */
  private botId(): string {
    return String(this.bot.botInfo.id);
  }
}
