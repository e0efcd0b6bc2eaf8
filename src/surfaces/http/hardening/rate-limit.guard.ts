import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import type { RequestWithActor } from '../../../actor-auth/actor.guard.js';
import { IS_PUBLIC } from '../../../actor-auth/public.decorator.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { RateLimitsService } from '../../../rate-limits/rate-limits.service.js';
import { secondsUntil, TooManyRequestsError } from '../../../rate-limits/too-many-requests.error.js';

const WINDOW_MS = 60_000;

/**
 * Per-actor rate limit (RATE_LIMIT_PER_MINUTE), a global guard that runs after ActorGuard, so
 * it counts per authenticated actor. On PostgreSQL the counters are in the database, shared by
 * every instance (one statement per request); on SQLite, in the one process. Public routes
 * (/health) are never limited: a load balancer's probes must not fail because of other traffic.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limiter: RateLimitRequestHandler | null;
  private readonly logger = new Logger('RateLimit');

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly reflector: Reflector,
    rateLimits: RateLimitsService,
  ) {
    this.limiter =
      config.rateLimitPerMinute > 0
        ? rateLimit({
            windowMs: WINDOW_MS,
            limit: config.rateLimitPerMinute,
            standardHeaders: 'draft-7',
            legacyHeaders: false,
            store: rateLimits.store('requests:', WINDOW_MS),
            keyGenerator: (req) => keyOf(req as RequestWithActor),
            // A database that fails the count fails the request's own work too, with its own answer.
            passOnStoreError: true,
            logger: { error: (error) => this.logger.warn(`rate-limit store: ${String(error)}`), warn: (error) => this.logger.warn(String(error)) },
            handler: (req, _res, next) => {
              const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
              next(new TooManyRequestsError(secondsUntil(reset, WINDOW_MS), 'RATE_LIMIT_PER_MINUTE'));
            },
          })
        : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.limiter) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const http = context.switchToHttp();
    const limiter = this.limiter;
    await new Promise<void>((resolve, reject) =>
      limiter(http.getRequest<Request>(), http.getResponse<Response>(), (error?: unknown) => (error ? reject(error) : resolve())),
    );
    return true;
  }
}

/** The actor's id, hashed: the counters (a table on PostgreSQL) never hold who is calling. */
function keyOf(req: RequestWithActor): string {
  // ActorGuard ran first: a route that is not public has an actor.
  return createHash('sha256').update(req.actor?.id ?? '').digest('hex');
}
