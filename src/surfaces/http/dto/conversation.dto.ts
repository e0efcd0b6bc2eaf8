import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { Conversation } from '../../../conversations/conversation.entity.js';
import { MESSAGE_ROLES, MESSAGE_STATUSES, type Message } from '../../../conversations/message.entity.js';

export class ListConversationsQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'The nextCursor of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}

export class ConversationSummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() title: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'Time of the latest message.' }) updatedAt: string;
}

export class ConversationPageDto {
  @ApiProperty({ type: [ConversationSummaryDto] }) items: ConversationSummaryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next page; null on the last.' })
  nextCursor: string | null;
}

export class MessageVersionDto {
  @ApiProperty() content: string;
  @ApiProperty({ enum: MESSAGE_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true }) model: string | null;
  @ApiProperty({ type: Number, nullable: true }) promptTokens: number | null;
  @ApiProperty({ type: Number, nullable: true }) completionTokens: number | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class MessageErrorDto {
  @ApiProperty({ example: 502, description: 'The HTTP status the failure maps to (502 model error, 504 timeout).' })
  statusCode: number;
  @ApiProperty() message: string;
}

export class MessageDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Position in the conversation, 1-based, without gaps.' }) seq: number;
  @ApiProperty({ enum: MESSAGE_ROLES }) role: string;
  @ApiProperty() content: string;
  @ApiProperty({
    enum: MESSAGE_STATUSES,
    description:
      '"streaming": being generated (content grows); "complete"; "failed": the model broke off (partial text kept, see error); ' +
      '"cancelled": stopped on request (partial text kept). Only complete messages are replayed to the model.',
  })
  status: string;
  @ApiProperty({ type: String, nullable: true }) model: string | null;
  @ApiProperty({ type: Number, nullable: true }) promptTokens: number | null;
  @ApiProperty({ type: Number, nullable: true }) completionTokens: number | null;
  @ApiProperty({ type: MessageErrorDto, nullable: true, description: 'Why a failed reply failed.' })
  error: MessageErrorDto | null;
  @ApiProperty({ type: [MessageVersionDto], description: 'Earlier answers replaced by regenerate, oldest first; never replayed.' })
  versions: MessageVersionDto[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class ConversationDetailDto extends ConversationSummaryDto {
  @ApiProperty({ type: [MessageDto] }) messages: MessageDto[];
}

export function toConversationSummary(c: Conversation): ConversationSummaryDto {
  return { id: c.id, title: c.title, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() };
}

export function toMessageDto(m: Message): MessageDto {
  return {
    id: m.id,
    seq: m.seq,
    role: m.role,
    content: m.content,
    status: m.status,
    model: m.model,
    promptTokens: m.promptTokens,
    completionTokens: m.completionTokens,
    error: m.errorStatus !== null ? { statusCode: m.errorStatus, message: m.errorMessage ?? '' } : null,
    versions: m.versions ?? [],
    createdAt: m.createdAt.toISOString(),
  };
}
