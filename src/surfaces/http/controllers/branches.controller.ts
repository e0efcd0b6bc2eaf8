import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { ChatService } from '../../../chat/chat.service.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { ConversationTreeService } from '../../../conversations/conversation-tree.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { toChatResponse } from '../dto/chat-result.mapper.js';
import { ChatResponseDto, EditMessageRequestDto } from '../dto/chat.dto.js';
import { MessagesPageQueryDto } from '../dto/conversation.dto.js';
import { MessageDto, MessagesPageDto, toMessageDto, toMessagesPage } from '../dto/message.dto.js';
import { ChatErrorDto } from '../../errors/error.dto.js';
import { ApiEventStream, TURN_EVENTS } from '../sse/sse-docs.js';
import { CountedStream } from '../../streaming/stream-slots.js';
import { streamTurn } from '../sse/stream-turn.js';

const EDIT =
  'A new user message beside this one (its sibling, with the same parent), then its reply, as a turn: the new branch becomes ' +
  "the thread's active path, and only it is replayed to the model. The edited message and its answers stay, selectable.";

/** The conversation as a tree: edit a question, switch branches, read every branch. */
@ApiTags('messages')
@ApiBearerAuth()
@Controller('api/conversations/:id')
export class BranchesController {
  constructor(
    private readonly chat: ChatService,
    private readonly tree: ConversationTreeService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('tree')
  @ApiOperation({
    operationId: 'listTree',
    summary: 'Every message of every branch with its parent, from the newest backwards (before=seq for older ones)',
    description: 'For tree views and tools: pages like /messages, but across branches; onPath tells the active path.',
  })
  @ApiOkResponse({ type: MessagesPageDto })
  @ApiErrors([400, 401, 404])
  async page(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Query() query: MessagesPageQueryDto,
  ): Promise<MessagesPageDto> {
    const limit = query.limit ?? 50;
    // One extra message tells whether an older page exists.
    const page = await this.tree.page(actor, id, { before: query.before, limit: limit + 1, thread: query.thread });
    return toMessagesPage(page, limit);
  }

  @Post('messages/:messageId/select')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'selectBranch',
    summary: "Make a message's branch its thread's active path, down to its newest leaf",
    description:
      'Switches between versions (‹ 2/3 ›): the next turn continues there and only it is sent to the model. 409 while a reply of the thread is being generated.',
  })
  @ApiOkResponse({ type: MessageDto })
  @ApiErrors([400, 401, 404, 409])
  async select(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Param('messageId', ParseUUIDPipe) messageId: string,
  ): Promise<MessageDto> {
    return toMessageDto(await this.tree.select(actor, id, messageId));
  }

  @Post('messages/:messageId/edit')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'editMessage',
    summary: 'Ask a user message again in other words, on a new branch',
    description: EDIT,
  })
  @ApiOkResponse({ type: ChatResponseDto })
  @ApiErrors([400, 401, 404, 413, 422])
  @ApiErrors([409, 502, 504], ChatErrorDto)
  async edit(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Param('messageId', ParseUUIDPipe) messageId: string,
    @Body() body: EditMessageRequestDto,
  ): Promise<ChatResponseDto> {
    return toChatResponse(
      await this.chat.run(actor, {
        edit: { conversationId: id, messageId, message: body.message, options: body.options },
      }),
    );
  }

  @Post('messages/:messageId/edit/stream')
  @ApiOperation({
    operationId: 'editMessageStream',
    summary: 'Edit a user message, streaming the new answer',
    description: `${EDIT} ${TURN_EVENTS}`,
  })
  @ApiEventStream(TURN_EVENTS)
  @CountedStream()
  @ApiErrors([400, 401, 404, 413, 422])
  @ApiErrors([409], ChatErrorDto)
  async editStream(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Param('messageId', ParseUUIDPipe) messageId: string,
    @Body() body: EditMessageRequestDto,
    @Res() res: Response,
  ): Promise<void> {
    await streamTurn(res, this.config, (events) =>
      this.chat.run(
        actor,
        { edit: { conversationId: id, messageId, message: body.message, options: body.options } },
        { events },
      ),
    );
  }
}
