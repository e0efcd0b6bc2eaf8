import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { Conversation } from './conversation.entity.js';
import { LimitReachedError } from './conversation.errors.js';

/**
 * The quotas on what an actor stores: conversations per actor (MAX_CONVERSATIONS_PER_ACTOR,
 * checked inside the creating transaction) and messages per conversation
 * (MAX_MESSAGES_PER_CONVERSATION), for every writer of messages: turns, items, imports, forks.
 */
@Injectable()
export class ConversationLimits {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async assertRoomForConversation(em: EntityManager, actor: Actor): Promise<void> {
    const max = this.config.maxConversationsPerActor;
    if (max <= 0) return;
    // Counting stops at the limit: the cost does not grow past it.
    const count = await em.count(Conversation, { where: { actor: actor.id }, take: max });
    if (count >= max) {
      throw new LimitReachedError(
        `You have reached the limit of ${max} conversations (MAX_CONVERSATIONS_PER_ACTOR); delete some first`,
      );
    }
  }

  /** Why one conversation cannot hold `count` messages (`<count> messages; the limit is ...`), or null when it can. */
  messagesOverLimit(count: number): string | null {
    const max = this.config.maxMessagesPerConversation;
    return max > 0 && count > max
      ? `${count} messages; the limit is ${max} per conversation (MAX_MESSAGES_PER_CONVERSATION)`
      : null;
  }

  /** Refuses (LimitReachedError) `adding` messages to a conversation that holds `holding`. */
  assertRoomForMessages(holding: number, adding: number): void {
    if (this.messagesOverLimit(holding + adding) === null) return;
    const max = this.config.maxMessagesPerConversation;
    throw new LimitReachedError(
      `This conversation has reached the limit of ${max} messages (MAX_MESSAGES_PER_CONVERSATION); start a new one`,
    );
  }
}
