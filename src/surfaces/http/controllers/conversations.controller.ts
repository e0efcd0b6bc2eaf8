import { Controller, Delete, Get, HttpCode, HttpStatus, Param, ParseUUIDPipe, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { ChatService } from '../../../chat/chat.service.js';
import { ConversationsService } from '../../../conversations/conversations.service.js';
import { ApiErrors } from '../api-errors.decorator.js';
import { toChatResponse } from '../dto/chat-result.mapper.js';
import { ChatResponseDto } from '../dto/chat.dto.js';
import { ChatErrorDto } from '../dto/error.dto.js';
import { ApiEventStream, TURN_EVENTS } from '../sse/sse-docs.js';
import { streamTurn } from '../sse/stream-turn.js';
import { ConversationOwnerGuard } from '../conversation-owner.guard.js';
import {
  ConversationDetailDto,
  ConversationPageDto,
  ListConversationsQueryDto,
  toConversationSummary,
  toMessageDto,
} from '../dto/conversation.dto.js';
import { ConcealForeignConversationFilter } from '../errors/conceal-foreign-conversation.filter.js';

@ApiTags('conversations')
@ApiBearerAuth()
@Controller('api/conversations')
@UseGuards(ConversationOwnerGuard)
@UseFilters(ConcealForeignConversationFilter)
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly chat: ChatService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listConversations', summary: "The caller's conversations, most recently updated first" })
  @ApiOkResponse({ type: ConversationPageDto })
  @ApiErrors([400, 401])
  async list(@CurrentActor() actor: Actor, @Query() query: ListConversationsQueryDto): Promise<ConversationPageDto> {
    const page = await this.conversations.list(actor, query.limit ?? 20, query.cursor);
    return { items: page.items.map(toConversationSummary), nextCursor: page.nextCursor };
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getConversation', summary: 'A conversation with all its messages in order' })
  @ApiOkResponse({ type: ConversationDetailDto })
  @ApiErrors([400, 401, 404])
  async get(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<ConversationDetailDto> {
    const { conversation, messages } = await this.conversations.getWithMessages(actor, id);
    return { ...toConversationSummary(conversation), messages: messages.map(toMessageDto) };
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ operationId: 'deleteConversation', summary: 'Delete a conversation and all its messages' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors([400, 401, 404])
  async delete(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.conversations.delete(actor, id);
  }

  @Post(':id/regenerate')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'regenerateReply',
    summary: "Answer the conversation's last question again",
    description:
      'After a failure, or to get another answer. The reply keeps its id; the answer it replaces is kept in its versions list ' +
      '(readable, never replayed to the model).',
  })
  @ApiOkResponse({ type: ChatResponseDto })
  @ApiErrors([400, 401, 404])
  @ApiErrors([409, 502, 504], ChatErrorDto)
  async regenerate(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<ChatResponseDto> {
    return toChatResponse(await this.chat.regenerate(actor, id));
  }

  @Post(':id/regenerate/stream')
  @ApiOperation({ operationId: 'regenerateReplyStream', summary: 'Regenerate, streaming the new answer', description: TURN_EVENTS })
  @ApiEventStream(TURN_EVENTS)
  @ApiErrors([400, 401, 404])
  @ApiErrors([409], ChatErrorDto)
  async regenerateStream(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string, @Res() res: Response): Promise<void> {
    await streamTurn(res, (events) => this.chat.regenerateStream(actor, id, events));
  }
}
