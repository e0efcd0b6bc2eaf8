/**
 * A turn whose question is stored but whose reply failed. Carries the HTTP-like status the
 * failure maps to (502 model error, 504 timeout) and the ids, so the client can continue or
 * regenerate in the same conversation instead of starting a duplicate.
 */
export class ChatTurnFailedError extends Error {
  readonly code = 'chat_turn_failed';
  constructor(
    readonly status: number,
    message: string,
    readonly conversationId: string,
    readonly userMessageId: string,
    readonly messageId: string,
  ) {
    super(message);
  }
}
