import { applyDecorators } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';

/** OpenAPI for a route answering server-sent events (the protocol is in docs/api.md). */
export function ApiEventStream(description: string) {
  return applyDecorators(
    ApiProduces('text/event-stream'),
    ApiResponse({
      status: 200,
      description,
      content: { 'text/event-stream': { schema: { type: 'string', description: 'Server-sent events; see docs/api.md' } } },
    }),
  );
}

export const TURN_EVENTS =
  'Server-sent events: `conversation` {conversationId, userMessageId, messageId, title, created, agentId, thread} once the question is stored; ' +
  '`delta` {text} for each piece of the reply; then `done` {messageId, reply, status, model, usage} once the reply is stored, ' +
  'or `error` {statusCode, message, messageId, partial}.';
