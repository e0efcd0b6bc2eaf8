import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ipKeyGenerator, rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { RateLimitsService } from '../../../rate-limits/rate-limits.service.js';
import { secondsUntil, TooManyRequestsError } from '../../../rate-limits/too-many-requests.error.js';

const WINDOW_MS = 60_000;

/**
 * SHARED_READS_PER_MINUTE: reads of shared conversations per client address (`req.ip`, which
 * TRUST_PROXY decides). Those routes need no key, so the per-actor limit cannot count them;
 * the counters are the shared ones (the database on PostgreSQL), so instances add up.
 */
@Injectable()
export class SharedReadLimit implements CanActivate {
  private readonly limiter: RateLimitRequestHandler | null;
  private readonly logger = new Logger('RateLimit');

  constructor(@Inject(APP_CONFIG) config: AppConfig, rateLimits: RateLimitsService) {
    this.limiter =
      config.sharedReadsPerMinute > 0
        ? rateLimit({
            windowMs: WINDOW_MS,
            limit: config.sharedReadsPerMinute,
            standardHeaders: 'draft-7',
            legacyHeaders: false,
            store: rateLimits.store('shared-reads:', WINDOW_MS),
            // Hashed like every key: the counters never hold an address. An IPv6 client counts as its /56.
            keyGenerator: (req) => createHash('sha256').update(ipKeyGenerator(req.ip ?? 'unknown')).digest('hex'),
            passOnStoreError: true,
            logger: { error: (error) => this.logger.warn(`rate-limit store: ${String(error)}`), warn: (error) => this.logger.warn(String(error)) },
            handler: (req, _res, next) => {
              const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
              next(new TooManyRequestsError(secondsUntil(reset, WINDOW_MS), 'SHARED_READS_PER_MINUTE (reads of shared conversations per address)'));
            },
          })
        : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limiter = this.limiter;
    if (!limiter) return true;
    const http = context.switchToHttp();
    await new Promise<void>((resolve, reject) =>
      limiter(http.getRequest<Request>(), http.getResponse<Response>(), (error?: unknown) => (error ? reject(error) : resolve())),
    );
    return true;
  }
}
