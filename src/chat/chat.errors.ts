import { DomainError, type ReplyErrorCode } from '../common/domain-error.js';
import type { StorageError } from '../common/storage.errors.js';

/**
 * A turn whose question is stored but whose reply failed. Carries why (`reason`, the code
 * stored with the reply: `model_unavailable`, `model_timeout`, `interrupted`) and the ids, so
 * the client can continue or regenerate in the same conversation instead of starting a duplicate.
 */
export class ChatTurnFailedError extends DomainError {
  readonly code = 'chat_turn_failed';
  constructor(
    readonly reason: ReplyErrorCode,
    message: string,
    readonly conversationId: string,
    readonly userMessageId: string,
    readonly messageId: string,
  ) {
    super(message);
  }
}

/**
 * A turn whose question is stored, and whose reply was generated but could not be stored (the
 * database is full or unavailable). The generator keeps trying to store it for a while; the
 * client is told at once, with the ids, that the answer it did not get is not yet kept.
 */
export class ReplyNotStoredError extends DomainError {
  readonly code = 'reply_not_stored';
  constructor(
    override readonly cause: StorageError,
    readonly conversationId: string,
    readonly userMessageId: string,
    readonly messageId: string,
  ) {
    super(`The reply could not be stored: ${cause.message}`);
  }
}
