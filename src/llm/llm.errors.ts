import { DomainError } from '../common/domain-error.js';

/** The model could not produce a reply: unreachable, refused, broke off, or answered nothing. */
export class ModelUnavailableError extends DomainError {
  readonly code: 'model_unavailable' | 'model_timeout' = 'model_unavailable';
  constructor(
    message: string,
    /** HTTP status the model server answered, when it answered one. */
    readonly upstreamStatus?: number,
  ) {
    super(message);
  }
}

/** The model did not answer within LLM_TIMEOUT_MS (retries included), or went silent mid-stream. */
export class ModelTimeoutError extends ModelUnavailableError {
  override readonly code = 'model_timeout';
  constructor(readonly timeoutMs: number) {
    super(`The model did not answer within ${timeoutMs} ms`);
  }
}

/** The caller stopped the call (a user pressed stop). Not a failure of the model. */
export class ModelCancelledError extends DomainError {
  readonly code = 'model_cancelled';
  constructor() {
    super('The reply was cancelled');
  }
}
