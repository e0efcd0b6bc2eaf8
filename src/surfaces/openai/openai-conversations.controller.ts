import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Actor } from '../../actor-auth/actor.js';
import { CurrentActor } from '../../actor-auth/current-actor.decorator.js';
import { ConversationItemsService } from '../../conversations/conversation-items.service.js';
import { ConversationsService } from '../../conversations/conversations.service.js';
import type { Message } from '../../conversations/message.entity.js';
import { listOf, toOpenAiConversation } from './openai-conversations.js';
import { OpenAiError } from './openai-error.js';
import { OpenAiErrorFilter } from './openai-error.filter.js';
import { conversationId, parseConversationId, parseItemId, requiredConversationId } from './openai-ids.js';
import { draftsOf, itemsOf } from './openai-items.js';
import {
  createConversationSchema,
  createItemsSchema,
  listQuerySchema,
  parseOrRefuse,
  updateConversationSchema,
} from './openai-schemas.js';

/**
 * OpenAI's Conversations API over our conversations (the main thread's active path is the item
 * list), plus the listing OpenAI lacks (`GET /v1/conversations`). Outside docs/openapi.json: the
 * shapes are OpenAI's (docs/openai-api.md).
 */
@ApiExcludeController()
@Controller('v1/conversations')
@UseFilters(OpenAiErrorFilter)
export class OpenAiConversationsController {
  constructor(
    private readonly items: ConversationItemsService,
    private readonly conversations: ConversationsService,
  ) {}

  @Post()
  @HttpCode(200)
  async create(@CurrentActor() actor: Actor, @Body() body: unknown) {
    const input = parseOrRefuse(createConversationSchema, body);
    const { conversation } = await this.items.create(actor, {
      metadata: input.metadata ?? null,
      items: draftsOf(input.items ?? []),
    });
    return toOpenAiConversation(conversation);
  }

  @Get()
  async list(@CurrentActor() actor: Actor, @Query() query: unknown) {
    const page = parseOrRefuse(listQuerySchema, query);
    const after = page.after === undefined ? undefined : (parseConversationId(page.after) ?? undefined);
    if (page.after !== undefined && !after) throw OpenAiError.notFound('Conversation', page.after, 'after');
    const rows = await this.items.list(actor, { order: page.order, limit: page.limit + 1, after });
    return listOf(rows.slice(0, page.limit).map(toOpenAiConversation), rows.length > page.limit);
  }

  @Get(':id')
  async get(@CurrentActor() actor: Actor, @Param('id') id: string) {
    return toOpenAiConversation(await this.conversations.get(actor, requiredConversationId(id)));
  }

  @Post(':id')
  @HttpCode(200)
  async update(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: unknown) {
    const { metadata } = parseOrRefuse(updateConversationSchema, body);
    return toOpenAiConversation(await this.items.setMetadata(actor, requiredConversationId(id), metadata));
  }

  @Delete(':id')
  async delete(@CurrentActor() actor: Actor, @Param('id') id: string) {
    const ours = requiredConversationId(id);
    await this.conversations.delete(actor, ours);
    return { id: conversationId(ours), object: 'conversation.deleted' as const, deleted: true };
  }

  @Get(':id/items')
  async listItems(@CurrentActor() actor: Actor, @Param('id') id: string, @Query() query: unknown) {
    const page = parseOrRefuse(listQuerySchema, query);
    const after = page.after === undefined ? undefined : parseItemId(page.after);
    if (after === null) throw OpenAiError.notFound('Item', page.after!, 'after');
    // A message may stand for several items (a reply's text and its calls): two rows more than asked always tell whether more follow.
    const rows = await this.items.pathPage(actor, requiredConversationId(id), {
      order: page.order,
      limit: page.limit + 2,
      from: after?.messageId,
    });
    let listed = rows.flatMap((row) =>
      (page.order === 'desc' ? itemsOf(row).reverse() : itemsOf(row)).map((item) => ({ row: row.id, item })),
    );
    if (after) {
      const at = listed.findIndex((x) => x.item.id === page.after);
      listed = at >= 0 ? listed.slice(at + 1) : listed.filter((x) => x.row !== after.messageId);
    }
    const data = listed.slice(0, page.limit).map((x) => x.item as Record<string, unknown> & { id: string });
    return listOf(data, listed.length > page.limit);
  }

  @Post(':id/items')
  @HttpCode(200)
  async addItems(@CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: unknown) {
    const input = parseOrRefuse(createItemsSchema, body);
    const stored = await this.items.append(actor, requiredConversationId(id), draftsOf(input.items));
    return listOf(stored.flatMap(itemsOf) as Array<Record<string, unknown> & { id: string }>, false);
  }

  @Get(':id/items/:itemId')
  async getItem(@CurrentActor() actor: Actor, @Param('id') id: string, @Param('itemId') itemId: string) {
    const { item } = await this.findItem(actor, requiredConversationId(id), itemId);
    return item;
  }

  @Delete(':id/items/:itemId')
  async deleteItem(@CurrentActor() actor: Actor, @Param('id') id: string, @Param('itemId') itemId: string) {
    const ours = requiredConversationId(id);
    const { message, callIndex } = await this.findItem(actor, ours, itemId);
    const calls = message.functionCalls ?? [];
    // One call of a reply that holds more (or text besides it) leaves the rest of the reply in place.
    const rest = callIndex === undefined ? null : calls.filter((_, i) => i !== callIndex);
    const keep = rest !== null && (rest.length > 0 || message.content !== '');
    const conversation = await this.items.remove(
      actor,
      ours,
      message.id,
      keep ? () => ({ functionCalls: rest!.length ? rest : null }) : undefined,
    );
    return toOpenAiConversation(conversation);
  }

  /** The item (and the message it is part of) on the main thread's active path; anything else is unknown. */
  private async findItem(
    actor: Actor,
    conversation: string,
    itemId: string,
  ): Promise<{ message: Message; callIndex?: number; item: Record<string, unknown> }> {
    const parsed = parseItemId(itemId);
    if (!parsed) throw OpenAiError.notFound('Item', itemId);
    const [message] = await this.items
      .pathPage(actor, conversation, { order: 'asc', limit: 1, from: parsed.messageId })
      .catch((error: unknown) => {
        throw (error as { code?: string }).code === 'message_not_found' ? OpenAiError.notFound('Item', itemId) : error;
      });
    const items = message ? itemsOf(message) : [];
    // A bare id (ours, from the REST API) names the message's first item.
    const item =
      items.find((i) => i.id === itemId) ??
      (parsed.callIndex === undefined && !itemId.includes('_') ? items[0] : undefined);
    if (!message || !item) throw OpenAiError.notFound('Item', itemId);
    return { message, callIndex: parsed.callIndex, item };
  }
}
