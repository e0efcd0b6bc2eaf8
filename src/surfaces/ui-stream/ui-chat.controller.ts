import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  Logger,
  Param,
  Post,
  Query,
  Res,
  type PipeTransform,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '../../actor-auth/actor.js';
import { CurrentActor } from '../../actor-auth/current-actor.decorator.js';
import { ChatService } from '../../chat/chat.service.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ALIAS_PATTERN } from '../../conversations/conversation-alias.entity.js';
import { ConversationNotFoundError, MessageNotFoundError } from '../../conversations/conversation.errors.js';
import { DETAIL_MESSAGES } from '../../conversations/conversations.service.js';
import { ApiErrors } from '../errors/api-errors.decorator.js';
import { ChatErrorDto } from '../errors/error.dto.js';
import { httpErrorOf } from '../errors/http-error.filter.js';
import { CountedStream } from '../streaming/stream-slots.js';
import { storedOutcome } from '../streaming/stored-outcome.js';
import { streamUiTurn } from './stream-ui-turn.js';
import { deniedOutput, optionsOf, toolAnswersOf, toTurnRequest } from './ui-chat-request.js';
import {
  UiChatRequestDto,
  UiMessageDto,
  UiMessagesQueryDto,
  UiStopResponseDto,
  UiThreadQueryDto,
} from './ui-chat.dto.js';
import { UiChats } from './ui-chats.js';
import { UiMessageStream } from './ui-message-stream.js';
import { UI_STREAM_MEDIA } from './ui-stream-docs.js';
import { describeError } from '../../common/describe-error.js';

/** A chat id in a path: checked like the body's `id`. */
class ChatIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!ALIAS_PATTERN.test(value))
      throw new BadRequestException('the chat id must be 1-128 characters of A-Z, a-z, 0-9, "_" and "-"');
    return value;
  }
}

const UI_STREAM_DOC = {
  status: 200,
  description:
    'The AI SDK UI message stream (protocol v1, header `x-vercel-ai-ui-message-stream: v1`): `data: <chunk JSON>` events ' +
    '`start` {messageId, messageMetadata}, `start-step`, `text-start`, `text-delta`…, `text-end`, then `finish-step` and `finish` ' +
    '(or `abort` for a stopped reply, `error` {errorText} for a failed one), then `data: [DONE]`.',
  content: { 'text/event-stream': UI_STREAM_MEDIA },
};

const CHAT_ID_PARAM = {
  name: 'id',
  description: "The client's chat id (useChat's id) or one of your conversation ids.",
  schema: { type: 'string', pattern: ALIAS_PATTERN.source },
};

/**
 * A backend for the Vercel AI SDK's `useChat` (DefaultChatTransport with `api: '/api/ui/chat'`):
 * chats are stored conversations, a reply in progress can be resumed from any instance and
 * stopped from any instance.
 */
@ApiTags('ui-chat')
@ApiBearerAuth()
@Controller('api/ui/chat')
export class UiChatController {
  private readonly logger = new Logger('UiChat');

  constructor(
    private readonly chat: ChatService,
    private readonly chats: UiChats,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiOperation({
    operationId: 'uiChat',
    summary: 'Send a message from useChat and stream the reply (AI SDK UI message stream)',
    description:
      "DefaultChatTransport's body `{ id, messages, trigger, messageId }`, or `{ id, message }` with the last message alone. " +
      "The stored history is the truth: only the last user message is read. `trigger: regenerate-message` answers the chat's last question again; " +
      'a `messageId` with `submit-message` edits that stored user message (a sibling, answered). ' +
      'Errors before the stream starts (validation, a reply already in progress) are JSON answers; a failure while streaming is an `error` chunk. ' +
      'If the client disconnects, the reply is still generated and stored: resume it with GET /api/ui/chat/{id}/stream.',
  })
  @ApiResponse(UI_STREAM_DOC)
  @CountedStream()
  @ApiErrors([400, 401, 404, 413])
  @ApiErrors([409], ChatErrorDto)
  async send(@CurrentActor() actor: Actor, @Body() body: UiChatRequestDto, @Res() res: Response): Promise<void> {
    const conversationId = await this.chats.conversationOf(actor, body.id);
    if (body.trigger === 'regenerate-message') {
      if (!conversationId) throw new ConversationNotFoundError(body.id);
      // The message regenerated (useChat sends the last one's id): by our id or the client's.
      const messageId = body.messageId ? await this.chats.messageOf(actor, conversationId, body.messageId) : undefined;
      await streamUiTurn(res, this.config, (events) =>
        this.chat.run(
          actor,
          { regenerate: { conversationId, thread: body.thread, options: optionsOf(body), messageId } },
          { events },
        ),
      );
      return;
    }
    // The assistant message whose client tool calls now have their outputs: the reply goes on, under the id the client holds.
    const last = body.message ?? body.messages?.at(-1);
    if (last?.role === 'assistant') {
      const { replyId, calls } = conversationId
        ? await this.chats.pendingCalls(actor, conversationId, body.thread)
        : { replyId: '', calls: [] };
      const answers = toolAnswersOf(last, calls);
      const options = optionsOf(body);
      // Calls of the agent's tools the user approved run now; the model is told of those denied.
      const outputs: string[] = [];
      for (const { call, output, approval } of answers) {
        outputs.push(
          output ??
            (approval!.approved
              ? await this.chat.runApprovedTool(actor, conversationId!, replyId, call)
              : deniedOutput(approval!.reason)),
        );
      }
      const items = answers.map(({ call }, i) => ({ role: 'tool' as const, callId: call.callId, content: outputs[i] }));
      const request = { message: '', conversationId: conversationId!, items, thread: body.thread, options };
      const messageId = typeof last.id === 'string' && ALIAS_PATTERN.test(last.id) ? last.id : undefined;
      // The client's parts of approved calls take their outputs; denied ones are marked so.
      const settled = answers.flatMap(({ call, approval }, i) =>
        approval ? [{ toolCallId: call.callId, output: approval.approved ? outputs[i] : null }] : [],
      );
      await streamUiTurn(
        res,
        this.config,
        (events) => this.chat.run(actor, { ask: request }, { events }),
        messageId,
        settled,
      );
      return;
    }
    const request = toTurnRequest(body, conversationId);
    // An edit (sendMessage with a messageId) of a stored user message: its sibling, answered, becomes the active path.
    if (body.messageId) {
      if (!conversationId) throw new MessageNotFoundError(body.messageId);
      const edited = await this.chats.messageOf(actor, conversationId, body.messageId);
      const edit = { message: request.message, options: request.options, clientMessageId: request.clientMessageId };
      await streamUiTurn(res, this.config, (events) =>
        this.chat.run(actor, { edit: { ...edit, conversationId, messageId: edited } }, { events }),
      );
      return;
    }
    await streamUiTurn(res, this.config, (events) => this.chat.run(actor, { ask: request }, { events }));
  }

  @Get(':id/stream')
  @ApiOperation({
    operationId: 'uiChatResume',
    summary: 'Resume the reply in progress (useChat resume)',
    description:
      'The reply being generated in this chat, from the database (so from any instance): `start` with its id, its text so far, ' +
      'then the rest live, then `finish`. 204 when no reply is being generated.',
  })
  @ApiParam(CHAT_ID_PARAM)
  @ApiResponse(UI_STREAM_DOC)
  @ApiNoContentResponse({ description: 'No reply is being generated in this chat.' })
  @CountedStream()
  @ApiErrors([400, 401])
  async resume(
    @CurrentActor() actor: Actor,
    @Param('id', ChatIdPipe) id: string,
    @Query() query: UiThreadQueryDto,
    @Res() res: Response,
  ): Promise<void> {
    const live = await this.chats.replyInProgress(actor, id, query.thread);
    if (!live) {
      res.status(HttpStatus.NO_CONTENT).end();
      return;
    }
    // A reply going on after tool outputs is resumed as the whole UI message: the parts before it first.
    const round = await this.chats.roundOf(actor, id, live);
    const ui = new UiMessageStream(res, this.config);
    ui.start(
      round?.id ?? live.reply.id,
      { conversationId: live.conversationId, thread: live.thread, model: live.reply.model },
      live.reply.id,
    );
    if (round)
      ui.replay(
        round.parts.slice(
          0,
          round.parts.findLastIndex((p) => p.type === 'step-start'),
        ),
      );
    try {
      const reply = await this.chat.follow(
        actor,
        live.conversationId,
        live.reply.id,
        (text) => ui.delta(text),
        ui.clientGone,
      );
      // Still running: the client left, or this instance is stopping; a broken stream tells the client to resume again.
      if (reply.status === 'streaming') return ui.cut();
      ui.finish({ ...storedOutcome(reply), functionCalls: reply.functionCalls ?? undefined });
    } catch (error) {
      // The conversation was deleted meanwhile, or the database failed: the reply cannot be followed further.
      const known = httpErrorOf(error);
      if (!known) this.logger.error(describeError(error));
      ui.fail(known?.message ?? 'The reply can no longer be followed');
    }
    ui.end();
  }

  @Post(':id/stop')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'uiChatStop',
    summary: 'Stop the reply in progress (from any instance)',
    description:
      'Stops the reply being generated in this chat, wherever it runs; its text so far is kept (status cancelled). ' +
      "Wire your stop button to this: useChat's stop() only closes the connection. Streams of the reply end with an abort chunk; afterwards a resume answers 204.",
  })
  @ApiParam(CHAT_ID_PARAM)
  @ApiOkResponse({ type: UiStopResponseDto })
  @ApiErrors([400, 401])
  async stop(
    @CurrentActor() actor: Actor,
    @Param('id', ChatIdPipe) id: string,
    @Query() query: UiThreadQueryDto,
  ): Promise<UiStopResponseDto> {
    const live = await this.chats.replyInProgress(actor, id, query.thread);
    if (!live) return { stopped: false, messageId: null, status: null };
    const reply = await this.chat.cancel(actor, live.conversationId, live.reply.id);
    return { stopped: reply.status === 'cancelled', messageId: reply.id, status: reply.status };
  }

  @Get(':id/messages')
  @ApiOperation({
    operationId: 'uiChatMessages',
    summary: "The chat's messages as UIMessage[] (to seed useChat)",
    description:
      "The newest messages of the chat's active path, oldest first, as the AI SDK's UIMessage (id, role, parts, metadata). " +
      'A reply in progress has the id its resumed stream announces, so resuming replaces it instead of adding a copy. ' +
      'A chat id with no conversation yet answers [].',
  })
  @ApiParam(CHAT_ID_PARAM)
  @ApiOkResponse({ type: [UiMessageDto] })
  @ApiErrors([400, 401])
  async messages(
    @CurrentActor() actor: Actor,
    @Param('id', ChatIdPipe) id: string,
    @Query() query: UiMessagesQueryDto,
  ): Promise<UiMessageDto[]> {
    return (await this.chats.uiMessages(actor, id, query.thread, query.limit ?? DETAIL_MESSAGES)) as UiMessageDto[];
  }
}
