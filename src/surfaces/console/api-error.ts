/** An error answer of the server, or a server that could not be reached. */
export class ApiError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }

  /** From openapi-fetch's `{ error, response }` of a failed call. */
  static from(response: Response, body: unknown): ApiError {
    const message = typeof body === 'object' && body && 'message' in body ? String(body.message) : response.statusText;
    return new ApiError(response.status, message);
  }

  static unreachable(url: string, error: unknown): ApiError {
    // fetch rejects with TypeError('fetch failed'); the reason (ECONNREFUSED…) is its cause.
    const { message, cause } = (error ?? {}) as { message?: string; cause?: { message?: string } };
    return new ApiError(null, `Cannot reach ${url}: ${cause?.message ?? message ?? String(error)}`);
  }

  override toString(): string {
    return this.status === null ? this.message : `Error ${this.status}: ${this.message}`;
  }
}

/** Awaits an openapi-fetch call: its data, or an ApiError for an error answer or no answer. */
export async function call<T>(
  url: string,
  request: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let result: Awaited<typeof request>;
  try {
    result = await request;
  } catch (error) {
    throw ApiError.unreachable(url, error);
  }
  if (!result.response.ok) throw ApiError.from(result.response, result.error);
  return result.data as T;
}
