import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { RateLimitRequestHandler } from 'express-rate-limit';
import type { RequestWithActor } from '../../../actor-auth/actor.guard.js';
import { IS_PUBLIC } from '../../../actor-auth/public.decorator.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { RateLimitsService } from '../../../rate-limits/rate-limits.service.js';
import { countRequest, minuteLimiter } from './minute-limiter.js';
import { RATE_COST, type RateCostOf } from '../../requests/rate-cost.js';

/**
 * Per-actor rate limit (RATE_LIMIT_PER_MINUTE), a global guard that runs after ActorGuard, so
 * it counts per authenticated actor. On PostgreSQL the counters are in the database, shared by
 * every instance (one statement per request); on SQLite, in the one process. Public routes
 * (/health) are never limited: a load balancer's probes must not fail because of other traffic.
 * A route may count a request as several (RateCost: each call of an MCP batch).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limiter: RateLimitRequestHandler | null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly reflector: Reflector,
    rateLimits: RateLimitsService,
  ) {
    this.limiter = minuteLimiter(
      {
        perMinute: config.rateLimitPerMinute,
        prefix: 'requests:',
        key: (req) => keyOf(req as RequestWithActor),
        setting: 'RATE_LIMIT_PER_MINUTE',
      },
      rateLimits,
      new Logger('RateLimit'),
    );
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.limiter) return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const costOf = this.reflector.getAllAndOverride<RateCostOf | undefined>(RATE_COST, targets);
    const cost = costOf ? Math.max(1, costOf(context.switchToHttp().getRequest())) : 1;
    // One count per unit, so the limit refuses the request whose units go past it (the store adds one at a time).
    for (let i = 0; i < cost; i++) await countRequest(this.limiter, context);
    return true;
  }
}

/** The actor's id, hashed: the counters (a table on PostgreSQL) never hold who is calling. */
function keyOf(req: RequestWithActor): string {
  // ActorGuard ran first: a route that is not public has an actor.
  return createHash('sha256')
    .update(req.actor?.id ?? '')
    .digest('hex');
}
