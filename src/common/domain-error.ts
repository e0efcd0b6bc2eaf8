/**
 * Every stable error code of the domain. Surfaces map each one to their protocol in one
 * exhaustive table (`Record<DomainErrorCode, ...>`), so a new code that no surface maps fails
 * the type check. The codes are part of the API: never rename one.
 */
export const DOMAIN_ERROR_CODES = [
  'conversation_not_found',
  'conversation_forbidden',
  'conversation_busy',
  'conversation_state',
  'message_not_found',
  'invalid_input',
  'limit_reached',
  'import_rejected',
  'archive_format_unknown',
  'archive_malformed',
  'archive_too_large',
  'archive_zip_invalid',
  'archive_zip_unsupported',
  'archive_zip_without_conversations',
  'archive_unzipped_too_large',
  'archive_too_many_conversations',
  'context_over_budget',
  'model_not_offered',
  'agent_not_found',
  'agent_in_use',
  'memory_not_found',
  'share_not_found',
  'idempotency_key_reused',
  'idempotency_key_in_progress',
  'too_many_requests',
  'chat_turn_failed',
  'reply_not_stored',
  'model_unavailable',
  'model_timeout',
  'model_cancelled',
  'interrupted',
  'reply_too_long',
  'reply_timeout',
  'storage_full',
  'storage_unavailable',
  'storage_busy',
  'telegram_inbox_full',
  'telegram_update_too_large',
] as const;
export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

/**
 * Why a reply failed or was cut, as stored with it (`messages.error_code`): the model failed
 * (`model_unavailable`) or did not answer in time (`model_timeout`), its generator died
 * (`interrupted`), or a bound cut it (`reply_too_long`, `reply_timeout`).
 */
export const REPLY_ERROR_CODES = [
  'model_unavailable',
  'model_timeout',
  'interrupted',
  'reply_too_long',
  'reply_timeout',
] as const satisfies readonly DomainErrorCode[];
export type ReplyErrorCode = (typeof REPLY_ERROR_CODES)[number];

/** A stored reply's error: a stable code and a readable message. */
export interface ReplyError {
  readonly code: ReplyErrorCode;
  readonly message: string;
}

/**
 * The base of every domain error: a stable `code` and a message, never a protocol status.
 * Surfaces decide what a code means to their callers.
 */
export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
}
