import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ipKeyGenerator, type Options, type Store } from 'express-rate-limit';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { RateLimitsService } from '../rate-limits/rate-limits.service.js';
import { secondsUntil, TooManyRequestsError } from '../rate-limits/too-many-requests.error.js';

const WINDOW_MS = 60_000;
/** Addresses refused at once; past it the oldest refusal is forgotten early (memory stays bounded). */
const MAX_REFUSED = 100_000;

/**
 * Failed authentications per client address (AUTH_FAILURES_PER_MINUTE). Failures are counted
 * in the shared rate-limit counters (the database on PostgreSQL), so instances add up; an
 * address past the limit is then refused by this instance from memory, before its key is
 * looked at: no database work and the same time for every refused request. Another instance
 * refuses it from its own next failure of that address on.
 */
@Injectable()
export class AuthFailureLimit {
  private readonly limit: number;
  private readonly store: Store | null;
  /** Hashed address -> when its refusal ends (epoch ms). */
  private readonly refused = new Map<string, number>();

  constructor(@Inject(APP_CONFIG) config: AppConfig, rateLimits: RateLimitsService) {
    this.limit = config.authFailuresPerMinute;
    this.store = this.limit > 0 ? rateLimits.store('auth-failures:', WINDOW_MS) : null;
    void this.store?.init?.({ windowMs: WINDOW_MS } as Options);
  }

  /**
   * Runs `authenticate` for a caller at `address` (undefined: it failed), unless the address
   * has failed too often lately: then, and on the failure that crosses the limit, it throws
   * TooManyRequestsError.
   */
  async authenticate<T>(
    address: string | undefined,
    authenticate: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    if (!this.store) return authenticate();
    const key = addressKey(address);
    const until = this.refused.get(key);
    const now = Date.now();
    if (until !== undefined && until > now) throw this.tooMany(until, now);
    if (until !== undefined) this.refused.delete(key);

    const result = await authenticate();
    if (result !== undefined) return result;
    let counted;
    try {
      counted = await this.store.increment(key);
    } catch {
      return undefined; // counting failed: still a plain 401
    }
    if (counted.totalHits <= this.limit) return undefined;
    const ends = counted.resetTime?.getTime() ?? Date.now() + WINDOW_MS;
    this.refuse(key, ends);
    throw this.tooMany(ends, Date.now());
  }

  private refuse(key: string, until: number): void {
    if (this.refused.size >= MAX_REFUSED) {
      const now = Date.now();
      for (const [k, t] of this.refused) if (t <= now) this.refused.delete(k);
      if (this.refused.size >= MAX_REFUSED) this.refused.delete(this.refused.keys().next().value!);
    }
    this.refused.set(key, until);
  }

  private tooMany(until: number, now: number): TooManyRequestsError {
    return new TooManyRequestsError(
      secondsUntil(new Date(until), WINDOW_MS, now),
      'AUTH_FAILURES_PER_MINUTE (failed authentications per address)',
    );
  }
}

/** An IPv6 client has a whole subnet to itself: it counts as its /56, like express-rate-limit does. Hashed, as every key. */
function addressKey(address: string | undefined): string {
  return createHash('sha256')
    .update(ipKeyGenerator(address ?? 'unknown'))
    .digest('hex');
}
