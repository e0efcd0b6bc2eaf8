import { applyDecorators, type Type } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorDto } from './error.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (validation, malformed JSON, message too long)',
  401: 'Missing or invalid API key',
  404: 'No such conversation (or it belongs to another actor)',
  409: 'A reply is still being generated in this conversation, or there is nothing to regenerate',
  413: 'Request body larger than the limit',
  422: 'The Idempotency-Key was already used with a different request',
  429: 'Too many requests (RATE_LIMIT_PER_MINUTE), or too many open streams (MAX_STREAMS_PER_ACTOR); see Retry-After',
  502: 'The model failed; the user message is stored',
  503: 'The database is unreachable',
  504: 'The model did not answer in time; the user message is stored',
};

/** Documents error answers, all with the common error body. */
export function ApiErrors(statuses: number[], type: Type<unknown> = ErrorDto) {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error', type })),
  );
}
