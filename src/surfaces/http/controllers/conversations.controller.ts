import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  NotFoundException,
  BadRequestException,
  Patch,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { ChatService } from '../../../chat/chat.service.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { ConversationsService } from '../../../conversations/conversations.service.js';
import { RecallService } from '../../../recall/recall.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { toChatResponse } from '../dto/chat-result.mapper.js';
import { ChatResponseDto, RegenerateRequestDto } from '../dto/chat.dto.js';
import {
  ActiveConversationQueryDto,
  agentFilter,
  ConversationDetailDto,
  ConversationPageDto,
  ConversationSummaryDto,
  CreateConversationDto,
  GetConversationQueryDto,
  ListConversationsQueryDto,
  MessagesPageQueryDto,
  UpdateConversationDto,
  toConversationDetail,
  toConversationSummary,
} from '../dto/conversation.dto.js';
import { MessagesPageDto, toMessagesPage } from '../dto/message.dto.js';
import { ChatErrorDto } from '../../errors/error.dto.js';
import { ContextPreviewDto, ContextQueryDto } from '../dto/usage.dto.js';
import { TOKENS_PER_MESSAGE } from '../../../context/token-counter.js';
import { MAIN_THREAD } from '../../../conversations/thread.entity.js';
import { ApiEventStream, TURN_EVENTS } from '../sse/sse-docs.js';
import { CountedStream } from '../../streaming/stream-slots.js';
import { streamTurn } from '../sse/stream-turn.js';
import { ApiCreated } from '../created-location.js';

@ApiTags('conversations')
@ApiBearerAuth()
@Controller('api/conversations')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly chat: ChatService,
    private readonly recall: RecallService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listConversations',
    summary: "The caller's conversations, most recently updated first, or the best matches of a search (q)",
    description:
      'Archived conversations are left out unless archived=true; pinnedFirst=true lists pinned ones first. With q, results are ranked, carry a snippet and the best message, and come in one page.',
  })
  @ApiOkResponse({ type: ConversationPageDto })
  @ApiErrors([400, 401, 404])
  async list(@CurrentActor() actor: Actor, @Query() query: ListConversationsQueryDto): Promise<ConversationPageDto> {
    const limit = query.limit ?? 20;
    if (query.q !== undefined) {
      const combined = (['cursor', 'agentId', 'archived', 'pinned', 'pinnedFirst', 'tag'] as const).filter(
        (k) => query[k] !== undefined,
      );
      if (combined.length)
        throw new BadRequestException(
          `${combined.join(', ')} cannot be combined with q: search answers one ranked page over all conversations`,
        );
      const hits = await this.recall.searchConversations(actor, query.q, limit);
      return {
        items: hits.map((h) => ({
          ...toConversationSummary(h.conversation),
          snippet: h.snippet,
          messageId: h.messageId,
          messageSeq: h.messageSeq,
          messageThread: h.messageThread,
          onPath: h.onPath,
        })),
        nextCursor: null,
      };
    }
    const filters = {
      archived: query.archived,
      pinned: query.pinned,
      pinnedFirst: query.pinnedFirst,
      tag: query.tag?.trim().toLowerCase(),
    };
    const page = await this.conversations.list(actor, limit, query.cursor, agentFilter(query.agentId), filters);
    return { items: page.items.map(toConversationSummary), nextCursor: page.nextCursor };
  }

  @Post()
  @ApiOperation({
    operationId: 'createConversation',
    summary: 'Create an empty conversation, optionally with an agent and an initial state',
    description:
      'For a client that wants the id before the first message, or a conversation that starts with a state. memory=false makes a temporary chat: no long-term memory is read or written. Answers 201 with a Location header.',
  })
  @ApiCreated(ConversationDetailDto, (c) => `/api/conversations/${c.id}`)
  @ApiErrors([400, 401, 404])
  async create(@CurrentActor() actor: Actor, @Body() body: CreateConversationDto): Promise<ConversationDetailDto> {
    const conversation = await this.conversations.create(actor, {
      title: body.title,
      agentId: body.agentId,
      state: body.state,
      memory: body.memory,
      model: body.model,
    });
    return toConversationDetail({ conversation, threads: [], messages: [], nextBefore: null });
  }

  // Declared before ':id' so that "active" is not taken for an id.
  @Get('active')
  @ApiOperation({
    operationId: 'getActiveConversation',
    summary: 'The most recently updated conversation of an agent (agentId=none: without an agent; omitted: any)',
    description:
      'The conversation to continue, for clients that keep no id: the newest by last update, with its latest messages (limit). 404 when the caller has none that matches.',
  })
  @ApiOkResponse({ type: ConversationDetailDto })
  @ApiErrors([400, 401, 404])
  async active(
    @CurrentActor() actor: Actor,
    @Query() query: ActiveConversationQueryDto,
  ): Promise<ConversationDetailDto> {
    const latest = await this.conversations.mostRecent(actor, agentFilter(query.agentId));
    if (!latest)
      throw new NotFoundException('No conversation matches: start one with POST /api/chat or POST /api/conversations');
    return toConversationDetail(await this.conversations.getWithMessages(actor, latest.id, { limit: query.limit }));
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getConversation',
    summary: "A conversation with its state, threads and messages in order (one thread's with ?thread=)",
    description:
      "The main thread unless ?thread= names another, its messages along the active path in order (limit: only the newest). Another caller's conversation answers 404, like a missing one.",
  })
  @ApiOkResponse({ type: ConversationDetailDto })
  @ApiErrors([400, 401, 404])
  async get(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Query() query: GetConversationQueryDto,
  ): Promise<ConversationDetailDto> {
    return toConversationDetail(
      await this.conversations.getWithMessages(actor, id, { thread: query.thread, limit: query.limit }),
    );
  }

  @Get(':id/context')
  @ApiOperation({
    operationId: 'previewContext',
    summary: 'What the next turn of a thread would send the model, with token counts (the new message aside)',
    description:
      'Shows the budget, every part with its tokens, and what was left out, to see why the model "forgot" something.',
  })
  @ApiOkResponse({ type: ContextPreviewDto })
  @ApiErrors([400, 401, 404])
  async context(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Query() query: ContextQueryDto,
  ): Promise<ContextPreviewDto> {
    const preview = await this.chat.previewContext(actor, id, query.thread ?? MAIN_THREAD);
    const { context } = preview;
    return {
      model: preview.model,
      encoding: preview.encoding,
      budget: context.budget,
      window: context.window,
      totalTokens: context.totalTokens,
      availableForMessage: Math.max(0, context.budget - context.totalTokens - TOKENS_PER_MESSAGE),
      messages: context.messages.map((m, i) => ({ ...context.parts[i], content: m.content })),
      omittedForBudget: context.omittedForBudget,
      outsideWindow: preview.outsideWindow,
      summaryCoversSeq: preview.summaryCoversSeq,
      summaryIncluded: context.summaryIncluded,
      memoryIds: [...context.memoryIds],
      recalledMessageIds: [...context.recalledMessageIds],
    };
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateConversation',
    summary: 'Rename, archive, pin or re-tag a conversation',
    description: 'Only the fields sent change; its messages and updatedAt stay as they are.',
  })
  @ApiOkResponse({ type: ConversationSummaryDto })
  @ApiErrors([400, 401, 404])
  async update(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: UpdateConversationDto,
  ): Promise<ConversationSummaryDto> {
    return toConversationSummary(await this.conversations.update(actor, id, body));
  }

  @Get(':id/messages')
  @ApiOperation({
    operationId: 'listMessages',
    summary: 'A page of the active path from the newest backwards (before=seq for older ones)',
    description:
      'For long conversations: load the last 50, then pass nextBefore to scroll up. Pages along the active path, through its own index; /tree pages every branch.',
  })
  @ApiOkResponse({ type: MessagesPageDto })
  @ApiErrors([400, 401, 404])
  async messages(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Query() query: MessagesPageQueryDto,
  ): Promise<MessagesPageDto> {
    const limit = query.limit ?? 50;
    // One extra message tells whether an older page exists.
    const page = await this.conversations.messagesPage(actor, id, {
      before: query.before,
      limit: limit + 1,
      thread: query.thread,
    });
    return toMessagesPage(page, limit);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    operationId: 'deleteConversation',
    summary: 'Delete a conversation and all its messages',
    description: 'Its threads, messages, summaries and share links go with it, at once and for good.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors([400, 401, 404])
  async delete(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.conversations.delete(actor, id);
  }

  @Post(':id/regenerate')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'regenerateReply',
    summary: "Answer a thread's last question again",
    description:
      'After a failure, or to get another answer: a new reply beside the one it replaces (its sibling), which becomes the ' +
      "thread's active path. The earlier answer stays, selectable, and is listed in the new reply's versions (never replayed to the model).",
  })
  @ApiOkResponse({ type: ChatResponseDto })
  // A body-less POST regenerates with the defaults (docs/api.md shows it so).
  @ApiBody({ type: RegenerateRequestDto, required: false })
  @ApiErrors([400, 401, 404])
  @ApiErrors([409, 502, 504], ChatErrorDto)
  async regenerate(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: RegenerateRequestDto,
  ): Promise<ChatResponseDto> {
    return toChatResponse(await this.chat.run(actor, { regenerate: { ...body, conversationId: id } }));
  }

  @Post(':id/regenerate/stream')
  @ApiOperation({
    operationId: 'regenerateReplyStream',
    summary: 'Regenerate, streaming the new answer',
    description: TURN_EVENTS,
  })
  @ApiEventStream(TURN_EVENTS)
  @CountedStream()
  @ApiBody({ type: RegenerateRequestDto, required: false })
  @ApiErrors([400, 401, 404])
  @ApiErrors([409], ChatErrorDto)
  async regenerateStream(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: RegenerateRequestDto,
    @Res() res: Response,
  ): Promise<void> {
    await streamTurn(res, this.config, (events) =>
      this.chat.run(actor, { regenerate: { ...body, conversationId: id } }, { events }),
    );
  }
}
