import type { DomainError, DomainErrorCode } from '../../common/domain-error.js';
import { TEXTS } from './texts.js';

const sorry = (error: DomainError) => `Sorry: ${error.message}.`;

/**
 * What a Telegram user reads for each domain error code: the one map of the bot, exhaustive so
 * a new code fails the type check until it is given a text. `null`: not expected from a chat
 * turn, so logged and answered with TEXTS.failure.
 */
export const ERROR_TEXTS = {
  // The current conversation was deleted between finding it and using it (another instance).
  conversation_not_found: TEXTS.failure,
  // Another actor's conversation reads exactly like a missing one.
  conversation_forbidden: TEXTS.failure,
  conversation_busy: TEXTS.busy,
  conversation_state: null,
  message_not_found: null,
  invalid_input: sorry,
  limit_reached: sorry,
  import_rejected: null,
  context_over_budget: (error) => `Sorry, that message is too long for me: ${error.message}.`,
  model_not_offered: sorry,
  agent_not_found: null,
  agent_in_use: null,
  memory_not_found: sorry,
  share_not_found: null,
  idempotency_key_reused: null,
  idempotency_key_in_progress: null,
  too_many_requests: null,
  archive_format_unknown: null,
  archive_malformed: null,
  archive_too_large: null,
  archive_zip_invalid: null,
  archive_zip_unsupported: null,
  archive_zip_without_conversations: null,
  archive_unzipped_too_large: null,
  archive_too_many_conversations: null,
  chat_turn_failed: TEXTS.apology,
  reply_not_stored: TEXTS.storage,
  model_unavailable: TEXTS.apology,
  model_timeout: TEXTS.apology,
  model_cancelled: null,
  interrupted: TEXTS.apology,
  // A cut reply is sent with this note after its text.
  reply_too_long: TEXTS.cutTooLong,
  reply_timeout: TEXTS.cutTimeout,
  storage_full: TEXTS.storage,
  storage_unavailable: TEXTS.storage,
  storage_busy: TEXTS.storage,
  telegram_inbox_full: null,
  telegram_update_too_large: null,
} as const satisfies Record<DomainErrorCode, string | ((error: DomainError) => string) | null>;

/** The text for a domain error, or null when the error is not one the bot expects (log it). */
export function errorText(error: DomainError): string | null {
  const text: string | ((error: DomainError) => string) | null = ERROR_TEXTS[error.code];
  return typeof text === 'function' ? text(error) : text;
}
