import type { ModelUnavailableError } from '../llm/llm.errors.js';

/**
 * A turn whose user message is stored but whose reply could not be produced. Carries the ids
 * so the client can retry in the same conversation instead of starting a duplicate.
 */
export class ChatTurnFailedError extends Error {
  readonly code = 'chat_turn_failed';
  constructor(
    override readonly cause: ModelUnavailableError,
    readonly conversationId: string,
    readonly userMessageId: string,
  ) {
    super(cause.message);
  }
}
