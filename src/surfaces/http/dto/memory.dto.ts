import { ApiProperty, ApiPropertyOptional, PartialType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { MAX_MEMORY_CHARS, type Memory } from '../../../memory/memory.entity.js';
import { AgentFilterQueryDto } from './conversation.dto.js';
import { NOT_BLANK_PATTERN } from './text-patterns.js';
import { PageCursor, PageLimit, SearchQuery } from './page-query.js';

export class CreateMemoryDto {
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_MEMORY_CHARS,
    pattern: NOT_BLANK_PATTERN,
    example: 'Prefers answers in French.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_MEMORY_CHARS)
  @Matches(/^[^\u0000]*$/, { message: 'text must not contain NUL characters' })
  text: string;

  @ApiPropertyOptional({ description: 'Read on every turn (default false: read when it matches the message).' })
  @IsOptional()
  @IsBoolean()
  pinned?: boolean;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "Read only in this agent's conversations (default: in all of them).",
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsUUID()
  agentId?: string | null;
}

/** Every field optional; `agentId: null` makes the memory global. */
export class UpdateMemoryDto extends PartialType(PickType(CreateMemoryDto, ['text', 'pinned', 'agentId'] as const)) {}

export class ListMemoriesQueryDto extends AgentFilterQueryDto {
  @SearchQuery('Full-text search: memories holding every word, best first (one page).')
  q?: string;

  @PageLimit()
  limit?: number;

  @PageCursor()
  cursor?: string;
}

export class MemoryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() text: string;
  @ApiProperty() pinned: boolean;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "Read only in this agent's conversations; null: in all.",
  })
  agentId: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The conversation it was learned in (it may be deleted since).',
  })
  sourceConversationId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The reply that remembered it.' })
  sourceMessageId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class MemoryListDto {
  @ApiProperty({ type: [MemoryDto] }) items: MemoryDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as cursor for the next page; null on the last (and with q).',
  })
  nextCursor: string | null;
}

export function toMemoryDto(m: Memory): MemoryDto {
  return {
    id: m.id,
    text: m.text,
    pinned: m.pinned,
    agentId: m.agentId,
    sourceConversationId: m.sourceConversationId,
    sourceMessageId: m.sourceMessageId,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

/** The most memories one import takes. */
const MAX_IMPORTED_MEMORIES = 1000;

class ImportedMemoryDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_MEMORY_CHARS, pattern: NOT_BLANK_PATTERN })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_MEMORY_CHARS)
  @Matches(/^[^\u0000]*$/, { message: 'text must not contain NUL characters' })
  text: string;

  @ApiPropertyOptional() @IsOptional() @IsBoolean() pinned?: boolean;
  @ApiPropertyOptional({ format: 'date-time' }) @IsOptional() @IsDateString() createdAt?: string;
  @ApiPropertyOptional({ format: 'date-time' }) @IsOptional() @IsDateString() updatedAt?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Ignored (an export writes it): an import is not scoped to an agent.',
  })
  @IsOptional()
  @IsString()
  id?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Ignored: imported memories are global.' })
  @IsOptional()
  @IsString()
  agentId?: string | null;
}

export class ImportMemoriesDto {
  @ApiProperty({
    type: [ImportedMemoryDto],
    maxItems: MAX_IMPORTED_MEMORIES,
    description: 'The `memories` of an account export (GET /api/me/export), or any list in that shape.',
  })
  @IsArray()
  @ArrayMaxSize(MAX_IMPORTED_MEMORIES)
  @ValidateNested({ each: true })
  @Type(() => ImportedMemoryDto)
  memories: ImportedMemoryDto[];
}

export class MemoriesImportedDto {
  @ApiProperty({ description: 'How many memories were created.' }) imported: number;
}
