import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ALIAS_PATTERN } from '../../conversations/conversation-alias.entity.js';
import { MAX_MESSAGES_PER_READ } from '../../conversations/conversations.service.js';
import { ModelOptionsDto, ModelOptionsField } from '../requests/model-options.js';
import { OptionalThreadName } from '../requests/thread-name.js';

const UI_TRIGGERS = ['submit-message', 'regenerate-message'] as const;
type UiTrigger = (typeof UI_TRIGGERS)[number];

const CHAT_ID_DESCRIPTION =
  "The client's chat id (`useChat`'s `id`): 1-128 of A-Z, a-z, 0-9, `_` and `-`, or one of your conversation ids. " +
  "The first message under a new id starts a conversation of the caller's; another API key's same id is another conversation.";

/**
 * The body `DefaultChatTransport` posts: `{ id, messages, trigger, messageId }` plus the
 * transport's `body` fields, or the last message alone (`message`, with prepareSendMessagesRequest).
 * Messages are the AI SDK's UIMessage objects, read by the surface (only the last user message
 * counts: the stored history is the truth).
 */
export class UiChatRequestDto {
  @ApiProperty({ description: CHAT_ID_DESCRIPTION, pattern: ALIAS_PATTERN.source, example: 'c7XyQw2aB9' })
  @IsString()
  @Matches(ALIAS_PATTERN, { message: 'id must be 1-128 characters of A-Z, a-z, 0-9, "_" and "-"' })
  id: string;

  @ApiPropertyOptional({
    description:
      "The chat's messages as the client holds them (UIMessage: id, role, parts). Only the last one is read: a user message with text parts.",
    type: 'array',
    items: { type: 'object', additionalProperties: true },
  })
  @IsOptional()
  @IsArray()
  @IsObject({ each: true })
  messages?: Record<string, unknown>[];

  @ApiPropertyOptional({
    description: 'The last message alone, instead of `messages` (a UIMessage with role user).',
    type: 'object',
    additionalProperties: true,
  })
  @IsOptional()
  @IsObject()
  message?: Record<string, unknown>;

  @ApiPropertyOptional({
    enum: UI_TRIGGERS,
    default: 'submit-message',
    description:
      '`submit-message` answers the new user message; `regenerate-message` answers the last question again (a sibling answer).',
  })
  @IsOptional()
  @IsIn(UI_TRIGGERS)
  trigger?: UiTrigger;

  @ApiPropertyOptional({
    description:
      'With submit-message: the user message this one edits (the new question is its sibling, answered, on a branch that becomes active). ' +
      'With regenerate-message: the message answered again (a question, or an answer to one), on the active path; without it, the last question. ' +
      "By the stored id or by the client's own id of a message it sent.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  messageId?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'A new chat starts with this agent; on an existing one it must be its agent.',
  })
  @IsOptional()
  @IsUUID()
  agentId?: string;

  @OptionalThreadName('The thread of the conversation to talk in.')
  thread?: string;

  @ModelOptionsField()
  options?: ModelOptionsDto;

  @ApiPropertyOptional({
    description:
      'Tools the client runs itself (no `execute` on the server: useChat `onToolCall` + `addToolOutput`), by name: ' +
      "`{ [name]: { description?, inputSchema } }`, the input as a JSON Schema object. They are offered to the model beside the agent's tools; " +
      'a call of one ends the reply with the call as a tool part (`input-available`), and the next request, carrying the assistant message ' +
      'with the tool output (`output-available` or `output-error`), continues that reply. Names: 1-64 of A-Z, a-z, 0-9, `_` and `-`; at most 32 tools. ' +
      "An entry named after one of the agent's tools (`update_state`, `remember`, `forget`) takes only `{ needsApproval: boolean }`: with true, " +
      'a call of it ends the reply with a `tool-approval-request`, and runs once the next request approves it (`approval-responded`).',
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: {
        description: { type: 'string', maxLength: 1024 },
        inputSchema: { type: 'object', additionalProperties: true },
        needsApproval: { type: 'boolean' },
      },
    },
  })
  @IsOptional()
  @IsObject()
  tools?: Record<string, unknown>;
}

export class UiThreadQueryDto {
  @OptionalThreadName('The thread (main by default).')
  thread?: string;
}

export class UiMessagesQueryDto extends UiThreadQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_MESSAGES_PER_READ,
    default: 100,
    description: 'The newest messages of the active path, at most this many.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_MESSAGES_PER_READ)
  limit?: number;
}

/** What POST /api/ui/chat/:id/stop did. */
export class UiStopResponseDto {
  @ApiProperty({ description: 'True when a reply in progress was stopped (its text so far kept, status cancelled).' })
  stopped: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The reply stopped (the id its stream announced in `start`), or null.',
  })
  messageId: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The status of that reply now: `cancelled` once stopped (`complete`, `truncated` or `failed` if it ended first).',
  })
  status: string | null;
}

class UiPartDto {
  @ApiProperty({
    example: 'text',
    description:
      '`text` (with `text`), `data-state` (with `data`: the session state after update_state), `step-start`, or `tool-<name>` (a tool call: `toolCallId`, `state`, `input`, `output`).',
  })
  type: string;
  @ApiPropertyOptional() text?: string;
  @ApiPropertyOptional({
    enum: ['streaming', 'done', 'input-available', 'approval-requested', 'output-available', 'output-denied'],
  })
  state?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) data?: Record<string, unknown>;
  @ApiPropertyOptional() toolCallId?: string;
  @ApiPropertyOptional({ description: "The tool call's input (its JSON arguments, parsed)." }) input?: unknown;
  @ApiPropertyOptional({ description: 'What the tool returned (JSON, parsed when it is).' }) output?: unknown;
  @ApiPropertyOptional({
    type: 'object',
    properties: { id: { type: 'string' }, approved: { type: 'boolean' }, reason: { type: 'string' } },
    required: ['id'],
    description:
      "On a call of the agent's tool that needs the client's approval: the approval asked for, and the answer once given.",
  })
  approval?: { id: string; approved?: boolean; reason?: string };
}

class UiMetadataDto {
  @ApiProperty({ format: 'uuid' }) conversationId: string;
  @ApiProperty({ enum: ['streaming', 'complete', 'truncated', 'failed', 'cancelled'] }) status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiPropertyOptional({ type: String, nullable: true }) model?: string | null;
  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    properties: { promptTokens: { type: 'integer' }, completionTokens: { type: 'integer' } },
  })
  usage?: { promptTokens: number; completionTokens: number } | null;
  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    properties: { code: { type: 'string' }, message: { type: 'string' } },
    description: 'Why a reply failed or was cut.',
  })
  error?: { code: string; message: string } | null;
}

/** A stored message as the AI SDK's UIMessage. */
export class UiMessageDto {
  @ApiProperty({
    description: "The client's own id for a message it sent (useChat's), else the stored message's id (a uuid).",
  })
  id: string;
  @ApiProperty({ enum: ['system', 'user', 'assistant'] }) role: string;
  @ApiProperty({ type: [UiPartDto] }) parts: UiPartDto[];
  @ApiProperty({ type: UiMetadataDto }) metadata: UiMetadataDto;
}
