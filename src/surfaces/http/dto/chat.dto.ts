import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, IsUUID } from 'class-validator';

export class ChatRequestDto {
  @ApiProperty({ description: 'The user message (at most MAX_MESSAGE_CHARS characters).', example: 'Hello!' })
  @IsString()
  @IsNotEmpty()
  message: string;

  @ApiPropertyOptional({ description: 'Resume this conversation; omit to start a new one.', format: 'uuid' })
  @IsOptional()
  @IsUUID()
  conversationId?: string;
}

export class UsageDto {
  @ApiProperty() promptTokens: number;
  @ApiProperty() completionTokens: number;
}

export class ChatResponseDto {
  @ApiProperty({ format: 'uuid' }) conversationId: string;
  @ApiProperty({ description: 'The assistant reply, already stored.' }) reply: string;
  @ApiProperty({ description: 'Conversation title (its first message, 60 characters).' }) title: string;
  @ApiProperty({ description: 'True when this turn started the conversation.' }) created: boolean;
  @ApiProperty({ format: 'uuid' }) userMessageId: string;
  @ApiProperty({ format: 'uuid', description: 'Id of the stored assistant message.' }) messageId: string;
  @ApiProperty({ enum: ['complete', 'cancelled'], description: '"cancelled" when a stop request ended the reply early (reply holds the text so far).' })
  status: string;
  @ApiProperty({ type: String, nullable: true, description: 'The model that wrote the reply.' }) model: string | null;
  @ApiProperty({ type: UsageDto, nullable: true, description: 'Token usage reported by the model, if any.' })
  usage: UsageDto | null;
}
