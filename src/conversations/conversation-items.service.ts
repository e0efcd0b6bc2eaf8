import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DatabaseService } from '../database/database.service.js';
import type { Conversation } from './conversation.entity.js';
import { ConversationNotFoundError, InvalidInputError, MessageNotFoundError } from './conversation.errors.js';
import { ConversationItemsRepository, type SortOrder } from './conversation-items.repository.js';
import { ConversationLimits } from './conversation-limits.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ThreadsRepository } from './threads.repository.js';
import { ReplyRowsRepository } from './reply-rows.repository.js';
import { MessagesRepository } from './messages.repository.js';
import type { FunctionCallRecord, Message, MessageRole } from './message.entity.js';
import { ownedConversation } from './ownership.js';
import { ReplyLease } from './reply-lease.js';
import { MAIN_THREAD } from './thread.entity.js';
import { titleFromFirstMessage, UNTITLED } from './title.js';
import { timeOrderedId } from '../common/time-ordered-id.js';

/** A message a client adds to a conversation as it is (no model call): the OpenAI surface's items. */
export interface ItemDraft {
  readonly role: MessageRole;
  readonly content: string;
  /** On an assistant message: functions of the client it asks to be called. */
  readonly functionCalls?: readonly FunctionCallRecord[];
  /** On a `tool` message: the call it answers. */
  readonly callId?: string;
}

/**
 * A conversation's main thread as a list of items: created with items, appended to without a
 * model call (after the active leaf), read in pages either way along the active path, and a
 * message removed without cutting its branch. Listing the actor's conversations either way.
 * Same ownership rules as ConversationsService; appending waits for no reply: while one is
 * generated it is refused (ConversationBusyError).
 */
@Injectable()
export class ConversationItemsService {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: ConversationsRepository,
    private readonly threadRows: ThreadsRepository,
    private readonly replyRows: ReplyRowsRepository,
    private readonly lease: ReplyLease,
    private readonly messageRows: MessagesRepository,
    private readonly items: ConversationItemsRepository,
    private readonly limits: ConversationLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A new conversation holding `items` in order, titled by its first user message. */
  create(
    actor: Actor,
    input: { metadata: Record<string, string> | null; items: readonly ItemDraft[] },
  ): Promise<{ conversation: Conversation; messages: Message[] }> {
    input.items.forEach((item) => this.assertValid(item));
    return this.db.transaction(async (em) => {
      await this.limits.assertRoomForConversation(em, actor);
      const firstUser = input.items.find((i) => i.role === 'user');
      const conversation = await this.repo.insertConversation(
        em,
        actor.id,
        firstUser ? titleFromFirstMessage(firstUser.content) : UNTITLED,
        new Date(),
        { metadata: input.metadata },
      );
      const messages = await this.appendIn(em, conversation, input.items, null);
      return { conversation, messages };
    });
  }

  /** Appends `items` after the main thread's active leaf; refused while a reply is being generated there. */
  append(actor: Actor, conversationId: string, items: readonly ItemDraft[]): Promise<Message[]> {
    items.forEach((item) => this.assertValid(item));
    return this.db.transaction(async (em) => {
      const conversation = await ownedConversation(this.repo, em, actor, conversationId, true);
      const leaf = await this.messageRows.lastMessage(em, conversation.id, MAIN_THREAD);
      await this.lease.assertIdle(em, conversation.id, leaf, new Date());
      this.limits.assertRoomForMessages(conversation.lastSeq, items.length);
      const firstUser = items.find((i) => i.role === 'user');
      if (conversation.lastSeq === 0 && conversation.title === UNTITLED && firstUser) {
        conversation.title = titleFromFirstMessage(firstUser.content);
        await this.repo.retitle(em, conversation.id, conversation.title);
      }
      return this.appendIn(em, conversation, items, leaf);
    });
  }

  private async appendIn(
    em: EntityManager,
    conversation: Conversation,
    items: readonly ItemDraft[],
    leaf: Message | null,
  ): Promise<Message[]> {
    if (items.length === 0) return [];
    await this.threadRows.upsertThread(em, conversation, MAIN_THREAD, undefined, new Date());
    const drafts = [];
    let parentId = leaf?.id ?? null;
    for (const item of items) {
      const id = timeOrderedId();
      drafts.push({
        id,
        parentId,
        role: item.role,
        content: item.content,
        functionCalls: item.functionCalls?.length ? item.functionCalls : null,
        callId: item.callId ?? null,
      });
      parentId = id;
    }
    return this.messageRows.appendMessages(em, conversation, drafts, new Date());
  }

  /** Up to `limit` messages of the main thread's active path in `order`, from the message `from` (included) when given. */
  pathPage(
    actor: Actor,
    conversationId: string,
    page: { order: SortOrder; limit: number; from?: string },
  ): Promise<Message[]> {
    return this.db.replicaRead(actor.id, async (em) => {
      await ownedConversation(this.repo, em, actor, conversationId);
      let fromSeq: number | undefined;
      if (page.from !== undefined) {
        const from = await this.messageRows.findMessage(em, { id: conversationId, actor: actor.id }, page.from);
        if (!from || !from.onPath || from.thread !== MAIN_THREAD) throw new MessageNotFoundError(page.from);
        fromSeq = from.seq;
      }
      return this.items.pathRows(em, conversationId, MAIN_THREAD, page.order, page.limit, fromSeq);
    });
  }

  /**
   * Removes one message (its children follow its parent), or with `change` rewrites it instead
   * (one of several function calls removed); refused while it is being generated. Answers the conversation.
   */
  remove(
    actor: Actor,
    conversationId: string,
    messageId: string,
    change?: (m: Message) => Pick<Message, 'functionCalls'> | null,
  ): Promise<Conversation> {
    return this.db.transaction(async (em) => {
      const conversation = await ownedConversation(this.repo, em, actor, conversationId, true);
      const message = await this.messageRows.findMessage(em, conversation, messageId);
      if (!message) throw new MessageNotFoundError(messageId);
      await this.lease.assertIdle(em, conversation.id, message, new Date());
      const rewritten = change?.(message) ?? null;
      if (rewritten) await this.replyRows.updateMessage(em, message.id, rewritten);
      else await this.items.removeMessage(em, message);
      return conversation;
    });
  }

  /** Replaces the conversation's metadata (null: none). */
  setMetadata(actor: Actor, conversationId: string, metadata: Record<string, string> | null): Promise<Conversation> {
    return this.db.transaction(async (em) => {
      const conversation = await ownedConversation(this.repo, em, actor, conversationId, true);
      await this.items.updateMetadata(em, conversation.id, metadata);
      return Object.assign(conversation, { metadata });
    });
  }

  /** Up to `limit` of the actor's conversations (archived ones too) by last activity in `order`, after the conversation `after`. */
  list(actor: Actor, page: { order: SortOrder; limit: number; after?: string }): Promise<Conversation[]> {
    return this.db.replicaRead(actor.id, async (em) => {
      let after: Conversation | undefined;
      if (page.after !== undefined) {
        after = (await this.repo.findOwned(em, actor.id, page.after)) ?? undefined;
        if (!after) throw new ConversationNotFoundError(page.after);
      }
      return this.items.listByActor(em, actor.id, page.order, page.limit, after);
    });
  }

  private assertValid(item: ItemDraft): void {
    if (item.content.includes('\u0000')) throw new InvalidInputError('content must not contain NUL characters');
    if (item.content.length > this.config.maxMessageChars) {
      throw new InvalidInputError(
        `content is ${item.content.length} characters long; the limit is ${this.config.maxMessageChars} (MAX_MESSAGE_CHARS)`,
      );
    }
  }
}
