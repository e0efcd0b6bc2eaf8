import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { AGENT_TOOLS } from '../agents/agent.entity.js';
import type { ConversationState } from '../conversations/conversation.entity.js';
import { MESSAGE_STATUSES, type MessageStatus } from '../conversations/message.entity.js';
import { MAX_TAGS } from '../conversations/tags.js';
import { DateTime, Flag, Integer, List, Nested, OneOf, Text, ThreadName } from './export-fields.js';

/**
 * The portable form of conversations: what `GET .../export` writes and `POST .../import`
 * reads back, described once. These classes are the OpenAPI schemas (their names kept by
 * @ApiSchema), the types the export is built with, and, through their class-validator rules,
 * what an import accepts. Versioned: a reader refuses a version it does not know instead of
 * guessing. Ids are informative only (an import always gets new ones); timestamps are ISO 8601 UTC.
 */
export const CONVERSATION_EXPORT_FORMAT = 'chat-memory.conversation';
/** Everything of one actor (`GET /api/me/export`): agents, and conversations in the format above. */
export const ACCOUNT_EXPORT_FORMAT = 'chat-memory.account';
/** What an export writes unless asked for another: version 2 holds the whole tree. */
export const EXPORT_VERSION = 2;
/** Every version an import reads; `GET .../export?version=1` still writes the linear format for older readers. */
export const EXPORT_VERSIONS = [1, 2] as const;
export type ExportVersion = (typeof EXPORT_VERSIONS)[number];
/** The longest message key (`id`, `parentId`, `activeLeafId`) a version 2 file may use. */
const MAX_MESSAGE_KEY_CHARS = 200;

/** Replies are written by the model, never limited by MAX_MESSAGE_CHARS: they get the largest value MAX_REPLY_CHARS (the env variable) can take. */
export const MAX_REPLY_CHARS = 1_000_000;
const MAX_TITLE_CHARS = 1000;
export const MAX_SYSTEM_PROMPT_CHARS = 32_000;
/** Roles an import accepts: the ones the service writes (a `tool` or `system` message would be replayed to the model). */
export const IMPORT_ROLES = ['user', 'assistant'] as const;
/** Statuses of earlier answers; a message may also be `streaming` (imported as failed). */
const VERSION_STATUSES = ['complete', 'truncated', 'failed', 'cancelled'] as const;
const MAX_INT = 2_147_483_647;
const MAX_MODEL_CHARS = 200;
const MAX_ERROR_CHARS = 10_000;
const MAX_AGENT_NAME_CHARS = 100;

@ApiSchema({ name: 'MessageErrorDto' })
export class ExportedMessageError {
  @ApiProperty({ example: 502, description: 'The HTTP status the failure maps to (502 model error, 504 timeout).' })
  @Integer({ min: 100, max: 599 })
  readonly statusCode: number;

  @ApiProperty()
  @Text({ max: MAX_ERROR_CHARS })
  readonly message: string;
}

/** An earlier answer replaced by a regeneration. */
@ApiSchema({ name: 'MessageVersionDto' })
export class ExportedMessageVersion {
  @ApiProperty() @Text({ max: MAX_REPLY_CHARS }) readonly content: string;
  @ApiProperty({ enum: MESSAGE_STATUSES }) @OneOf(VERSION_STATUSES) readonly status: MessageStatus;
  @ApiProperty({ type: String, nullable: true }) @Text({ max: MAX_MODEL_CHARS, presence: 'nullable' }) readonly model:
    string | null;
  @ApiProperty({ type: Number, nullable: true })
  @Integer({ min: 0, max: MAX_INT, presence: 'nullable' })
  readonly promptTokens: number | null;
  @ApiProperty({ type: Number, nullable: true })
  @Integer({ min: 0, max: MAX_INT, presence: 'nullable' })
  readonly completionTokens: number | null;
  @ApiPropertyOptional({ type: () => ExportedMessageError, nullable: true })
  @Nested({ of: () => ExportedMessageError, presence: 'nullable' })
  readonly error?: ExportedMessageError | null;
  @ApiProperty({ format: 'date-time' }) @DateTime() readonly createdAt: string;
}

/** A tool the model called during a reply, and what it got back. */
@ApiSchema({ name: 'ToolCallDto' })
export class ExportedToolCall {
  @ApiProperty({ example: 'update_state' }) @Text({ max: MAX_MODEL_CHARS, nonEmpty: true }) readonly name: string;
  @ApiProperty({ description: 'The arguments as the model wrote them (JSON text).' })
  @Text({ max: MAX_REPLY_CHARS })
  readonly arguments: string;
  @ApiProperty({ description: 'What the tool answered (JSON text).' })
  @Text({ max: MAX_REPLY_CHARS })
  readonly result: string;
}

/**
 * An agent as exported: all its settings when it is the caller's own, only `id` and `name` when
 * another actor offers it. A conversation's import never attaches it; an account export's import
 * through POST /api/imports creates (or reuses) its `agents` and links their conversations.
 */
@ApiSchema({ name: 'ExportedAgentDto' })
export class ExportedAgent {
  @ApiProperty({
    format: 'uuid',
    description:
      "Informative: an import gives new ids (an account export's import links each conversation to the agent made from the one with this id).",
  })
  readonly id: string;
  @ApiProperty({ maxLength: 100 }) @Text({ max: MAX_AGENT_NAME_CHARS }) readonly name: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'This and the following fields only for your own agents.',
  })
  readonly emoji?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) readonly description?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) readonly systemPrompt?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) readonly model?: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) readonly temperature?: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) readonly maxTokens?: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) readonly contextTokenBudget?: number | null;
  /** Tool names as written: a file from elsewhere may name tools this service does not have. */
  @ApiPropertyOptional({ enum: AGENT_TOOLS, isArray: true }) readonly tools?: string[];
  @ApiPropertyOptional({ format: 'date-time' }) readonly createdAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) readonly updatedAt?: string;
}

/** A long-term memory (docs/memory.md). An import keeps its text, pin and dates; its agent scope is informative (it comes back global). */
@ApiSchema({ name: 'ExportedMemoryDto' })
class ExportedMemory {
  @ApiPropertyOptional({ format: 'uuid', description: 'Informative: an import gives a new id.' }) readonly id?: string;
  @ApiProperty({ maxLength: 1000 }) readonly text: string;
  @ApiProperty() readonly pinned: boolean;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Informative: an import never scopes it to an agent.',
  })
  readonly agentId: string | null;
  @ApiProperty({ format: 'date-time' }) readonly createdAt: string;
  @ApiProperty({ format: 'date-time' }) readonly updatedAt: string;
}

/** A share link of the account (informative: its token is not kept, so an import does not bring it back). */
@ApiSchema({ name: 'ExportedShareDto' })
class ExportedShare {
  @ApiProperty({ format: 'uuid' }) readonly id: string;
  @ApiProperty({ format: 'uuid' }) readonly conversationId: string;
  @ApiProperty() readonly title: string;
  @ApiProperty({ format: 'uuid', description: 'The last message of the snapshot.' }) readonly upToMessageId: string;
  @ApiProperty({ type: 'integer' }) readonly messageCount: number;
  @ApiProperty({ format: 'date-time' }) readonly createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) readonly expiresAt: string | null;
}

@ApiSchema({ name: 'ExportedThreadDto' })
export class ExportedThread {
  @ApiProperty({ pattern: '^[a-z0-9_-]{1,64}$', example: 'main' }) @ThreadName() readonly name: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 32000 })
  @Text({ max: MAX_SYSTEM_PROMPT_CHARS, presence: 'nullable' })
  readonly systemPrompt: string | null;
  @ApiPropertyOptional({ format: 'date-time' }) @DateTime({ presence: 'absent' }) readonly createdAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) @DateTime({ presence: 'absent' }) readonly updatedAt?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      "Version 2: the `id` of the last message of the thread's active path (null or absent: its newest leaf). Not read from version 1.",
  })
  @Text({ max: MAX_MESSAGE_KEY_CHARS, nonEmpty: true, presence: 'nullable' })
  readonly activeLeafId?: string | null;
}

@ApiSchema({ name: 'ExportedSummaryDto' })
export class ExportedSummary {
  @ApiProperty({ example: 'main' }) @ThreadName() readonly thread: string;
  @ApiProperty() @Text({ max: MAX_REPLY_CHARS }) readonly content: string;
  @ApiProperty({
    minimum: 1,
    description:
      'The summary covers the messages of its thread up to this seq (of this document); in version 2 it stands for the branch holding the message of that seq.',
  })
  @Integer({ min: 1, max: MAX_INT })
  readonly coversSeq: number;
  @ApiProperty({ minimum: 0 }) @Integer({ min: 0, max: MAX_INT }) readonly tokens: number;
  @ApiProperty() @Text({ max: MAX_MODEL_CHARS, nonEmpty: true }) readonly model: string;
  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @Integer({ min: 0, max: MAX_INT, presence: 'absent' })
  readonly promptTokens?: number;
  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @Integer({ min: 0, max: MAX_INT, presence: 'absent' })
  readonly completionTokens?: number;
  @ApiPropertyOptional({ format: 'date-time' }) @DateTime({ presence: 'absent' }) readonly updatedAt?: string;
}

/**
 * A message. Beyond these rules an import checks what depends on other values (export-cross-checks.ts):
 * `seq` strictly increasing, a user message complete, not blank and within MAX_MESSAGE_CHARS.
 */
@ApiSchema({ name: 'ExportedMessageDto' })
export class ExportedMessage {
  @ApiPropertyOptional({
    description:
      "Version 2: the message's key, unique in the document (the stored id on export; any string on import, new ids are given).",
  })
  @Text({ max: MAX_MESSAGE_KEY_CHARS, nonEmpty: true, presence: 'absent' })
  readonly id?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'Version 2: the `id` of the message this one follows, listed before it in the same thread; null for a first message.',
  })
  @Text({ max: MAX_MESSAGE_KEY_CHARS, nonEmpty: true, presence: 'nullable' })
  readonly parentId?: string | null;
  @ApiProperty({ minimum: 1, description: 'Order of the messages; strictly increasing in the list.' })
  @Integer({ min: 1, max: MAX_INT })
  readonly seq: number;
  @ApiProperty({ example: 'main' }) @ThreadName() readonly thread: string;
  @ApiProperty({ enum: IMPORT_ROLES }) @OneOf(IMPORT_ROLES) readonly role: string;
  @ApiProperty({
    description: 'User messages: not blank, at most MAX_MESSAGE_CHARS characters; replies at most 1000000.',
  })
  @Text({ max: MAX_REPLY_CHARS })
  readonly content: string;
  @ApiProperty({
    enum: MESSAGE_STATUSES,
    description: 'User messages are complete; a streaming reply is imported as failed.',
  })
  @OneOf(['streaming', ...VERSION_STATUSES])
  readonly status: MessageStatus;
  @ApiProperty({ type: String, nullable: true }) @Text({ max: MAX_MODEL_CHARS, presence: 'nullable' }) readonly model:
    string | null;
  @ApiProperty({ type: Number, nullable: true })
  @Integer({ min: 0, max: MAX_INT, presence: 'nullable' })
  readonly promptTokens: number | null;
  @ApiProperty({ type: Number, nullable: true })
  @Integer({ min: 0, max: MAX_INT, presence: 'nullable' })
  readonly completionTokens: number | null;
  @ApiProperty({ type: ExportedMessageError, nullable: true })
  @Nested({ of: () => ExportedMessageError, presence: 'nullable' })
  readonly error: ExportedMessageError | null;
  @ApiProperty({ format: 'date-time' }) @DateTime() readonly createdAt: string;
  @ApiPropertyOptional({
    type: [ExportedMessageVersion],
    description:
      'Version 1 only: the other answers to the question. Version 2 writes them as sibling messages and does not read this.',
  })
  @List({ of: () => ExportedMessageVersion, presence: 'nullable' })
  readonly versions?: ExportedMessageVersion[];
  @ApiProperty({ type: [ExportedToolCall] })
  @List({ of: () => ExportedToolCall, presence: 'nullable' })
  readonly toolCalls: ExportedToolCall[];
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      "A reasoning model's thinking before this reply (never replayed); absent when none. At most 1000000 characters.",
  })
  @Text({ max: MAX_REPLY_CHARS, presence: 'nullable' })
  readonly reasoning?: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'How long the model thought, in milliseconds.' })
  @Integer({ min: 0, max: MAX_INT, presence: 'nullable' })
  readonly reasoningMs?: number | null;
}

/**
 * A conversation. `state` is free JSON: an import checks it with the service's own rule
 * (validState) on the raw document, so class-transformer never walks it. Each tag is checked
 * (and normalized) by the import as a tag is anywhere else.
 */
@ApiSchema({ name: 'ExportedConversationDto' })
export class ExportedConversation {
  @ApiPropertyOptional({ format: 'uuid', description: 'Informative: an import gets a new id.' }) readonly id?: string;
  @ApiProperty({ maxLength: 1000 }) @Text({ max: MAX_TITLE_CHARS }) readonly title: string;
  @ApiProperty({ format: 'date-time' }) @DateTime() readonly createdAt: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Informative: an imported conversation is updated at the time of the import.',
  })
  @DateTime({ presence: 'absent' })
  readonly updatedAt?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'A JSON object of at most 64 KB; default {}.',
  })
  readonly state?: ConversationState;
  @ApiPropertyOptional({ default: false }) @Flag({ presence: 'absent' }) readonly archived?: boolean;
  @ApiPropertyOptional({ default: false }) @Flag({ presence: 'absent' }) readonly pinned?: boolean;
  @ApiPropertyOptional({ type: [String], maxItems: MAX_TAGS })
  @List({ maxItems: MAX_TAGS, presence: 'absent' })
  readonly tags?: string[];
  @ApiPropertyOptional({
    type: ExportedAgent,
    nullable: true,
    description:
      "Informative: POST /api/conversations/import binds the agent given as ?agentId=, if any; POST /api/imports of an account export, the agent imported from the file's `agents`.",
  })
  @Nested({ of: () => ExportedAgent, presence: 'nullable' })
  readonly agent?: ExportedAgent | null;
  @ApiPropertyOptional({ type: [ExportedThread] })
  @List({ of: () => ExportedThread, presence: 'absent' })
  readonly threads?: ExportedThread[];
  @ApiPropertyOptional({ type: [ExportedSummary] })
  @List({ of: () => ExportedSummary, presence: 'absent' })
  readonly summaries?: ExportedSummary[];
  @ApiProperty({ type: [ExportedMessage] }) @List({ of: () => ExportedMessage }) readonly messages: ExportedMessage[];
}

/**
 * One conversation, importable. `format` and `version` say which document this is: an import
 * checks them first, by hand, so that a foreign file gets that one answer (export-parse.ts).
 */
@ApiSchema({ name: 'ConversationExportDto' })
export class ConversationExport {
  @ApiProperty({ enum: [CONVERSATION_EXPORT_FORMAT] }) readonly format: typeof CONVERSATION_EXPORT_FORMAT;
  @ApiProperty({
    enum: EXPORT_VERSIONS,
    description:
      '2: every message of the tree with its parent; 1: the active paths only (other answers as `versions`).',
  })
  readonly version: ExportVersion;
  @ApiPropertyOptional({ format: 'date-time' }) @DateTime({ presence: 'absent' }) readonly exportedAt?: string;
  @ApiProperty({ type: ExportedConversation })
  @Nested({ of: () => ExportedConversation })
  readonly conversation: ExportedConversation;
}

@ApiSchema({ name: 'AccountExportDto' })
export class AccountExport {
  @ApiProperty({ enum: [ACCOUNT_EXPORT_FORMAT] }) readonly format: typeof ACCOUNT_EXPORT_FORMAT;
  @ApiProperty({ enum: EXPORT_VERSIONS, description: 'The version of every conversation in it.' })
  readonly version: ExportVersion;
  @ApiProperty({ format: 'date-time' }) readonly exportedAt: string;
  @ApiProperty({ example: 'api:alice', description: 'Whose data this is.' }) readonly actor: string;
  @ApiProperty({ type: [ExportedAgent] }) readonly agents: ExportedAgent[];
  @ApiProperty({ type: [ConversationExport], description: 'Each one a conversation export, importable as it is.' })
  readonly conversations: ConversationExport[];
  @ApiProperty({
    type: [ExportedMemory],
    description: 'Long-term memories, oldest first (POST /api/memories/import takes them back).',
  })
  readonly memories: ExportedMemory[];
  @ApiProperty({
    type: [ExportedShare],
    description:
      'Share links of the conversations, oldest first (informative: tokens are not kept, an import does not make links).',
  })
  readonly shares: ExportedShare[];
}
