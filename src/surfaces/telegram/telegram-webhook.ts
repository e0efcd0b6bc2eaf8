import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application, Request, Response } from 'express';
import type { Update } from 'grammy/types';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { InboxFullError, UpdateTooLargeError } from '../../telegram-inbox/telegram-inbox.errors.js';
import { TelegramIntake } from './telegram-intake.js';
import { TelegramSurface } from './telegram-surface.js';

/** The stable `code` of each refusal, as in the REST API's error bodies (docs/api.md, Error codes). */
const CODES: Record<number, string> = {
  400: 'invalid_input',
  401: 'unauthorized',
  413: 'telegram_update_too_large',
  500: 'internal',
  503: 'unavailable',
};

/** A request the route refuses, with the status Telegram (or a stranger) gets. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = CODES[status],
  ) {
    super(message);
  }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  413: 'Payload Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * The webhook endpoint at the path of TELEGRAM_WEBHOOK_URL. Checks the secret header before
 * reading the body, records the update (TelegramIntake), answers 200 at once and leaves the
 * work to the chat queues: Telegram re-sends what is not answered in time, so waiting for the
 * model here would only bring duplicates.
 */
@Injectable()
export class TelegramWebhook {
  private readonly logger = new Logger('TelegramWebhook');
  private readonly secretDigest: Buffer;

  constructor(
    adapterHost: HttpAdapterHost,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly intake: TelegramIntake,
    private readonly surface: TelegramSurface,
  ) {
    const webhook = config.telegram?.webhook;
    this.secretDigest = digest(webhook?.secret ?? '');
    if (!webhook) return;
    const app = adapterHost.httpAdapter?.getInstance<Application>();
    if (!app) {
      this.logger.warn('No HTTP server in this process: the Telegram webhook is not served');
      return;
    }
    // Mounted while the application is being built, so ahead of the JSON body parser and of
    // every route: a wrong secret is refused before the body is read.
    app.use((req, res, next) => {
      if (req.method !== 'POST' || req.url.split('?')[0] !== webhook.path) return next();
      void this.receive(req, res);
    });
  }

  private async receive(req: Request, res: Response): Promise<void> {
    try {
      if (!this.surface.acceptingUpdates)
        throw new Refusal(503, 'The bot is not accepting updates right now; retry later');
      if (!this.secretMatches(req.headers['x-telegram-bot-api-secret-token'])) {
        throw new Refusal(401, 'Missing or wrong X-Telegram-Bot-Api-Secret-Token');
      }
      const update = parseUpdate(await readBody(req, this.config.bodyLimitBytes));
      try {
        await this.intake.accept(update);
      } catch (error) {
        // Not recorded: a non-2xx answer makes Telegram send it again later.
        if (error instanceof UpdateTooLargeError) throw new Refusal(413, error.message);
        if (error instanceof InboxFullError) throw new Refusal(503, `${error.message}; retry later`, error.code);
        this.logger.error(`Could not record update ${update.update_id}: ${(error as Error).message}`);
        throw new Refusal(500, 'The update could not be recorded; Telegram will send it again');
      }
      res.status(200).json({ ok: true });
    } catch (error) {
      const refusal = error instanceof Refusal ? error : new Refusal(500, 'Internal server error');
      if (!(error instanceof Refusal)) this.logger.error(`Webhook failed: ${(error as Error).message}`);
      // The body may be unread: close the connection rather than read it.
      res.set('Connection', 'close');
      res.status(refusal.status).json({
        statusCode: refusal.status,
        error: REASONS[refusal.status],
        code: refusal.code,
        message: refusal.message,
      });
    }
  }

  private secretMatches(header: string | string[] | undefined): boolean {
    if (typeof header !== 'string') return false;
    // Equal-length digests: the comparison takes the same time whatever was sent.
    return timingSafeEqual(digest(header), this.secretDigest);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function readBody(req: Request, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.pause();
        reject(new Refusal(413, `The update is larger than ${limit} bytes (BODY_LIMIT_BYTES)`));
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseUpdate(body: Buffer): Update {
  let update: unknown;
  try {
    update = JSON.parse(body.toString('utf8'));
  } catch {
    throw new Refusal(400, 'The body is not JSON');
  }
  const id = (update as { update_id?: unknown } | null)?.update_id;
  if (typeof update !== 'object' || !Number.isSafeInteger(id) || (id as number) < 0) {
    throw new Refusal(400, 'The body is not a Telegram update (no update_id)');
  }
  return update as Update;
}
