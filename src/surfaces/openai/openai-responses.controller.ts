import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '../../actor-auth/actor.js';
import { CurrentActor } from '../../actor-auth/current-actor.decorator.js';
import { AgentsService } from '../../agents/agents.service.js';
import { ChatService } from '../../chat/chat.service.js';
import { ResponseRecordsService } from '../../conversations/response-records.service.js';
import { StreamSlots } from '../streaming/stream-slots.js';
import { OpenAiError } from './openai-error.js';
import { OpenAiErrorFilter } from './openai-error.filter.js';
import { requiredResponseId, responseId } from './openai-ids.js';
import { ResponseReplay } from './openai-response-replay.js';
import { ResponseTurns } from './openai-response-turns.js';
import { storedReplyView, toOpenAiResponse, turnOf } from './openai-responses.js';
import {
  createResponseSchema,
  listQuerySchema,
  parseOrRefuse,
  refuseUnsupported,
  retrieveQuerySchema,
} from './openai-schemas.js';
import { listOf } from './openai-conversations.js';
import { itemsOf } from './openai-items.js';
import { ConversationItemsService } from '../../conversations/conversation-items.service.js';
import { UnstoredResponses } from './openai-unstored-responses.js';

/** A reply that is not the caller's (or not one) answers as an unknown response. */
const unknownResponse = (id: string) => (error: unknown) => {
  throw (error as { code?: string }).code === 'message_not_found' ? OpenAiError.notFound('Response', id) : error;
};

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
    private readonly turns: ResponseTurns,
    private readonly unstored: UnstoredResponses,
    private readonly replays: ResponseReplay,
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
    if (input.store === false) return this.unstored.answer(actor, chat, record, input.stream === true, res);
    if (input.background) return this.turns.background(actor, chat, record, input.stream === true, res);
    if (input.stream) return this.turns.stream(actor, chat, record, res);
    return this.turns.answer(actor, chat, record, res);
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
    if (asked.stream !== 'true') return toOpenAiResponse(storedReplyView(message), request);
    this.slots.take(actor.id, res);
    await this.replays.replay(actor, message, request, asked.starting_after ?? null, res);
    return undefined;
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
    return toOpenAiResponse(
      storedReplyView(await this.chat.cancel(actor, message.conversationId, message.id)),
      request,
    );
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
