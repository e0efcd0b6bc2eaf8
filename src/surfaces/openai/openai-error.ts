import type { ErrorFormat } from '../errors/error-body.js';

/** OpenAI's error types, by status (what its SDK and clients expect to read). */
function errorTypeOf(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'invalid_request_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** `{ error: { message, type, param, code } }`: the body of every error answer under /v1. */
export function openAiErrorBody(
  status: number,
  message: string,
  code: string | null,
  param: string | null = null,
): { error: Record<string, unknown> } {
  return { error: { message, type: errorTypeOf(status), param, code } };
}

/** An answer of the OpenAI surface itself (a request it refuses), with OpenAI's fields. */
export class OpenAiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly param: string | null = null,
  ) {
    super(message);
  }

  static invalid(message: string, param: string | null, code = 'invalid_value'): OpenAiError {
    return new OpenAiError(400, message, code, param);
  }

  /** What an unknown id and another actor's id both answer. */
  static notFound(kind: string, id: string, param: string | null = null): OpenAiError {
    return new OpenAiError(404, `${kind} with id '${id}' not found.`, 'not_found', param);
  }
}

/** Requests under /v1 are the OpenAI surface's: their errors take its shape, whoever answers them (a missing key: `invalid_api_key`). */
export const OPENAI_ERROR_FORMAT: ErrorFormat = {
  matches: (path) => path === '/v1' || path.startsWith('/v1/'),
  body: (status, message, code) => openAiErrorBody(status, message, status === 401 ? 'invalid_api_key' : code),
};
