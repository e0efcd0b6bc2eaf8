import type { DomainErrorCode, ReplyErrorCode } from '../../common/domain-error.js';

/** Not an answer this surface expects to give: logged, and answered 500 without details. */
export const UNEXPECTED = 500;

/**
 * The HTTP status of every domain error code: the one place codes become statuses on the REST
 * API (error answers, SSE `error` events, a stored reply's `error.statusCode`). Exhaustive: a
 * new code fails the type check until it is given a status here.
 */
export const HTTP_STATUS = {
  conversation_not_found: 404,
  // Answered exactly as conversation_not_found (httpErrorOf), so ids cannot be probed.
  conversation_forbidden: 404,
  conversation_busy: 409,
  conversation_state: 409,
  message_not_found: 404,
  invalid_input: 400,
  limit_reached: 409,
  import_rejected: 400,
  archive_format_unknown: 400,
  archive_malformed: 400,
  archive_too_large: 413,
  archive_zip_invalid: 400,
  archive_zip_unsupported: 400,
  archive_zip_without_conversations: 400,
  archive_unzipped_too_large: 413,
  archive_too_many_conversations: 413,
  context_over_budget: 400,
  model_not_offered: 400,
  agent_not_found: 404,
  agent_in_use: 409,
  memory_not_found: 404,
  share_not_found: 404,
  idempotency_key_reused: 422,
  idempotency_key_in_progress: 409,
  too_many_requests: 429,
  // A failed turn answers with the status of its reason, a reply not stored with that of its cause.
  chat_turn_failed: 502,
  reply_not_stored: 503,
  model_unavailable: 502,
  model_timeout: 504,
  // A cancelled call ends its reply as `cancelled`; it never becomes an answer.
  model_cancelled: UNEXPECTED,
  interrupted: 502,
  reply_too_long: 413,
  reply_timeout: 504,
  storage_full: 507,
  storage_unavailable: 503,
  storage_busy: 503,
  telegram_inbox_full: 503,
  telegram_update_too_large: 413,
} as const satisfies Record<DomainErrorCode, number>;

/** A stored reply's error as the API shows it: `{ statusCode, message }`. */
export function replyErrorBody(
  error: { readonly code: ReplyErrorCode; readonly message: string } | null | undefined,
): { statusCode: number; message: string } | null {
  return error ? { statusCode: HTTP_STATUS[error.code], message: error.message } : null;
}

/** The status of a failed reply (a reply failed without a stored error counts as the model's failure). */
export function failedStatus(error: { readonly code: ReplyErrorCode } | null | undefined): number {
  return HTTP_STATUS[error?.code ?? 'model_unavailable'];
}
