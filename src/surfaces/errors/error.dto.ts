import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_BODY_CODES } from './error-codes.js';

/** The body of every error answer. */
export class ErrorDto {
  @ApiProperty({ example: 404 }) statusCode: number;
  @ApiProperty({ example: 'Not Found' }) error: string;
  @ApiProperty({
    enum: ERROR_BODY_CODES,
    enumName: 'ErrorCode',
    example: 'conversation_not_found',
    description: 'The stable machine code of the error (docs/api.md, Error codes): act on it, not on `message`.',
  })
  code: string;
  @ApiProperty({ example: 'Conversation 2f1c… not found' }) message: string;
}

/** A chat turn whose message was stored but whose reply failed (502, 504). */
export class ChatErrorDto extends ErrorDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The conversation holding the stored user message; retry in it.',
  })
  conversationId?: string;
  @ApiPropertyOptional({ format: 'uuid' }) userMessageId?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'The reply (failed) or the reply in progress (409).' })
  messageId?: string;
}

/** Deleting an agent that still has conversations (409). */
export class AgentInUseErrorDto extends ErrorDto {
  @ApiProperty({ description: 'How many conversations the agent has.' }) conversations: number;
}
