import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DatabaseService } from '../database/database.service.js';
import type { Conversation } from './conversation.entity.js';
import { decodeCursor, encodeCursor } from './conversation-cursor.js';
import { ConversationNotFoundError, ForbiddenConversationError, InvalidInputError } from './conversation.errors.js';
import { ConversationsRepository, type NewMessage } from './conversations.repository.js';
import type { Message } from './message.entity.js';
import { titleFromMessage } from './title.js';

export interface ConversationPage {
  readonly items: Conversation[];
  readonly nextCursor: string | null;
}

export interface UserTurn {
  readonly conversation: Conversation;
  readonly created: boolean;
  readonly userMessage: Message;
  /** Complete messages before the new one, oldest first, at most the requested window. */
  readonly history: Message[];
}

/**
 * Conversations and their messages, always on behalf of an actor. Promises: an actor never
 * reads or changes another actor's conversation (ForbiddenConversationError), a missing id
 * is ConversationNotFoundError, and each message gets the next gapless `seq`.
 */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: ConversationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Commits the user's message (creating the conversation when no id is given) and returns
   * the history to replay, all in one short transaction.
   */
  beginUserTurn(actor: Actor, conversationId: string | undefined, content: string, historyLimit: number): Promise<UserTurn> {
    this.assertValidContent(content);
    return this.db.transaction(async (em) => {
      const now = new Date();
      const conversation = conversationId
        ? await this.ownedOrThrow(em, actor, conversationId)
        : await this.repo.insertConversation(em, actor.id, titleFromMessage(content), now);
      const userMessage = await this.repo.appendMessage(em, conversation, { role: 'user', content }, now);
      const history = await this.repo.recentHistory(em, conversation.id, userMessage.seq, historyLimit);
      return { conversation, created: !conversationId, userMessage, history };
    });
  }

  /** Appends a message the system produced (an assistant reply, complete or failed). */
  appendMessage(actor: Actor, conversationId: string, draft: NewMessage): Promise<Message> {
    return this.db.transaction(async (em) => {
      const conversation = await this.ownedOrThrow(em, actor, conversationId);
      return this.repo.appendMessage(em, conversation, draft, new Date());
    });
  }

  /** The conversation with all its messages in order. */
  getWithMessages(actor: Actor, id: string): Promise<{ conversation: Conversation; messages: Message[] }> {
    return this.db.read(async (em) => {
      const conversation = await this.ownedOrThrow(em, actor, id);
      return { conversation, messages: await this.repo.allMessages(em, id) };
    });
  }

  /** Throws unless the actor owns the conversation; used by surfaces before routing work to it. */
  async assertOwned(actor: Actor, id: string): Promise<void> {
    await this.db.read((em) => this.ownedOrThrow(em, actor, id));
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

  private async ownedOrThrow(em: EntityManager, actor: Actor, id: string): Promise<Conversation> {
    const conversation = await this.repo.findOwned(em, actor.id, id);
    if (conversation) return conversation;
    throw (await this.repo.exists(em, id)) ? new ForbiddenConversationError(id) : new ConversationNotFoundError(id);
  }

  private assertValidContent(content: string): void {
    if (typeof content !== 'string' || content.trim() === '') {
      throw new InvalidInputError('message must not be empty');
    }
    if (content.length > this.config.maxMessageChars) {
      throw new InvalidInputError(
        `message is ${content.length} characters long; the limit is ${this.config.maxMessageChars} (MAX_MESSAGE_CHARS)`,
      );
    }
  }
}
