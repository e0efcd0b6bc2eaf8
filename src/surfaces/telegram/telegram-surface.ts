import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { GrammyError, type Bot } from 'grammy';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { TelegramConfig } from '../../config/telegram-config.js';
import { botSignal } from './bot.js';
import { LongPolling } from './long-polling.js';
import { ALLOWED_UPDATES } from './routing.js';
import { TelegramChat } from './telegram-chat.js';
import { TelegramCommands } from './telegram-commands.js';
import { TelegramIntake } from './telegram-intake.js';
import { sendText } from './replies.js';
import { BOT_COMMANDS, TEXTS } from './texts.js';
import { UpdateDeferred } from './update-deferred.js';
import { TELEGRAM_BOT, TELEGRAM_CONFIG } from './telegram.tokens.js';
import { sleep } from '../../common/sleep.js';
import { describeError } from '../../common/describe-error.js';

const MAX_BACKOFF_MS = 30_000;

/**
 * The bot's life: at start it asks Telegram who it is, publishes its command menu, then
 * either registers the webhook (TELEGRAM_WEBHOOK_URL) or deletes it and polls. Telegram being
 * unreachable is retried in the background, so the HTTP API starts regardless; a token that
 * Telegram refuses turns the surface off with an error in the log. On shutdown it stops
 * taking updates, then lets the queued ones finish within SHUTDOWN_GRACE_MS.
 */
@Injectable()
export class TelegramSurface implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('Telegram');
  private readonly stopping = new AbortController();
  private running?: Promise<void>;
  private polling?: LongPolling;
  private initialised = false;
  private markReady!: () => void;
  private readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));

  constructor(
    @Inject(TELEGRAM_BOT) private readonly bot: Bot,
    @Inject(TELEGRAM_CONFIG) private readonly config: TelegramConfig,
    @Inject(APP_CONFIG) private readonly appConfig: AppConfig,
    private readonly intake: TelegramIntake,
    commands: TelegramCommands,
    chat: TelegramChat,
  ) {
    // Whatever a handler throws, the user hears something rather than nothing.
    bot.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        if (error instanceof UpdateDeferred) throw error;
        const detail = describeError(error);
        this.logger.error(`Update ${ctx.update.update_id} failed: ${detail}`);
        const notice = ctx.callbackQuery
          ? ctx.answerCallbackQuery({ text: TEXTS.failure })
          : sendText(ctx, TEXTS.failure);
        await notice.catch(() => undefined);
      }
    });
    // Commands first: the chat handler takes whatever text is left.
    commands.install(bot);
    chat.install(bot);
  }

  /** Whether updates are taken in now (the bot knows who it is, and is not shutting down). */
  get acceptingUpdates(): boolean {
    return this.initialised && !this.stopping.signal.aborted;
  }

  /** Resolves once the webhook is registered, or long polling has started. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  onApplicationBootstrap(): void {
    this.running = this.run(this.stopping.signal).catch((error: Error) => {
      this.logger.error(`The Telegram surface stopped: ${error.message}`);
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping.abort();
    this.intake.stop();
    await this.running;
    await this.polling?.confirm();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.intake.pending === 0) return;
    this.logger.log(`Waiting for ${this.intake.pending} Telegram update(s) in progress`);
    if (!(await this.intake.drain(this.appConfig.shutdownGraceMs))) {
      this.logger.warn('Some Telegram updates were not handled before SHUTDOWN_GRACE_MS passed');
    }
  }

  private async run(signal: AbortSignal): Promise<void> {
    // Not bot.init(): it retries an unreachable server silently, with waits growing to 20 minutes.
    const whoAmI = async () => void (this.bot.botInfo = await this.bot.api.getMe(botSignal(signal)));
    if (!(await this.retrying('getMe', whoAmI, signal))) return;
    // Updates a killed process acknowledged are queued before any new one, so each chat keeps its order.
    await this.intake.start();
    this.initialised = true;
    const commands = BOT_COMMANDS.map(({ command, description }) => ({ command, description }));
    await this.bot.api
      .setMyCommands(commands)
      .catch((error: Error) => this.logger.warn(`setMyCommands failed: ${error.message}`));
    const webhook = this.config.webhook;
    const name = `@${this.bot.botInfo.username}`;
    if (webhook) {
      const options = { secret_token: webhook.secret, allowed_updates: [...ALLOWED_UPDATES] };
      if (
        !(await this.retrying(
          'setWebhook',
          () => this.bot.api.setWebhook(webhook.url, options, botSignal(signal)),
          signal,
        ))
      )
        return;
      this.logger.log(`Telegram bot ${name} receives updates by webhook at ${webhook.path}`);
      this.markReady();
      return;
    }
    // A webhook left from an earlier set-up would make getUpdates fail with 409.
    if (!(await this.retrying('deleteWebhook', () => this.bot.api.deleteWebhook({}, botSignal(signal)), signal)))
      return;
    this.logger.log(`Telegram bot ${name} receives updates by long polling`);
    this.polling = new LongPolling(this.bot, this.intake, this.logger);
    this.markReady();
    await this.polling.run(signal);
  }

  /** Runs `call` until it succeeds (true), the surface stops, or Telegram refuses the token (false). */
  private async retrying(name: string, call: () => Promise<unknown>, signal: AbortSignal): Promise<boolean> {
    for (let attempt = 0; !signal.aborted; attempt++) {
      try {
        await call();
        return true;
      } catch (error) {
        if (signal.aborted) return false;
        if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) {
          this.logger.error(
            `Telegram refused TELEGRAM_BOT_TOKEN (${name}: ${error.error_code}); the Telegram surface is off`,
          );
          return false;
        }
        this.logger.warn(`${name} failed: ${(error as Error).message}; retrying`);
        await sleep(Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(attempt, 10)), signal);
      }
    }
    return false;
  }
}
