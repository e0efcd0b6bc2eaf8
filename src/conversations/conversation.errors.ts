/** Domain errors of the conversations module. Surfaces map them (HTTP: one exception filter). */
export abstract class ConversationError extends Error {
  abstract readonly code: string;
}

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
