import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsNotEmpty, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { MESSAGE_ROLES, type MessageRole } from '../../../conversations/message.entity.js';
import { MAX_QUERY_CHARS, type MessageHit } from '../../../recall/recall.service.js';
import { AgentFilterQueryDto } from './conversation.dto.js';
import { PageCursor, PageLimit } from './page-query.js';
import { NOT_BLANK_PATTERN } from './text-patterns.js';

export class SearchMessagesQueryDto extends AgentFilterQueryDto {
  @ApiProperty({
    description:
      'Words to look for, as one would ask (any word matches; messages holding more of them, and rarer ones, rank first; stemmed; ' +
      'stop words ignored). "a phrase" in double quotes, -word to exclude, word* for a prefix.',
    minLength: 1,
    maxLength: MAX_QUERY_CHARS,
    pattern: NOT_BLANK_PATTERN,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_QUERY_CHARS)
  @Matches(/^[^\u0000]*$/, { message: 'q must not contain NUL characters' })
  @Matches(/\S/, { message: 'q must not be blank' })
  q: string;

  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;

  @ApiPropertyOptional({ description: 'Only messages created before this instant (ISO 8601).', format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  before?: string;

  @ApiPropertyOptional({ description: 'Only messages created after this instant (ISO 8601).', format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  after?: string;

  @ApiPropertyOptional({ enum: MESSAGE_ROLES, description: 'Only messages of this role.' })
  @IsOptional()
  @IsIn(MESSAGE_ROLES)
  role?: MessageRole;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only messages of this conversation.' })
  @IsOptional()
  @IsUUID()
  conversationId?: string;
}

class MessageHitDto {
  @ApiProperty({ format: 'uuid' }) messageId: string;
  @ApiProperty({ format: 'uuid' }) conversationId: string;
  @ApiProperty() conversationTitle: string;
  @ApiProperty({
    type: 'integer',
    description:
      "The message's place in its conversation (GET /api/conversations/{id}/messages?before=seq+1 reads up to it).",
  })
  seq: number;
  @ApiProperty({ description: 'The thread the message belongs to.' }) thread: string;
  @ApiProperty({ enum: MESSAGE_ROLES }) role: MessageRole;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ description: 'A piece of the message around the matched words, each in [brackets].' }) snippet: string;
  @ApiProperty({
    description:
      "Whether the message is on its thread's active path (false: on a branch left aside; select it to continue from there).",
  })
  onPath: boolean;
  @ApiProperty({ description: 'How well the message matches (higher is better); comparable within one search only.' })
  score: number;
}

export class MessageSearchPageDto {
  @ApiProperty({ type: [MessageHitDto], description: 'Best first.' }) items: MessageHitDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as cursor, with the same query, for the next page; null: no more.',
  })
  nextCursor: string | null;
}

export function toMessageHit(h: MessageHit): MessageHitDto {
  return {
    messageId: h.messageId,
    conversationId: h.conversationId,
    conversationTitle: h.conversationTitle,
    seq: h.seq,
    thread: h.thread,
    role: h.role,
    createdAt: h.createdAt.toISOString(),
    snippet: h.snippet,
    onPath: h.onPath,
    score: h.score,
  };
}
