import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { ChatService } from '../../../chat/chat.service.js';
import { ApiErrors } from '../api-errors.decorator.js';
import { ChatRequestDto, ChatResponseDto } from '../dto/chat.dto.js';
import { ChatErrorDto } from '../dto/error.dto.js';

@ApiTags('chat')
@ApiBearerAuth()
@Controller('api/chat')
export class ChatController {
  constructor(private readonly chat: ChatService) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'chat',
    summary: 'Send a message and get the reply',
    description:
      'Starts a conversation (no conversationId) or resumes one, replays its recent history to the model, ' +
      'stores both messages and returns the reply. The user message is stored before the model is called.',
  })
  @ApiOkResponse({ type: ChatResponseDto })
  @ApiErrors([400, 401, 403, 404, 413])
  @ApiErrors([502, 504], ChatErrorDto)
  async send(@CurrentActor() actor: Actor, @Body() body: ChatRequestDto): Promise<ChatResponseDto> {
    const result = await this.chat.send(actor, { message: body.message, conversationId: body.conversationId });
    return {
      conversationId: result.conversationId,
      reply: result.reply,
      title: result.title,
      created: result.created,
      userMessageId: result.userMessageId,
      messageId: result.messageId,
      model: result.model,
      usage: result.usage,
    };
  }
}
