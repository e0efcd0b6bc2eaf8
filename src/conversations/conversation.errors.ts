import { DomainError } from '../common/domain-error.js';

/** Domain errors of the conversations module. Surfaces map them by code (HTTP: one exception filter). */
export abstract class ConversationError extends DomainError {}

/** No conversation with this id exists. */
export class ConversationNotFoundError extends ConversationError {
  readonly code = 'conversation_not_found';
  constructor(readonly conversationId: string) {
    super(`Conversation ${conversationId} not found`);
  }
}

/** The conversation exists but belongs to another actor. */
export class ForbiddenConversationError extends ConversationError {
  readonly code = 'conversation_forbidden';
  constructor(readonly conversationId: string) {
    super(`Conversation ${conversationId} belongs to another actor`);
  }
}

/** Input the domain refuses (an empty or too long message, a foreign cursor). */
export class InvalidInputError extends ConversationError {
  readonly code = 'invalid_input';
}

/** A model that is not among those offered (LLM_MODELS, or the upstream's list): a value the server's configuration decides, not the request's shape. */
export class ModelNotOfferedError extends ConversationError {
  readonly code = 'model_not_offered';
}

/** A reply is still being generated in this conversation: a second turn would interleave with it. */
export class ConversationBusyError extends ConversationError {
  readonly code = 'conversation_busy';
  constructor(
    readonly conversationId: string,
    readonly messageId: string,
  ) {
    super(`A reply is still being generated in this conversation (message ${messageId}); wait for it or cancel it`);
  }
}

/** No message with this id in this conversation. */
export class MessageNotFoundError extends ConversationError {
  readonly code = 'message_not_found';
  constructor(readonly messageId: string) {
    super(`Message ${messageId} not found`);
  }
}

/** The request does not fit the conversation's current state (e.g. regenerate with no question). */
export class ConversationStateError extends ConversationError {
  readonly code = 'conversation_state';
}

/** A configured limit would be exceeded (conversations per actor, messages per conversation). */
export class LimitReachedError extends ConversationError {
  readonly code = 'limit_reached';
}
