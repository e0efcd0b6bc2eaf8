import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ipKeyGenerator, type RateLimitRequestHandler } from 'express-rate-limit';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { RateLimitsService } from '../../../rate-limits/rate-limits.service.js';
import { countRequest, minuteLimiter } from './minute-limiter.js';

/**
 * SHARED_READS_PER_MINUTE: reads of shared conversations per client address (`req.ip`, which
 * TRUST_PROXY decides). Those routes need no key, so the per-actor limit cannot count them;
 * the counters are the shared ones (the database on PostgreSQL), so instances add up.
 */
@Injectable()
export class SharedReadLimit implements CanActivate {
  private readonly limiter: RateLimitRequestHandler | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig, rateLimits: RateLimitsService) {
    this.limiter = minuteLimiter(
      {
        perMinute: config.sharedReadsPerMinute,
        prefix: 'shared-reads:',
        // Hashed like every key: the counters never hold an address. An IPv6 client counts as its /56.
        key: (req) =>
          createHash('sha256')
            .update(ipKeyGenerator(req.ip ?? 'unknown'))
            .digest('hex'),
        setting: 'SHARED_READS_PER_MINUTE (reads of shared conversations per address)',
      },
      rateLimits,
      new Logger('RateLimit'),
    );
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.limiter) await countRequest(this.limiter, context);
    return true;
  }
}
