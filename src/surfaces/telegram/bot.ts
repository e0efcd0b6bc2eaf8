import { Bot } from 'grammy';
import type { TelegramConfig } from '../../config/telegram-config.js';
import { honourRetryAfter } from './retry-after.js';

/** The grammY bot, talking to TELEGRAM_API_ROOT when set, with Telegram's 429s honoured on every call. */
export function createBot(config: TelegramConfig): Bot {
  const bot = new Bot(config.token, { client: config.apiRoot ? { apiRoot: config.apiRoot } : {} });
  bot.api.config.use(honourRetryAfter());
  return bot;
}

/** grammY types its abort signals with its abort-controller shim; at run time any AbortSignal works. */
type BotSignal = NonNullable<Parameters<Bot['init']>[0]>;

export function botSignal(signal: AbortSignal): BotSignal {
  return signal as unknown as BotSignal;
}
