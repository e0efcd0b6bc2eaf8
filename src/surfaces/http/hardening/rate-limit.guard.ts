import { createHash } from 'node:crypto';
import { HttpException, HttpStatus, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import type { RequestWithActor } from '../../../actor-auth/actor.guard.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';

/** Refused: too many requests. Carries when to come back. */
export class TooManyRequestsError extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many requests: at most the configured RATE_LIMIT_PER_MINUTE; retry in ${retryAfterSeconds} s`, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Per-actor rate limit (RATE_LIMIT_PER_MINUTE), a global guard that runs after ActorGuard, so
 * it counts per authenticated actor (per address for public routes). Counters live in the
 * process: with N instances behind a balancer, an actor may get up to N times the limit.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limiter: RateLimitRequestHandler | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limiter =
      config.rateLimitPerMinute > 0
        ? rateLimit({
            windowMs: 60_000,
            limit: config.rateLimitPerMinute,
            standardHeaders: 'draft-7',
            legacyHeaders: false,
            keyGenerator: (req) => keyOf(req as RequestWithActor),
            handler: (_req, res, next, options) => {
              const reset = (_req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
              const seconds = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now() + options.windowMs) - Date.now()) / 1000));
              res.set('Retry-After', String(seconds));
              next(new TooManyRequestsError(seconds));
            },
          })
        : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.limiter) return true;
    const http = context.switchToHttp();
    const limiter = this.limiter;
    await new Promise<void>((resolve, reject) =>
      limiter(http.getRequest<Request>(), http.getResponse<Response>(), (error?: unknown) => (error ? reject(error) : resolve())),
    );
    return true;
  }
}

function keyOf(req: RequestWithActor): string {
  if (req.actor) return createHash('sha256').update(req.actor.id).digest('hex');
  return `ip:${req.ip ?? 'unknown'}`;
}
