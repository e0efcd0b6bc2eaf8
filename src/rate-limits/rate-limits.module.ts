import { Global, Module } from '@nestjs/common';
import { RateLimitsService } from './rate-limits.service.js';

/** Rate-limit counters, shared by every instance on PostgreSQL (used by the HTTP limits and by authentication). */
@Global()
@Module({
  providers: [RateLimitsService],
  exports: [RateLimitsService],
})
export class RateLimitsModule {}
