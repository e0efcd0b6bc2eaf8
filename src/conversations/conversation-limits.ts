import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { Conversation } from './conversation.entity.js';
import { LimitReachedError } from './conversation.errors.js';

/** The per-actor quota on conversations (MAX_CONVERSATIONS_PER_ACTOR), checked inside the creating transaction. */
@Injectable()
export class ConversationLimits {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async assertRoomForConversation(em: EntityManager, actor: Actor): Promise<void> {
    const max = this.config.maxConversationsPerActor;
    if (max <= 0) return;
    // Counting stops at the limit: the cost does not grow past it.
    const count = await em.count(Conversation, { where: { actor: actor.id }, take: max });
    if (count >= max) {
      throw new LimitReachedError(`You have reached the limit of ${max} conversations (MAX_CONVERSATIONS_PER_ACTOR); delete some first`);
    }
  }
}
