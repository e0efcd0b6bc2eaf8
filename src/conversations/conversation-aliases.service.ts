import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { DatabaseService } from '../database/database.service.js';
import { ConversationAliasesRepository } from './conversation-aliases.repository.js';
import { ConversationsRepository } from './conversations.repository.js';
import { MessageAliasesRepository } from './message-aliases.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Conversations named by a client: by one of their ids, or by an alias the client chose (the AI
 * SDK's chat id), per actor. A name gets its conversation with that name's first turn (see
 * `ChatRequest.alias`).
 */
@Injectable()
export class ConversationAliases {
  constructor(
    private readonly db: DatabaseService,
    private readonly conversations: ConversationsRepository,
    private readonly aliases: ConversationAliasesRepository,
    private readonly messageAliases: MessageAliasesRepository,
  ) {}

  /** Gives every alias of `from` to `to`, in the caller's unit of work (an account changing hands). */
  moveActorIn(em: EntityManager, from: Actor, to: Actor): Promise<number> {
    return this.aliases.moveActor(em, from.id, to.id);
  }

  /**
   * The id of the actor's conversation that `name` stands for: the conversation with that id,
   * else the one the actor named so; null for neither. Another actor's conversation id is a
   * name like any other (never a way to reach it).
   */
  resolve(actor: Actor, name: string): Promise<string | null> {
    return this.db.read(async (em) => {
      if (UUID.test(name) && (await this.conversations.findOwned(em, actor.id, name.toLowerCase())))
        return name.toLowerCase();
      return this.aliases.find(em, actor.id, name);
    });
  }

  /**
   * The id of the message of the actor's conversation that the client calls `name` (its own id
   * for a message it sent), else `name` itself: the client may use our ids too.
   */
  resolveMessage(actor: Actor, conversationId: string, name: string): Promise<string> {
    return this.db.read(async (em) => (await this.messageAliases.find(em, actor.id, conversationId, name)) ?? name);
  }

  /** The client's own ids of these messages of the actor's conversation (message id -> the client's id). */
  messageNames(actor: Actor, conversationId: string, messageIds: readonly string[]): Promise<Map<string, string>> {
    return this.db.replicaRead(actor.id, (em) =>
      this.messageAliases.aliasesOf(em, actor.id, conversationId, messageIds),
    );
  }
}
