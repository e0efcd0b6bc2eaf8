/** The model could not produce a reply: unreachable, refused, broke off, or answered nothing. */
export class ModelUnavailableError extends Error {
  readonly code: string = 'model_unavailable';
  constructor(
    message: string,
    /** HTTP status the model server answered, when it answered one. */
    readonly upstreamStatus?: number,
  ) {
    super(message);
  }
}

/** The model did not finish within LLM_TIMEOUT_MS (retries included). */
export class ModelTimeoutError extends ModelUnavailableError {
  override readonly code = 'model_timeout';
  constructor(readonly timeoutMs: number) {
    super(`The model did not answer within ${timeoutMs} ms`);
  }
}
