import type { ExecutionContext, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import type { RateLimitsService } from '../../../rate-limits/rate-limits.service.js';
import { secondsUntil, TooManyRequestsError } from '../../../rate-limits/too-many-requests.error.js';

const WINDOW_MS = 60_000;

interface MinuteLimit {
  /** Requests per minute; 0 turns the limit off (null is answered). */
  readonly perMinute: number;
  /** Keeps these counters apart from others' in the shared store. */
  readonly prefix: string;
  /** Who is counted: a hash, so the counters (a table on PostgreSQL) never hold who is calling. */
  readonly key: (req: Request) => string;
  /** The setting a 429 names. */
  readonly setting: string;
}

/**
 * A per-minute limit on the shared counters (in the database on PostgreSQL, so instances add
 * up; in the process on SQLite), answering a 429 with RateLimit headers and Retry-After.
 */
export function minuteLimiter(
  limit: MinuteLimit,
  rateLimits: RateLimitsService,
  logger: Logger,
): RateLimitRequestHandler | null {
  if (limit.perMinute <= 0) return null;
  return rateLimit({
    windowMs: WINDOW_MS,
    limit: limit.perMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: rateLimits.store(limit.prefix, WINDOW_MS),
    keyGenerator: limit.key,
    // A database that fails the count fails the request's own work too, with its own answer.
    passOnStoreError: true,
    logger: {
      error: (error) => logger.warn(`rate-limit store: ${String(error)}`),
      warn: (error) => logger.warn(String(error)),
    },
    handler: (req, _res, next) => {
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      next(new TooManyRequestsError(secondsUntil(reset, WINDOW_MS), limit.setting));
    },
  });
}

/** Runs `limiter` on the request of a guard's context: settles once counted, rejects with the 429. */
export function countRequest(limiter: RateLimitRequestHandler, context: ExecutionContext): Promise<void> {
  const http = context.switchToHttp();
  return new Promise<void>((resolve, reject) =>
    limiter(http.getRequest<Request>(), http.getResponse<Response>(), (error?: unknown) =>
      error ? reject(error) : resolve(),
    ),
  );
}
