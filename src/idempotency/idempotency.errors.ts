import { DomainError } from '../common/domain-error.js';

/** The same Idempotency-Key came with a different request. */
export class IdempotencyKeyReusedError extends DomainError {
  readonly code = 'idempotency_key_reused';
  constructor() {
    super('This Idempotency-Key was already used with a different request');
  }
}

/** The first request with this key is still running and did not finish in time. */
export class IdempotencyKeyInProgressError extends DomainError {
  readonly code = 'idempotency_key_in_progress';
  constructor() {
    super('A request with this Idempotency-Key is still being processed; retry later');
  }
}
