import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { AGENT_TOOLS } from '../../../agents/agent.entity.js';
import {
  ACCOUNT_EXPORT_FORMAT,
  CONVERSATION_EXPORT_FORMAT,
  EXPORT_VERSION,
  IMPORT_ROLES,
} from '../../../portability/export-format.js';
import { MAX_TAGS } from '../../../conversations/tags.js';
import { MESSAGE_STATUSES } from '../../../conversations/message.entity.js';
import { MessageErrorDto, MessageVersionDto, ToolCallDto } from './conversation.dto.js';
import { ErrorDto } from './error.dto.js';

export const EXPORT_FORMATS = ['json', 'markdown'] as const;

export class ExportQueryDto {
  @ApiPropertyOptional({ enum: EXPORT_FORMATS, default: 'json', description: 'json: the versioned export (importable); markdown: a readable transcript.' })
  @IsOptional()
  @IsIn(EXPORT_FORMATS)
  format?: (typeof EXPORT_FORMATS)[number];
}

export class ImportQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: "One of your agents, to bind the imported conversation to (the file's agent is never attached)." })
  @IsOptional()
  @IsUUID()
  agentId?: string;
}

export class ForkRequestDto {
  @ApiProperty({ format: 'uuid', description: 'The last message of the fork: messages of every thread up to its seq are copied.' })
  @IsUUID()
  fromMessageId: string;
}

// The export format, for the OpenAPI document (the import validates it in src/conversations/export-format.ts).

export class ExportedAgentDto {
  @ApiProperty({ format: 'uuid', description: 'Informative: an import never attaches it.' }) id: string;
  @ApiProperty({ maxLength: 100 }) name: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'This and the following fields only for your own agents.' }) emoji?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) description?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) systemPrompt?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) model?: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) temperature?: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) maxTokens?: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true }) contextTokenBudget?: number | null;
  @ApiPropertyOptional({ enum: AGENT_TOOLS, isArray: true }) tools?: string[];
  @ApiPropertyOptional({ format: 'date-time' }) createdAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) updatedAt?: string;
}

export class ExportedThreadDto {
  @ApiProperty({ pattern: '^[a-z0-9_-]{1,64}$', example: 'main' }) name: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 32000 }) systemPrompt: string | null;
  @ApiPropertyOptional({ format: 'date-time' }) createdAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) updatedAt?: string;
}

export class ExportedSummaryDto {
  @ApiProperty({ example: 'main' }) thread: string;
  @ApiProperty() content: string;
  @ApiProperty({ minimum: 1, description: 'The summary covers the messages of its thread up to this seq.' }) coversSeq: number;
  @ApiProperty({ minimum: 0 }) tokens: number;
  @ApiProperty() model: string;
  @ApiPropertyOptional({ minimum: 0, default: 0 }) promptTokens?: number;
  @ApiPropertyOptional({ minimum: 0, default: 0 }) completionTokens?: number;
  @ApiPropertyOptional({ format: 'date-time' }) updatedAt?: string;
}

export class ExportedMessageDto {
  @ApiProperty({ minimum: 1, description: 'Order of the messages; strictly increasing in the list.' }) seq: number;
  @ApiProperty({ example: 'main' }) thread: string;
  @ApiProperty({ enum: IMPORT_ROLES }) role: string;
  @ApiProperty({ description: 'User messages: not blank, at most MAX_MESSAGE_CHARS characters; replies at most 1000000.' }) content: string;
  @ApiProperty({ enum: MESSAGE_STATUSES, description: 'User messages are complete; a streaming reply is imported as failed.' }) status: string;
  @ApiProperty({ type: String, nullable: true }) model: string | null;
  @ApiProperty({ type: Number, nullable: true }) promptTokens: number | null;
  @ApiProperty({ type: Number, nullable: true }) completionTokens: number | null;
  @ApiProperty({ type: MessageErrorDto, nullable: true }) error: MessageErrorDto | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: [MessageVersionDto] }) versions: MessageVersionDto[];
  @ApiProperty({ type: [ToolCallDto] }) toolCalls: ToolCallDto[];
}

export class ExportedConversationDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Informative: an import gets a new id.' }) id?: string;
  @ApiProperty({ maxLength: 1000 }) title: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Informative: an imported conversation is updated at the time of the import.' })
  updatedAt?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'A JSON object of at most 64 KB; default {}.' })
  state?: Record<string, unknown>;
  @ApiPropertyOptional({ default: false }) archived?: boolean;
  @ApiPropertyOptional({ default: false }) pinned?: boolean;
  @ApiPropertyOptional({ type: [String], maxItems: MAX_TAGS }) tags?: string[];
  @ApiPropertyOptional({ type: ExportedAgentDto, nullable: true, description: 'Informative: an import binds the agent given as ?agentId=, if any.' })
  agent?: ExportedAgentDto | null;
  @ApiPropertyOptional({ type: [ExportedThreadDto] }) threads?: ExportedThreadDto[];
  @ApiPropertyOptional({ type: [ExportedSummaryDto] }) summaries?: ExportedSummaryDto[];
  @ApiProperty({ type: [ExportedMessageDto] }) messages: ExportedMessageDto[];
}

export class ConversationExportDto {
  @ApiProperty({ enum: [CONVERSATION_EXPORT_FORMAT] }) format: string;
  @ApiProperty({ enum: [EXPORT_VERSION] }) version: number;
  @ApiPropertyOptional({ format: 'date-time' }) exportedAt?: string;
  @ApiProperty({ type: ExportedConversationDto }) conversation: ExportedConversationDto;
}

export class AccountExportDto {
  @ApiProperty({ enum: [ACCOUNT_EXPORT_FORMAT] }) format: string;
  @ApiProperty({ enum: [EXPORT_VERSION] }) version: number;
  @ApiProperty({ format: 'date-time' }) exportedAt: string;
  @ApiProperty({ example: 'api:alice', description: 'Whose data this is.' }) actor: string;
  @ApiProperty({ type: [ExportedAgentDto] }) agents: ExportedAgentDto[];
  @ApiProperty({ type: [ConversationExportDto], description: 'Each one a conversation export, importable as it is.' })
  conversations: ConversationExportDto[];
}

export class ImportProblemDto {
  @ApiProperty({ example: '$.conversation.messages[3].role' }) path: string;
  @ApiProperty({ example: 'must be one of: user, assistant' }) message: string;
}

/** 400 for an import document that is not a valid conversation export. */
export class ImportErrorDto extends ErrorDto {
  @ApiPropertyOptional({ type: [ImportProblemDto], description: 'For a rejected document: the first 20 problems, with their JSON paths.' })
  problems?: ImportProblemDto[];
}

export class ErasedDataDto {
  @ApiProperty() conversations: number;
  @ApiProperty() messages: number;
  @ApiProperty() threads: number;
  @ApiProperty() summaries: number;
  @ApiProperty() tags: number;
  @ApiProperty() agents: number;
  @ApiProperty() idempotencyKeys: number;
}
