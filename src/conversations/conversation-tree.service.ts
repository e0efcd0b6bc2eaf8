import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { DatabaseService } from '../database/database.service.js';
import { InvalidInputError, MessageNotFoundError } from './conversation.errors.js';
import type { Conversation } from './conversation.entity.js';
import { ConversationsRepository } from './conversations.repository.js';
import { MessagesRepository } from './messages.repository.js';
import { withBranches } from './branches.js';
import type { Message } from './message.entity.js';
import { MessageTreeRepository } from './message-tree.repository.js';
import { ownedConversation } from './ownership.js';
import { ReplyLease } from './reply-lease.js';
import { MAIN_THREAD } from './thread.entity.js';

/**
 * The conversation as a tree, on behalf of an actor: every branch page by page, and switching
 * a thread's active path to another branch. Turns that start branches are chat's (TurnStore).
 */
@Injectable()
export class ConversationTreeService {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: ConversationsRepository,
    private readonly lease: ReplyLease,
    private readonly messageRows: MessagesRepository,
    private readonly tree: MessageTreeRepository,
  ) {}

  /** Every message of every branch (one thread's when named), newest first by seq before `before`, returned oldest first. */
  page(actor: Actor, id: string, page: { before?: number; limit: number; thread?: string }): Promise<Message[]> {
    return this.db.read(async (em) => {
      await ownedConversation(this.repo, em, actor, id);
      return withBranches(this.tree, em, id, await this.tree.treePage(em, id, page.before, page.limit, page.thread));
    });
  }

  /**
   * The actor's conversation and one branch of it as it is now, in `em`'s unit of work (a
   * share's snapshot): the messages from the first one up to `messageId` (its ancestors and
   * itself), or the main thread's whole active path without it. A reply still being generated
   * is left out (its text is not final); nothing at all to show is InvalidInputError.
   */
  async branchIn(
    em: EntityManager,
    actor: Actor,
    id: string,
    messageId?: string,
  ): Promise<{ conversation: Conversation; leaf: Message; messages: Message[] }> {
    const conversation = await ownedConversation(this.repo, em, actor, id);
    const leaf = messageId
      ? await this.messageRows.findMessage(em, conversation, messageId)
      : await this.messageRows.lastMessage(em, id, MAIN_THREAD);
    if (messageId && !leaf) throw new MessageNotFoundError(messageId);
    const messages = leaf ? (await this.tree.branchTo(em, leaf)).filter((m) => m.status !== 'streaming') : [];
    const last = messages.at(-1);
    if (!last) throw new InvalidInputError('the conversation has no message to share yet');
    return { conversation, leaf: last, messages };
  }

  /**
   * Makes the branch of `messageId` its thread's active path, down to its newest leaf: the next
   * turn continues there, and only it is replayed to the model. Refused while a reply of the
   * thread is being generated (ConversationBusyError). Returns the message, now on the path.
   */
  select(actor: Actor, id: string, messageId: string): Promise<Message> {
    return this.db.transaction(async (em) => {
      await ownedConversation(this.repo, em, actor, id, true);
      const message = await this.messageRows.findMessage(em, { id, actor: actor.id }, messageId);
      if (!message) throw new MessageNotFoundError(messageId);
      const now = new Date();
      const leaf = await this.messageRows.lastMessage(em, id, message.thread);
      await this.lease.assertIdle(em, id, leaf, now);
      await this.tree.activate(em, message, true);
      await this.repo.touchConversation(em, id, now);
      return (await withBranches(this.tree, em, id, [message]))[0];
    });
  }
}
