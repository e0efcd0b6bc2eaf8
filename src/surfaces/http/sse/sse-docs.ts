import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ReplyCutReasonDto, UsageDto } from '../dto/chat.dto.js';
import { ToolCallDto } from '../dto/message.dto.js';
import { ERROR_BODY_CODES } from '../../errors/error-codes.js';

// The events of the streaming routes, for the OpenAPI document only (the protocol is in docs/api.md).

class StreamConversationData {
  @ApiProperty({ format: 'uuid' }) conversationId: string;
  @ApiProperty({ format: 'uuid', description: 'The reply being generated: follow or cancel it with this id.' })
  messageId: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The stored question (absent when a retry follows a running turn).',
  })
  userMessageId?: string;
  @ApiPropertyOptional() title?: string;
  @ApiPropertyOptional({ description: 'True when this turn started the conversation.' }) created?: boolean;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true }) agentId?: string | null;
  @ApiPropertyOptional() thread?: string;
  @ApiPropertyOptional({
    description: 'True when a retry with the same Idempotency-Key replays or follows the first request.',
  })
  replayed?: boolean;
}

class StreamDeltaData {
  @ApiProperty({ description: 'Text to append to the reply.' }) text: string;
}

class StreamReasoningData {
  @ApiProperty({ description: "A piece of a reasoning model's thinking, to append to it (never part of the reply)." })
  text: string;
}

class StreamDoneData {
  @ApiProperty({ format: 'uuid' }) messageId: string;
  @ApiProperty({ description: 'The whole stored reply.' }) reply: string;
  @ApiProperty({ enum: ['complete', 'truncated', 'cancelled'] }) status: string;
  @ApiProperty({
    type: ReplyCutReasonDto,
    nullable: true,
    description: 'Why a truncated reply was cut; null otherwise.',
  })
  reason: ReplyCutReasonDto | null;
  @ApiProperty({ type: String, nullable: true }) model: string | null;
  @ApiProperty({ type: UsageDto, nullable: true }) usage: UsageDto | null;
  @ApiPropertyOptional({
    description: 'What a reasoning model thought before answering, whole (absent when it did not).',
  })
  reasoning?: string;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'How long it thought, in milliseconds (with `reasoning`; null for a reply that was not streamed).',
  })
  reasoningMs?: number | null;
  @ApiPropertyOptional({
    type: [ToolCallDto],
    description: 'Tools the model called on the way to this reply, with their results (absent when none).',
  })
  toolCalls?: ToolCallDto[];
}

export class StreamErrorData {
  @ApiProperty({ example: 502, description: '502 model error, 504 timeout, 500 unexpected server error.' })
  statusCode: number;
  @ApiProperty({
    enum: ERROR_BODY_CODES,
    enumName: 'ErrorCode',
    description: 'The stable code of the failure, as in an error body.',
  })
  code: string;
  @ApiProperty() message: string;
  @ApiProperty({ format: 'uuid' }) messageId: string;
  @ApiProperty({ description: 'The text generated before the failure (stored with the failed reply).' })
  partial: string;
}

class StreamConversationEvent {
  @ApiProperty({ enum: ['conversation'] }) event: 'conversation';
  @ApiProperty({ type: StreamConversationData }) data: StreamConversationData;
}

export class StreamDeltaEvent {
  @ApiProperty({ enum: ['delta'] }) event: 'delta';
  @ApiProperty({ type: StreamDeltaData }) data: StreamDeltaData;
}

class StreamReasoningEvent {
  @ApiProperty({ enum: ['reasoning'] }) event: 'reasoning';
  @ApiProperty({ type: StreamReasoningData }) data: StreamReasoningData;
}

export class StreamDoneEvent {
  @ApiProperty({ enum: ['done'] }) event: 'done';
  @ApiProperty({ type: StreamDoneData }) data: StreamDoneData;
}

export class StreamErrorEvent {
  @ApiProperty({ enum: ['error'] }) event: 'error';
  @ApiProperty({ type: StreamErrorData }) data: StreamErrorData;
}

const EVENTS: Record<'turn' | 'follow', Type<unknown>[]> = {
  turn: [StreamConversationEvent, StreamReasoningEvent, StreamDeltaEvent, StreamDoneEvent, StreamErrorEvent],
  follow: [StreamDeltaEvent, StreamDoneEvent, StreamErrorEvent],
};

const NAMES = new Map<Type<unknown>, string>([
  [StreamConversationEvent, 'conversation'],
  [StreamReasoningEvent, 'reasoning'],
  [StreamDeltaEvent, 'delta'],
  [StreamDoneEvent, 'done'],
  [StreamErrorEvent, 'error'],
]);

/**
 * OpenAPI for a route answering server-sent events. On the wire the body is text: `event:`
 * and `data:` lines, where `data` is a JSON string; OpenAPI 3.0 cannot describe its items, so
 * the body is documented as a string (what a validator and a generator see), and
 * `x-sse-events` maps each event's name to the schema of the event as a reader parses it,
 * `{ event, data }` with `data` the parsed JSON (like OpenAPI 3.2's itemSchema); typed readers
 * such as the generated client's use those schemas. Errors before the stream starts stay JSON.
 */
export function ApiEventStream(description: string, events: 'turn' | 'follow' = 'turn') {
  const types = EVENTS[events];
  return applyDecorators(
    ApiExtraModels(...types),
    ApiResponse({
      status: 200,
      description,
      content: {
        'text/event-stream': {
          schema: {
            type: 'string',
            description:
              'Server-sent events: for each, an `event:` line with its name, a `data:` line with its JSON (see x-sse-events), a blank line.',
          },
          'x-sse-events': Object.fromEntries(types.map((type) => [NAMES.get(type)!, { $ref: getSchemaPath(type) }])),
        } as Record<string, unknown>,
      },
    }),
  );
}

export const TURN_EVENTS =
  'Server-sent events: `conversation` {conversationId, userMessageId, messageId, title, created, agentId, thread} once the question is stored; ' +
  "`reasoning` {text} for each piece of a reasoning model's thinking; `delta` {text} for each piece of the reply; " +
  'then `done` {messageId, reply, status, reason, model, usage, and reasoning, reasoningMs, toolCalls when there are some} once the reply is stored, ' +
  'or `error` {statusCode, code, message, messageId, partial}.';
