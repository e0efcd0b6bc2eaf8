import { ModelName } from './model-name.js';
import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { NOT_BLANK_PATTERN } from './text-patterns.js';
import { OptionalThreadName } from '../../requests/thread-name.js';
import { ModelOptionsDto, ModelOptionsField } from '../../requests/model-options.js';
import { IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

export class ChatRequestDto {
  // The length bound is MAX_MESSAGE_CHARS, a setting: the document only states what always holds.
  @ApiProperty({
    description: 'The user message (at most MAX_MESSAGE_CHARS characters), not blank.',
    example: 'Hello!',
    minLength: 1,
    pattern: NOT_BLANK_PATTERN,
  })
  @IsString()
  @IsNotEmpty()
  message: string;

  @ApiPropertyOptional({ description: 'Resume this conversation; omit to start a new one.', format: 'uuid' })
  @IsOptional()
  @IsUUID()
  conversationId?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "Start the new conversation with this agent. On an existing conversation it must be the conversation's agent.",
  })
  @IsOptional()
  @IsUUID()
  agentId?: string;

  @OptionalThreadName('The thread to talk in; each has its own history.')
  thread?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "Continue from this message of the conversation instead of its thread's active leaf: a new branch when it is not the leaf, which becomes the active path.",
  })
  @IsOptional()
  @IsUUID()
  parentMessageId?: string;

  @ApiPropertyOptional({
    description: "Sets the thread's own system prompt, kept for its later turns (not stored as a message).",
    maxLength: 32_000,
  })
  @IsOptional()
  @IsString()
  @MaxLength(32_000)
  system?: string;

  @ModelName(
    "A new conversation's model: one of GET /api/models (400 otherwise), kept for its later turns. On an existing conversation it must be its model.",
  )
  @IsOptional()
  model?: string;

  @ModelOptionsField()
  options?: ModelOptionsDto;
}

export class RegenerateRequestDto extends PickType(ChatRequestDto, ['thread', 'options'] as const) {}

/** The new text of a user message, asked again. */
export class EditMessageRequestDto extends PickType(ChatRequestDto, ['message', 'options'] as const) {}

export class UsageDto {
  @ApiProperty() promptTokens: number;
  @ApiProperty() completionTokens: number;
}

export class ReplyCutReasonDto {
  @ApiProperty({
    enum: ['reply_too_long', 'reply_timeout'],
    description: 'reply_too_long: MAX_REPLY_CHARS; reply_timeout: LLM_MAX_REPLY_MS.',
  })
  code: string;
  @ApiProperty() message: string;
}

export class ChatResponseDto {
  @ApiProperty({ format: 'uuid' }) conversationId: string;
  @ApiProperty({ description: 'The assistant reply, already stored.' }) reply: string;
  @ApiProperty({ description: 'Conversation title (its first message, 60 characters).' }) title: string;
  @ApiProperty({ description: 'True when this turn started the conversation.' }) created: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "The conversation's agent." }) agentId:
    string | null;
  @ApiProperty({ description: 'The thread of this turn.' }) thread: string;
  @ApiProperty({ format: 'uuid' }) userMessageId: string;
  @ApiProperty({ format: 'uuid', description: 'Id of the stored assistant message.' }) messageId: string;
  @ApiProperty({
    enum: ['complete', 'truncated', 'cancelled'],
    description:
      '"truncated" when MAX_REPLY_CHARS or LLM_MAX_REPLY_MS cut the reply (reply holds the text up to the cut, see reason); "cancelled" when a stop request ended it early (reply holds the text so far).',
  })
  status: string;
  @ApiProperty({
    type: ReplyCutReasonDto,
    nullable: true,
    description: 'Why a truncated reply was cut; null otherwise.',
  })
  reason: ReplyCutReasonDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'The model that wrote the reply.' }) model: string | null;
  @ApiProperty({ type: UsageDto, nullable: true, description: 'Token usage reported by the model, if any.' })
  usage: UsageDto | null;
}
