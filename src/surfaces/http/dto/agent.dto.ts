import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  AGENT_TOOLS,
  MEMORY_MODES,
  type Agent,
  type AgentTool,
  type MemoryMode,
} from '../../../agents/agent.entity.js';

export class CreateAgentDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Travel planner' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ type: String, maxLength: 32, example: '🧭', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  emoji?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 2000, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    maxLength: 32000,
    nullable: true,
    description: 'Sent first to the model on every turn.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(32_000)
  systemPrompt?: string | null;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: 200,
    nullable: true,
    description: 'Overrides LLM_MODEL.',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  model?: string | null;

  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: 2, nullable: true })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(2)
  temperature?: number | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1_000_000, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxTokens?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 100,
    maximum: 10_000_000,
    nullable: true,
    description: 'Overrides CONTEXT_TOKEN_BUDGET for this agent.',
  })
  @IsOptional()
  @IsInt()
  @Min(100)
  @Max(10_000_000)
  contextTokenBudget?: number | null;

  @ApiPropertyOptional({
    enum: AGENT_TOOLS,
    isArray: true,
    maxItems: AGENT_TOOLS.length,
    uniqueItems: true,
    description: 'Built-in tools the model may call.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(AGENT_TOOLS.length)
  @ArrayUnique()
  @IsIn(AGENT_TOOLS, { each: true, message: `tools must be among: ${AGENT_TOOLS.join(', ')}` })
  tools?: AgentTool[];

  @ApiPropertyOptional({
    // OpenAPI 3.0.3: an enum lists null itself, `nullable` beside it is not enough.
    enum: [...MEMORY_MODES, null],
    nullable: true,
    description:
      "Narrows MEMORY_MODE for this agent's turns: off (no memory), read (memories read, never written), on (read, and written by the remember and forget tools when enabled). Null: as MEMORY_MODE says.",
  })
  @IsOptional()
  @IsIn(MEMORY_MODES)
  memoryMode?: MemoryMode | null;
}

/** Every field optional; `null` clears a nullable one. */
export class UpdateAgentDto extends PartialType(CreateAgentDto) {}

export class DeleteAgentQueryDto {
  @ApiPropertyOptional({
    enum: ['detach', 'delete'],
    description: 'Required when the agent has conversations: keep them without an agent (detach), or delete them too.',
  })
  @IsOptional()
  @IsIn(['detach', 'delete'])
  conversations?: 'detach' | 'delete';
}

export class AgentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) emoji: string | null;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true }) systemPrompt: string | null;
  @ApiProperty({ type: String, nullable: true }) model: string | null;
  @ApiProperty({ type: Number, nullable: true }) temperature: number | null;
  @ApiProperty({ type: Number, nullable: true }) maxTokens: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) contextTokenBudget: number | null;
  @ApiProperty({ enum: AGENT_TOOLS, isArray: true }) tools: string[];
  @ApiProperty({ type: String, nullable: true, description: 'off, read or on; null: MEMORY_MODE as it is.' })
  memoryMode: MemoryMode | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** One page holds every agent an actor may have under the default MAX_AGENTS_PER_ACTOR. */
export const AGENT_PAGE_MAX = 200;

export class ListAgentsQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: AGENT_PAGE_MAX, default: AGENT_PAGE_MAX })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(AGENT_PAGE_MAX)
  limit?: number;

  // A cursor holds the last agent's name (up to 100 characters), hence longer than other lists' cursors.
  @ApiPropertyOptional({ description: 'The nextCursor of the previous page.', maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}

export class AgentListDto {
  @ApiProperty({ type: [AgentDto] }) items: AgentDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next page; null on the last.' })
  nextCursor: string | null;
}

export class AgentDeletedDto {
  @ApiProperty({ description: 'How many conversations were detached or deleted with the agent.' })
  conversations: number;
}

export function toAgentDto(a: Agent): AgentDto {
  return {
    id: a.id,
    name: a.name,
    emoji: a.emoji,
    description: a.description,
    systemPrompt: a.systemPrompt,
    model: a.model,
    temperature: a.temperature,
    maxTokens: a.maxTokens,
    contextTokenBudget: a.contextTokenBudget,
    tools: a.tools,
    memoryMode: a.memoryMode ?? null,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}
