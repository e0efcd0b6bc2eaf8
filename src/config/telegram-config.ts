import { ConfigError } from './config-error.js';
import { text, type Env } from './env.js';

export interface TelegramConfig {
  /** Needed to call the Bot API; never logged nor repeated in an error. */
  readonly token: string;
  /** A self-hosted Bot API server (no trailing slash); undefined means Telegram's own. */
  readonly apiRoot: string | undefined;
  /** Webhook mode when set, long polling otherwise. */
  readonly webhook: TelegramWebhookConfig | null;
  /** Telegram user ids let in; null lets everyone in. */
  readonly allowedUsers: ReadonlyArray<number> | null;
  /** The actor (`api:<name>`) whose agents the bot offers with /agent; null: none offered. */
  readonly agentsFrom: string | null;
}

interface TelegramWebhookConfig {
  readonly url: string;
  /** The path of `url`, served by this process. */
  readonly path: string;
  readonly secret: string;
}

/** TELEGRAM_*: the bot's settings, or null when TELEGRAM_BOT_TOKEN is unset (the surface is off). */
export function parseTelegram(env: Env): TelegramConfig | null {
  const token = text(env, 'TELEGRAM_BOT_TOKEN');
  // The token is a secret: the message shows its shape, never its value.
  if (token && !/^\d+:[A-Za-z0-9_-]+$/.test(token)) {
    throw new ConfigError('TELEGRAM_BOT_TOKEN must look like 123456789:AAE... (the token BotFather gives)');
  }
  // The others are checked even while the bot is off, so a typo shows before it is switched on.
  const apiRoot = text(env, 'TELEGRAM_API_ROOT')?.replace(/\/+$/, '');
  if (apiRoot !== undefined && !/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(apiRoot)) {
    throw new ConfigError(`TELEGRAM_API_ROOT must be an http(s) URL, got "${apiRoot}"`);
  }
  const secret = text(env, 'TELEGRAM_WEBHOOK_SECRET');
  // Telegram's own rule for secret_token.
  if (secret !== undefined && !/^[A-Za-z0-9_-]{16,256}$/.test(secret)) {
    throw new ConfigError('TELEGRAM_WEBHOOK_SECRET must be 16-256 characters from A-Z, a-z, 0-9, "_" and "-"');
  }
  const webhookUrl = text(env, 'TELEGRAM_WEBHOOK_URL');
  const webhook = webhookUrl === undefined ? null : parseWebhook(webhookUrl, secret);
  const allowedUsers = parseTelegramIds(text(env, 'TELEGRAM_ALLOWED_USERS'));
  const agentsFrom = text(env, 'TELEGRAM_AGENTS_FROM');
  if (agentsFrom !== undefined && !/^[A-Za-z0-9_.-]{1,64}$/.test(agentsFrom)) {
    throw new ConfigError(`TELEGRAM_AGENTS_FROM must be the name of an API key (as in API_KEYS), got "${agentsFrom}"`);
  }
  if (!token) return null;
  return { token, apiRoot, webhook, allowedUsers, agentsFrom: agentsFrom ? `api:${agentsFrom}` : null };
}

function parseWebhook(url: string, secret: string | undefined): TelegramWebhookConfig {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol)) {
    throw new ConfigError(`TELEGRAM_WEBHOOK_URL must be an http(s) URL, got "${url}"`);
  }
  const path = parsed.pathname;
  // The route is mounted ahead of the API's; it must not shadow one of them.
  if (path === '/' || /^\/(api|health)(\/|$)/.test(path)) {
    throw new ConfigError(`TELEGRAM_WEBHOOK_URL needs a path of its own such as /telegram/webhook, got "${path}"`);
  }
  // Without a secret anyone who finds the URL could post updates in any user's name.
  if (!secret) throw new ConfigError('TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL');
  return { url: parsed.toString(), path, secret };
}

function parseTelegramIds(raw: string | undefined): ReadonlyArray<number> | null {
  if (!raw) return null;
  return raw.split(',').map((entry) => {
    const id = entry.trim();
    const value = /^\d{1,16}$/.test(id) ? Number(id) : Number.NaN;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new ConfigError(`TELEGRAM_ALLOWED_USERS must be comma-separated numeric Telegram user ids, got "${id}"`);
    }
    return value;
  });
}
