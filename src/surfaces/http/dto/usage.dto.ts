import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, Matches } from 'class-validator';
import { AGENT_FILTER_PATTERN } from './conversation.dto.js';
import { OptionalThreadName } from '../../requests/thread-name.js';

/** What IsISO8601 reads, as the document's formats say it: a date, or a date-time with its offset. */
const DATE_OR_DATE_TIME = {
  anyOf: [
    { type: 'string', format: 'date' },
    { type: 'string', format: 'date-time' },
  ],
};

export class UsageQueryDto {
  @ApiPropertyOptional({
    description: 'Start (inclusive), ISO 8601 date or date-time; default 30 days before `to`.',
    example: '2026-11-01',
    ...DATE_OR_DATE_TIME,
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({
    description: 'End (exclusive), ISO 8601; default now. A bare date means the start of that day (UTC).',
    ...DATE_OR_DATE_TIME,
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({
    description: 'An agent id, or "none" for conversations without an agent.',
    pattern: AGENT_FILTER_PATTERN,
  })
  @IsOptional()
  @Matches(/^(none|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i, {
    message: 'agentId must be an agent id (uuid) or "none"',
  })
  agentId?: string;
}

class UsageRowDto {
  @ApiProperty() promptTokens: number;
  @ApiProperty() completionTokens: number;
  @ApiProperty({ description: 'Replies counted.' }) replies: number;
}

class UsageByModelDto extends UsageRowDto {
  @ApiProperty() model: string;
}

class UsageByDayDto extends UsageRowDto {
  @ApiProperty({ example: '2026-11-30', description: 'UTC day.' }) day: string;
}

export class UsageReportDto {
  @ApiProperty({ format: 'date-time' }) from: string;
  @ApiProperty({ format: 'date-time' }) to: string;
  @ApiProperty({ type: UsageRowDto }) totals: UsageRowDto;
  @ApiProperty({ type: [UsageByModelDto] }) byModel: UsageByModelDto[];
  @ApiProperty({ type: [UsageByDayDto] }) byDay: UsageByDayDto[];
}

export class ContextQueryDto {
  @OptionalThreadName()
  thread?: string;
}

class ContextPartDto {
  @ApiProperty({
    enum: ['system', 'memory', 'recall', 'summary', 'pinned', 'history'],
    description:
      "memory: the long-term memories sent; recall: excerpts of the actor's earlier conversations matching the message; pinned: a pinned message, sent whatever the window.",
  })
  kind: string;
  @ApiProperty({ enum: ['system', 'user', 'assistant'] }) role: string;
  @ApiProperty() content: string;
  @ApiProperty({ description: 'Tokens this message costs, chat format included.' }) tokens: number;
  @ApiPropertyOptional({ description: 'The stored message (history), or the last seq the summary covers.' })
  seq?: number;
}

export class ContextPreviewDto {
  @ApiProperty() model: string;
  @ApiProperty({ example: 'o200k_base' }) encoding: string;
  @ApiProperty() budget: number;
  @ApiProperty({ description: 'HISTORY_WINDOW: at most this many history messages.' }) window: number;
  @ApiProperty({ description: 'Tokens of everything below, request overhead included.' }) totalTokens: number;
  @ApiProperty({ description: 'Tokens left for the next message.' }) availableForMessage: number;
  @ApiProperty({ type: [ContextPartDto] }) messages: ContextPartDto[];
  @ApiProperty({ description: 'Window messages left out because they did not fit the budget.' })
  omittedForBudget: number;
  @ApiProperty({ description: 'Replayable messages older than what is sent (covered by the summary, or forgotten).' })
  outsideWindow: number;
  @ApiProperty({ type: Number, nullable: true, description: 'The summary covers the thread up to this seq.' })
  summaryCoversSeq: number | null;
  @ApiProperty() summaryIncluded: boolean;
  @ApiProperty({
    type: [String],
    description: 'The long-term memories sent (without a message to match, only the pinned ones).',
  })
  memoryIds: string[];
  @ApiProperty({ type: [String], description: 'The recalled messages sent (none without a message to match).' })
  recalledMessageIds: string[];
}
