import { applyDecorators } from '@nestjs/common';
import { ModelName } from './model-name.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import type { Conversation } from '../../../conversations/conversation.entity.js';
import { DETAIL_MESSAGES, MAX_MESSAGES_PER_READ } from '../../../conversations/conversations.service.js';
import type { Message } from '../../../conversations/message.entity.js';
import { MessageDto, toMessageDto } from './message.dto.js';
import type { Summary } from '../../../conversations/summary.entity.js';
import { MAX_TAG_CHARS, MAX_TAGS } from '../../../conversations/tags.js';
import type { Thread } from '../../../conversations/thread.entity.js';
import { NOT_BLANK_PATTERN } from './text-patterns.js';
import { OptionalThreadName } from '../../requests/thread-name.js';
import { PageCursor, PageLimit, SearchQuery } from './page-query.js';

/** `agentId=<uuid>` for one agent's conversations, `agentId=none` for those without an agent. */
const AGENT_FILTER = /^(none|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
/** AGENT_FILTER for the OpenAPI document, whose patterns take no flags. */
export const AGENT_FILTER_PATTERN =
  '^([Nn][Oo][Nn][Ee]|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$';

export class AgentFilterQueryDto {
  @ApiPropertyOptional({
    description: 'An agent id, or "none" for conversations without an agent.',
    pattern: AGENT_FILTER_PATTERN,
  })
  @IsOptional()
  @Matches(AGENT_FILTER, { message: 'agentId must be an agent id (uuid) or "none"' })
  agentId?: string;
}

export function agentFilter(value: string | undefined): string | null | undefined {
  return value === undefined ? undefined : value.toLowerCase() === 'none' ? null : value.toLowerCase();
}

/** `limit` of a read of messages (a conversation, or a page of its messages): 1 to MAX_MESSAGES_PER_READ. */
function MessagesLimit(defaultValue: number, description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 1,
      maximum: MAX_MESSAGES_PER_READ,
      default: defaultValue,
      description,
    }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(MAX_MESSAGES_PER_READ),
  );
}

const DETAIL_LIMIT =
  'How many of the newest messages to include; older ones: GET /api/conversations/{id}/messages?before=nextBefore.';

class ThreadQueryDto {
  @OptionalThreadName("Only this thread's messages.", 'all')
  thread?: string;
}

export class GetConversationQueryDto extends ThreadQueryDto {
  @MessagesLimit(DETAIL_MESSAGES, DETAIL_LIMIT)
  limit?: number;
}

export class ActiveConversationQueryDto extends AgentFilterQueryDto {
  @MessagesLimit(DETAIL_MESSAGES, DETAIL_LIMIT)
  limit?: number;
}

export class CreateConversationDto {
  @ApiPropertyOptional({ description: 'Title (60 characters kept); default "New conversation".', maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  title?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Bind the conversation to one of your agents.' })
  @IsOptional()
  @IsUUID()
  agentId?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Initial state: a JSON object of at most 64 KB.',
  })
  @IsOptional()
  @IsObject()
  state?: Record<string, unknown>;

  @ApiPropertyOptional({
    default: true,
    description: 'false: a temporary chat, whose turns neither read nor write long-term memories.',
  })
  @IsOptional()
  @IsBoolean()
  memory?: boolean;

  @ModelName(
    "The model the conversation's turns call: one of GET /api/models (400 otherwise). Default: the agent's, or the service's default.",
  )
  @IsOptional()
  model?: string;
}

/** Query-string booleans: exactly "true" or "false". */
const queryBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class ListConversationsQueryDto extends AgentFilterQueryDto {
  @SearchQuery('Full-text search over titles and messages (archived included); ranked, one hit per conversation.')
  q?: string;

  @ApiPropertyOptional({ description: 'true: only archived conversations (hidden by default).', type: Boolean })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  archived?: boolean;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  pinned?: boolean;

  @ApiPropertyOptional({
    description:
      'true: pinned conversations first, then the others, each most recently updated first. Its cursors page in this order only.',
    type: Boolean,
  })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  pinnedFirst?: boolean;

  @ApiPropertyOptional({ description: 'Only conversations with this tag.', maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  @Matches(/^[^\u0000]*$/, { message: 'tag must not contain NUL characters' })
  tag?: string;

  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}

/** A change: each field absent or a value (null is refused, not read as absent: the columns hold no null). */
export class UpdateConversationDto {
  @ApiPropertyOptional({ description: 'New title (60 characters kept).', maxLength: 1000, pattern: NOT_BLANK_PATTERN })
  @ValidateIf((_o, value) => value !== undefined)
  @IsString()
  @Matches(/\S/, { message: 'title must not be blank' })
  @MaxLength(1000)
  title?: string;

  @ModelName(
    "The model the conversation's turns call: one of GET /api/models (400 otherwise); null: back to the agent's or the default.",
    true,
  )
  @IsOptional()
  model?: string | null;

  @ApiPropertyOptional() @ValidateIf((_o, value) => value !== undefined) @IsBoolean() archived?: boolean;
  @ApiPropertyOptional() @ValidateIf((_o, value) => value !== undefined) @IsBoolean() pinned?: boolean;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: MAX_TAG_CHARS, pattern: NOT_BLANK_PATTERN },
    maxItems: MAX_TAGS,
    description: `Replaces the tags (each 1-${MAX_TAG_CHARS} characters; stored lower-case).`,
  })
  @ValidateIf((_o, value) => value !== undefined)
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  @IsString({ each: true })
  @Matches(/\S/, { each: true, message: 'tags must not be blank' })
  @MaxLength(MAX_TAG_CHARS, { each: true })
  tags?: string[];
}

export class MessagesPageQueryDto extends ThreadQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 2_147_483_647,
    description: 'Only messages with a smaller seq (the nextBefore of the previous page); omit for the newest.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  before?: number;

  @MessagesLimit(50)
  limit?: number;
}

export class ConversationSummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty() archived: boolean;
  @ApiProperty() pinned: boolean;
  @ApiProperty({ description: 'false: a temporary chat (no long-term memory read or written).' }) memory: boolean;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiPropertyOptional({ description: 'Search only: the best match, its words in [brackets].' }) snippet?: string;
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Search only: the best-matching message (null: the title matched).',
  })
  messageId?: string | null;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: "Search only: that message's seq (page to it with GET /api/conversations/{id}/messages?before=seq+1).",
  })
  messageSeq?: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "Search only: that message's thread." })
  messageThread?: string | null;
  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description:
      "Search only: whether that message is on its thread's active path (null: the title matched). When false, the match is on another " +
      'branch: POST /api/conversations/{id}/messages/{messageId}/select makes it the active path, then it pages as any message does.',
  })
  onPath?: boolean | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The agent the conversation talks with; null for plain chat.',
  })
  agentId: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The model chosen for the conversation's turns (GET /api/models); null: the agent's or the default.",
  })
  model: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'Time of the latest message.' }) updatedAt: string;
}

export class ConversationPageDto {
  @ApiProperty({ type: [ConversationSummaryDto] }) items: ConversationSummaryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next page; null on the last.' })
  nextCursor: string | null;
}

class ThreadDto {
  @ApiProperty({ example: 'main' }) name: string;
  @ApiProperty({ type: String, nullable: true, description: "The thread's own system prompt." }) systemPrompt:
    string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

class RunningSummaryDto {
  @ApiProperty({ description: 'What fell out of the window, folded by the model.' }) content: string;
  @ApiProperty({ description: 'The summary covers every message of the thread up to this seq.' }) coversSeq: number;
  @ApiProperty() tokens: number;
  @ApiProperty() model: string;
  @ApiProperty({ description: 'Prompt tokens of all the folds that made this summary.' }) promptTokens: number;
  @ApiProperty({ description: 'Completion tokens of those folds.' }) completionTokens: number;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

class TokenTotalsDto {
  @ApiProperty() promptTokens: number;
  @ApiProperty() completionTokens: number;
}

export class ConversationDetailDto extends ConversationSummaryDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The session state shared by all threads.' })
  state: Record<string, unknown>;
  @ApiProperty({
    type: RunningSummaryDto,
    nullable: true,
    description: 'The running summary of the thread shown (main unless ?thread=).',
  })
  summary: RunningSummaryDto | null;
  @ApiProperty({ type: TokenTotalsDto, description: "Token totals of the conversation's replies." })
  usage: TokenTotalsDto;
  @ApiProperty({ type: [ThreadDto] }) threads: ThreadDto[];
  @ApiProperty({ type: [MessageDto], description: 'The newest messages (at most limit), oldest first.' })
  messages: MessageDto[];
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'Older messages exist: pass as before to GET /api/conversations/{id}/messages. Null when messages starts at the first one.',
  })
  nextBefore: number | null;
}

export function toConversationSummary(c: Conversation): ConversationSummaryDto {
  return {
    id: c.id,
    title: c.title,
    archived: Boolean(c.archived),
    pinned: Boolean(c.pinned),
    memory: c.memory === undefined ? true : Boolean(c.memory),
    tags: c.tags ?? [],
    agentId: c.agentId,
    model: c.model ?? null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export function toConversationDetail(detail: {
  conversation: Conversation;
  threads: Thread[];
  messages: Message[];
  nextBefore: number | null;
  summary?: Summary | null;
  usage?: { promptTokens: number; completionTokens: number };
}): ConversationDetailDto {
  const { conversation: c, threads, messages, summary } = detail;
  return {
    ...toConversationSummary(c),
    state: c.state ?? {},
    summary: summary
      ? {
          content: summary.content,
          coversSeq: summary.coversSeq,
          tokens: summary.tokens,
          model: summary.model,
          promptTokens: summary.promptTokens,
          completionTokens: summary.completionTokens,
          updatedAt: summary.updatedAt.toISOString(),
        }
      : null,
    usage: detail.usage ?? { promptTokens: 0, completionTokens: 0 },
    threads: threads.map((t) => ({
      name: t.name,
      systemPrompt: t.systemPrompt,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    })),
    messages: messages.map(toMessageDto),
    nextBefore: detail.nextBefore,
  };
}
