import { DomainError } from '../common/domain-error.js';

/** Refused: too many requests. Carries when to come back (HTTP sends it as Retry-After). */
export class TooManyRequestsError extends DomainError {
  readonly code = 'too_many_requests';
  constructor(
    readonly retryAfterSeconds: number,
    limitName: string,
  ) {
    super(`Too many requests: at most the configured ${limitName}; retry in ${retryAfterSeconds} s`);
  }
}

/** Whole seconds until `resetTime`, for Retry-After: at least 1, at most a window (the database's clock may differ from ours). */
export function secondsUntil(resetTime: Date | undefined, windowMs: number, now = Date.now()): number {
  const ms = (resetTime?.getTime() ?? now + windowMs) - now;
  return Math.min(Math.ceil(windowMs / 1000), Math.max(1, Math.ceil(ms / 1000)));
}
