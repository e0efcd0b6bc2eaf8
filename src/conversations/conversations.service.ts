import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { DatabaseService } from '../database/database.service.js';
import type { Conversation } from './conversation.entity.js';
import { decodeCursor, encodeCursor } from './conversation-cursor.js';
import { ConversationNotFoundError, ForbiddenConversationError, InvalidInputError } from './conversation.errors.js';
import { ConversationsRepository } from './conversations.repository.js';
import type { Message } from './message.entity.js';
import { ownedConversation } from './ownership.js';
import { titleFromMessage } from './title.js';

export interface ConversationPage {
  readonly items: Conversation[];
  readonly nextCursor: string | null;
}

/**
 * Reading, listing and deleting conversations, always on behalf of an actor. Promises: an
 * actor never reads or changes another actor's conversation (ForbiddenConversationError), and
 * a missing id is ConversationNotFoundError. Turns are written by TurnsService.
 */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: ConversationsRepository,
  ) {}

  /** Creates an empty conversation (titled "New conversation" unless a title is given). */
  create(actor: Actor, input: { title?: string } = {}): Promise<Conversation> {
    const title = input.title === undefined ? undefined : titleFromMessage(input.title);
    return this.db.transaction((em) => this.repo.insertConversation(em, actor.id, title ?? 'New conversation', new Date()));
  }

  /** The actor's most recently updated conversation, if any: "the current one" for chat surfaces. */
  mostRecent(actor: Actor): Promise<Conversation | null> {
    return this.db.read(async (em) => (await this.repo.listByActor(em, actor.id, 1))[0] ?? null);
  }

  /** Marks the conversation as just used, so it becomes the most recent. */
  touch(actor: Actor, id: string): Promise<Conversation> {
    return this.db.transaction(async (em) => {
      const conversation = await ownedConversation(this.repo, em, actor, id);
      conversation.updatedAt = new Date();
      await this.repo.touchConversation(em, id, conversation.updatedAt);
      return conversation;
    });
  }

  /**
   * A page of messages from the newest backwards: the last `limit` messages with `seq` below
   * `before` (all when omitted), returned oldest first. Walks the (conversation_id, seq) index.
   */
  messagesPage(actor: Actor, id: string, page: { before?: number; limit: number }): Promise<Message[]> {
    return this.db.read(async (em) => {
      await ownedConversation(this.repo, em, actor, id);
      return this.repo.messagesBefore(em, id, page.before ?? Number.MAX_SAFE_INTEGER, page.limit);
    });
  }

  /** The conversation with all its messages in order. */
  getWithMessages(actor: Actor, id: string): Promise<{ conversation: Conversation; messages: Message[] }> {
    return this.db.read(async (em) => {
      const conversation = await ownedConversation(this.repo, em, actor, id);
      return { conversation, messages: await this.repo.allMessages(em, id) };
    });
  }

  /** Throws unless the actor owns the conversation; used by surfaces before routing work to it. */
  async assertOwned(actor: Actor, id: string): Promise<void> {
    await this.db.read((em) => ownedConversation(this.repo, em, actor, id));
  }

  list(actor: Actor, limit: number, cursor?: string): Promise<ConversationPage> {
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    if (cursor !== undefined && !after) throw new InvalidInputError('cursor is not one this service returned');
    return this.db.read(async (em) => {
      // One extra row tells whether another page exists without a COUNT.
      const rows = await this.repo.listByActor(em, actor.id, limit + 1, after);
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
    });
  }

  delete(actor: Actor, id: string): Promise<void> {
    return this.db.transaction(async (em) => {
      if (await this.repo.deleteOwned(em, actor.id, id)) return;
      throw (await this.repo.exists(em, id)) ? new ForbiddenConversationError(id) : new ConversationNotFoundError(id);
    });
  }
}
