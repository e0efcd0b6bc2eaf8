import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { apiActor, SINGLE_USER_ACTOR, type Actor } from '../actor-auth/actor.js';
import { ApiKeyError, ApiKeysService } from '../actor-auth/api-keys.service.js';
import { AgentsService } from '../agents/agents.service.js';
import { ConversationAliases } from '../conversations/conversation-aliases.service.js';
import { WholeConversationsRepository } from '../conversations/whole-conversations.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import { MemoryService } from '../memory/memory.service.js';
import { OAuthService } from '../oauth/oauth.service.js';
import { SharingService } from '../sharing/sharing.service.js';

/** What moved from one actor to another. */
export interface AdoptedData {
  readonly from: string;
  readonly to: string;
  readonly conversations: number;
  readonly messages: number;
  readonly agents: number;
  readonly memories: number;
  readonly shares: number;
  readonly aliases: number;
  readonly idempotencyKeys: number;
  /** OAuth tokens of MCP hosts connected in single-user mode. */
  readonly mcpTokens: number;
}

/**
 * The history of single-user mode (actor `api:owner`) given to the first API key: before any key
 * exists every caller is the owner, and a key's actor starts empty, so without this the history
 * stays with an actor no key names. Promises: every row keyed by the owner (conversations with
 * everything in them, agents, memories, share links, aliases, idempotency keys, MCP hosts' tokens) moves in one
 * transaction with the key's creation, on both databases; nothing of another actor is touched.
 */
@Injectable()
export class AccountAdoption {
  constructor(
    private readonly db: DatabaseService,
    private readonly keys: ApiKeysService,
    private readonly whole: WholeConversationsRepository,
    private readonly aliases: ConversationAliases,
    private readonly agents: AgentsService,
    private readonly memories: MemoryService,
    private readonly sharing: SharingService,
    private readonly idempotency: IdempotencyService,
    private readonly oauth: OAuthService,
  ) {}

  /** A key for `api:<name>` that takes over the single-user history, both or neither. */
  createKeyAdopting(
    name: string,
    label?: string,
  ): Promise<{ key: { id: string; name: string; key: string }; adopted: AdoptedData }> {
    return this.db.transaction(async (em) => {
      const key = await this.keys.createIn(em, name, label);
      return { key, adopted: await this.moveIn(em, SINGLE_USER_ACTOR, apiActor(name)) };
    });
  }

  /** The single-user history given to `api:<name>` (a key made earlier without --adopt). */
  adopt(name: string): Promise<AdoptedData> {
    return this.db.transaction((em) => this.moveIn(em, SINGLE_USER_ACTOR, apiActor(name)));
  }

  /** Every actor that holds conversations, with how many: the most first. */
  holders(): Promise<{ actor: string; conversations: number }[]> {
    return this.db.read((em) => this.whole.conversationCountsByActor(em));
  }

  private async moveIn(em: EntityManager, from: Actor, to: Actor): Promise<AdoptedData> {
    if (from.id === to.id) throw new ApiKeyError(`${to.id} is the single-user actor itself: choose another name`);
    const held = (await this.whole.conversationCountsByActor(em)).find((h) => h.actor === to.id);
    // Aliases and idempotency keys are unique per actor: two histories could collide, and would mix.
    if (held)
      throw new ApiKeyError(
        `${to.id} already holds ${held.conversations} conversation(s): adopting would mix two histories`,
      );
    // Conversations first: it defers the foreign-key checks that the other tables' moves rely on.
    const { conversations, messages } = await this.whole.moveActor(em, from.id, to.id);
    return {
      from: from.id,
      to: to.id,
      conversations,
      messages,
      agents: await this.agents.moveActorIn(em, from, to),
      memories: await this.memories.moveActorIn(em, from, to),
      shares: await this.sharing.moveActorIn(em, from, to),
      aliases: await this.aliases.moveActorIn(em, from, to),
      idempotencyKeys: await this.idempotency.moveActorIn(em, from, to),
      mcpTokens: await this.oauth.moveActorIn(em, from, to),
    };
  }
}
