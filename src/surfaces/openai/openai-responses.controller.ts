import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Logger,
  Param,
  Post,
  Query,
  Res,
  UseFilters,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '../../actor-auth/actor.js';
import { CurrentActor } from '../../actor-auth/current-actor.decorator.js';
import { AgentsService } from '../../agents/agents.service.js';
import { randomUUID } from 'node:crypto';
import { ChatService, type ChatRequest } from '../../chat/chat.service.js';
import type { ReplyOutcome, StartedTurn } from '../../chat/turn.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { ResponseRequest } from '../../conversations/response-record.entity.js';
import { ResponseRecordsService } from '../../conversations/response-records.service.js';
import { StreamSlots } from '../streaming/stream-slots.js';
import { OpenAiError } from './openai-error.js';
import { openAiAnswerOf, OpenAiErrorFilter } from './openai-error.filter.js';
import { requiredResponseId, responseId } from './openai-ids.js';
import { ResponseEventStream } from './openai-response-stream.js';
import { pipeTurn } from '../streaming/turn-pipeline.js';
import { toOpenAiResponse, turnOf, type ReplyView } from './openai-responses.js';
import {
  createResponseSchema,
  listQuerySchema,
  parseOrRefuse,
  refuseUnsupported,
  retrieveQuerySchema,
} from './openai-schemas.js';
import type { Message } from '../../conversations/message.entity.js';
import { listOf } from './openai-conversations.js';
import { itemsOf } from './openai-items.js';
import { ConversationItemsService } from '../../conversations/conversation-items.service.js';
import { describeError } from '../../common/describe-error.js';

const logger = new Logger('OpenAiResponses');

/** A reply that is not the caller's (or not one) answers as an unknown response. */
const unknownResponse = (id: string) => (error: unknown) => {
  throw (error as { code?: string }).code === 'message_not_found' ? OpenAiError.notFound('Response', id) : error;
};

/** A stored reply as a response's parts. */
function viewOf(message: Message): ReplyView {
  const usage =
    message.promptTokens === null && message.completionTokens === null
      ? null
      : { promptTokens: message.promptTokens ?? 0, completionTokens: message.completionTokens ?? 0 };
  const error = message.errorCode ? { code: message.errorCode, message: message.errorMessage ?? '' } : null;
  return {
    messageId: message.id,
    conversationId: message.conversationId,
    createdAt: message.createdAt,
    status: message.status,
    content: message.content,
    functionCalls: message.functionCalls ?? [],
    model: message.model,
    usage,
    error,
  };
}

/** `model: "agent:<name or id>"` talks with one of the caller's agents. */
const AGENT_MODEL = /^agent:(.+)$/;

/**
 * OpenAI's Responses API as chat turns: a response is a reply message, made in a conversation
 * (`conversation`), on the branch of an earlier reply (`previous_response_id`), or in a new
 * conversation; it is stored like any turn (input first, reply kept if the client leaves).
 */
@ApiExcludeController()
@Controller('v1/responses')
@UseFilters(OpenAiErrorFilter)
export class OpenAiResponsesController {
  constructor(
    private readonly chat: ChatService,
    private readonly records: ResponseRecordsService,
    private readonly agents: AgentsService,
    private readonly items: ConversationItemsService,
    private readonly slots: StreamSlots,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  async create(@CurrentActor() actor: Actor, @Body() body: unknown, @Res() res: Response): Promise<void> {
    refuseUnsupported(body);
    const input = parseOrRefuse(createResponseSchema, body);
    if (input.conversation && input.previous_response_id) {
      throw OpenAiError.invalid(
        "'conversation' and 'previous_response_id' cannot be used together.",
        'previous_response_id',
        'mutually_exclusive_parameters',
      );
    }
    if (input.store === false && (input.conversation || input.previous_response_id)) {
      throw OpenAiError.invalid(
        "store: false keeps nothing, so it cannot continue a stored 'conversation' or 'previous_response_id'.",
        'store',
        'unsupported_value',
      );
    }
    if (input.background && input.store === false) {
      throw OpenAiError.invalid(
        'background mode keeps the response to be polled, so it needs store: true.',
        'background',
        'unsupported_value',
      );
    }
    const previous = input.previous_response_id ? await this.previousReply(actor, input.previous_response_id) : null;
    const { chat, record } = turnOf(input, previous, await this.agentOf(actor, input.model));
    // A stream holds a connection and its buffer for as long as the reply: MAX_STREAMS_PER_ACTOR, as on the REST streams.
    if (input.stream) this.slots.take(actor.id, res);
    if (input.store === false) return this.unstored(actor, chat, record, input.stream === true, res);
    if (input.background) return this.background(actor, chat, record, input.stream === true, res);
    if (input.stream) return this.stream(actor, chat, record, res);
    const createdAt = new Date();
    let saved: Promise<void> = Promise.resolve();
    const result = await this.chat.run(
      actor,
      { ask: chat },
      {
        started: (turn) => {
          saved = this.saveRecord(actor, turn, record);
        },
      },
    );
    await saved;
    const view: ReplyView = {
      messageId: result.messageId,
      conversationId: result.conversationId,
      createdAt,
      status: result.status,
      content: result.reply,
      functionCalls: result.functionCalls,
      model: result.model,
      usage: result.usage,
      error: result.reason,
    };
    res.status(200).json(toOpenAiResponse(view, record));
  }

  @Get(':id')
  async get(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Query() query: unknown,
    @Res({ passthrough: true }) res: Response,
  ) {
    const asked = parseOrRefuse(retrieveQuerySchema, query);
    refuseUnsupported({ include: asked.include });
    const { message, request } = await this.records.find(actor, requiredResponseId(id)).catch(unknownResponse(id));
    if (asked.stream !== 'true') return toOpenAiResponse(viewOf(message), request);
    this.slots.take(actor.id, res);
    await this.replay(actor, message, request, asked.starting_after ?? null, res);
    return undefined;
  }

  /**
   * `background: true`: answered as soon as the turn is stored (in progress), the reply
   * generated to its end whoever listens, and stored like any reply, so it is polled, followed
   * (`stream`) or cancelled from any instance. A failure after that is kept on the reply.
   */
  private async background(
    actor: Actor,
    chat: ChatRequest,
    record: ResponseRequest,
    stream: boolean,
    res: Response,
  ): Promise<void> {
    const started = new Promise<StartedTurn>((resolve, reject) => {
      // Streamed from the model, so its progress is saved for polls and followers; the answer waits
      // for the record, so a poll right after it reads the response as background.
      const events = {
        started: (turn: StartedTurn) => void this.saveRecord(actor, turn, record).then(() => resolve(turn)),
        delta: () => undefined,
      };
      this.chat.run(actor, { ask: chat }, { events }).catch(reject);
    });
    const turn = await started;
    const view = { ...viewOf(turn.reply), model: turn.model };
    if (!stream) {
      res.status(200).json(toOpenAiResponse(view, record, []));
      return;
    }
    await this.replay(actor, turn.reply, record, null, res);
  }

  /**
   * A response's events replayed from the database and followed to its end, from any instance:
   * numbered so that every replay agrees (see Replay), the events up to `startingAfter` left out.
   */
  private async replay(
    actor: Actor,
    message: Message,
    request: ResponseRequest | null,
    startingAfter: number | null,
    res: Response,
  ): Promise<void> {
    const events = new ResponseEventStream(res, this.config, message.id, { startingAfter });
    try {
      events.started(
        toOpenAiResponse(
          { ...viewOf(message), status: 'streaming', content: '', functionCalls: [], usage: null, error: null },
          request,
          [],
        ),
      );
      const final = await this.chat.follow(
        actor,
        message.conversationId,
        message.id,
        (piece) => events.delta(piece),
        events.clientGone,
      );
      // Still being generated (the client left, or this instance is stopping): no closing events; the client follows again.
      if (final.status === 'streaming') return;
      const view = viewOf(final);
      events.finish(view, toOpenAiResponse(view, request));
    } catch (error) {
      const answer = openAiAnswerOf(error);
      if (!answer) logger.error(describeError(error));
      events.error(answer?.message ?? 'Internal server error', answer?.code ?? 'internal');
    } finally {
      events.end();
    }
  }

  /** Stops a background response being generated, on whichever instance generates it; answers it as it then stands. */
  @Post(':id/cancel')
  @HttpCode(200)
  async cancel(@CurrentActor() actor: Actor, @Param('id') id: string) {
    const { message, request } = await this.records.find(actor, requiredResponseId(id)).catch(unknownResponse(id));
    if (!request?.background)
      throw OpenAiError.invalid(
        'Only responses created with background: true can be cancelled.',
        null,
        'invalid_value',
      );
    return toOpenAiResponse(viewOf(await this.chat.cancel(actor, message.conversationId, message.id)), request);
  }

  /** The items a response was asked with (at most the 100 of one input): paged in memory, as items are. */
  @Get(':id/input_items')
  async inputItems(@CurrentActor() actor: Actor, @Param('id') id: string, @Query() query: unknown) {
    const page = parseOrRefuse(listQuerySchema, query);
    const inputs = await this.records.inputs(actor, requiredResponseId(id)).catch(unknownResponse(id));
    const items = inputs.flatMap(itemsOf) as Array<Record<string, unknown> & { id: string }>;
    if (page.order === 'desc') items.reverse();
    const at = page.after === undefined ? -1 : items.findIndex((i) => i.id === page.after);
    if (page.after !== undefined && at < 0) throw OpenAiError.notFound('Item', page.after, 'after');
    const rest = items.slice(at + 1);
    return listOf(rest.slice(0, page.limit), rest.length > page.limit);
  }

  /** Deletes the reply a response is: its conversation goes on without it (what followed it follows its parent). */
  @Delete(':id')
  async delete(@CurrentActor() actor: Actor, @Param('id') id: string) {
    const { message } = await this.records.find(actor, requiredResponseId(id)).catch(unknownResponse(id));
    await this.items.remove(actor, message.conversationId, message.id);
    return { id: responseId(message.id), object: 'response.deleted' as const, deleted: true };
  }

  private stream(
    actor: Actor,
    chat: ReturnType<typeof turnOf>['chat'],
    record: ResponseRequest,
    res: Response,
  ): Promise<void> {
    const createdAt = new Date();
    return pipeTurn(
      (started) => {
        const turn = started!;
        const saved = this.saveRecord(actor, turn, record);
        const viewOf = (
          outcome: Pick<ReplyOutcome, 'content' | 'model' | 'usage' | 'error' | 'functionCalls'> & {
            status: ReplyView['status'];
          },
        ): ReplyView => ({
          messageId: turn.reply.id,
          conversationId: turn.conversation.id,
          createdAt,
          status: outcome.status,
          content: outcome.content,
          functionCalls: outcome.functionCalls ?? [],
          model: outcome.model ?? turn.model,
          usage: outcome.usage,
          error: outcome.error,
        });
        const events = new ResponseEventStream(res, this.config, turn.reply.id);
        events.started(
          toOpenAiResponse(
            viewOf({ status: 'streaming', content: '', model: turn.model, usage: null, error: null }),
            record,
            [],
          ),
        );
        return {
          delta: (piece) => events.delta(piece),
          finish: async (outcome) => {
            await saved;
            const view = viewOf(outcome);
            events.finish(view, toOpenAiResponse(view, record));
          },
          fail: (error) => {
            const answer = openAiAnswerOf(error);
            if (!answer) logger.error(describeError(error));
            const failed = viewOf({
              status: 'failed',
              content: events.streamedText,
              model: turn.model,
              usage: null,
              error: { code: 'model_unavailable', message: answer?.message ?? 'Internal server error' },
            });
            events.finish({ status: 'failed', functionCalls: [] }, toOpenAiResponse(failed, record));
          },
          end: () => events.end(),
        };
      },
      (events) => this.chat.run(actor, { ask: chat }, { events }),
    );
  }

  /**
   * `store: false`: the input alone is the history and nothing is written; the response has an
   * id of its own that nothing can retrieve. Streamed, the events start with the first text.
   */
  private async unstored(
    actor: Actor,
    chat: ChatRequest,
    record: ResponseRequest,
    stream: boolean,
    res: Response,
  ): Promise<void> {
    const id = randomUUID();
    const createdAt = new Date();
    // A reply as the generator ended it, or as the stream stands before that (no model named yet: the one asked for).
    const viewOf = (
      reply: Pick<ReplyView, 'status' | 'content' | 'usage' | 'error'> & {
        readonly functionCalls?: ReplyView['functionCalls'];
        readonly model: string | null;
      },
    ): ReplyView => ({
      status: reply.status,
      content: reply.content,
      functionCalls: reply.functionCalls ?? [],
      model: reply.model ?? chat.override?.model ?? this.chat.defaultModel,
      usage: reply.usage,
      error: reply.error,
      messageId: id,
      conversationId: '',
      createdAt,
    });
    const responseOf = (view: ReplyView, output?: Array<Record<string, unknown>>) => ({
      ...toOpenAiResponse(view, { ...record, inConversation: false }, output),
      store: false,
    });
    const request = { items: chat.items ?? [], agentId: chat.agentId, override: chat.override, options: chat.options };
    if (!stream) {
      res.status(200).json(responseOf(viewOf(await this.chat.answerUnstored(actor, request))));
      return;
    }
    await pipeTurn(
      () => {
        const events = new ResponseEventStream(res, this.config, id);
        events.started(
          responseOf(viewOf({ status: 'streaming', content: '', model: null, usage: null, error: null }), []),
        );
        return {
          delta: (piece) => events.delta(piece),
          finish: (reply) => {
            const view = viewOf(reply);
            events.finish(view, responseOf(view));
          },
          fail: (error) => {
            const failed = viewOf({
              status: 'failed',
              content: events.streamedText,
              model: null,
              usage: null,
              error: null,
            });
            events.finish(
              failed,
              responseOf({
                ...failed,
                error: {
                  code: 'model_unavailable',
                  message: openAiAnswerOf(error)?.message ?? 'Internal server error',
                },
              }),
            );
          },
          end: () => events.end(),
        };
      },
      (events) => this.chat.answerUnstored(actor, request, (piece) => events.delta(piece)),
    );
  }

  /** The request is recorded once the turn has started; the reply does not depend on it (it reads back without it). */
  private saveRecord(actor: Actor, turn: StartedTurn, record: ResponseRequest): Promise<void> {
    return this.records.record(actor, turn.reply.id, record).catch((error: unknown) => {
      logger.warn(`The request of response ${turn.reply.id} was not recorded: ${String(error)}`);
    });
  }

  private async previousReply(actor: Actor, id: string): Promise<{ conversationId: string; messageId: string }> {
    const ours = requiredResponseId(id, 'previous_response_id');
    const message = await this.records.ownedMessage(actor, ours).catch((error: unknown) => {
      throw (error as { code?: string }).code === 'message_not_found'
        ? OpenAiError.notFound('Previous response', id, 'previous_response_id')
        : error;
    });
    if (message.role !== 'assistant') throw OpenAiError.notFound('Previous response', id, 'previous_response_id');
    return { conversationId: message.conversationId, messageId: message.id };
  }

  /** The agent `model` names (`agent:<name or id>`, one of the caller's or offered to it); null for a plain model name. */
  private async agentOf(actor: Actor, model: string | undefined): Promise<string | null> {
    const named = model ? AGENT_MODEL.exec(model)?.[1] : undefined;
    if (!named) return null;
    const agents = [...(await this.agents.list(actor)), ...(await this.agents.listOffered(actor))];
    const agent = agents.find((a) => a.id === named) ?? agents.find((a) => a.name === named);
    if (!agent)
      throw new OpenAiError(
        404,
        `The model '${model}' does not exist or you do not have access to it.`,
        'model_not_found',
        'model',
      );
    return agent.id;
  }
}
