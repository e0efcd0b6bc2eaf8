import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { AgentsService } from '../agents/agents.service.js';
import { DatabaseService } from '../database/database.service.js';
import { WholeConversationsRepository } from '../conversations/whole-conversations.repository.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import { MemoryService } from '../memory/memory.service.js';
import { OAuthService } from '../oauth/oauth.service.js';

/** Conversations erased per transaction, so that erasing a large account never holds the database for long. */
const ERASE_BATCH = 500;

/** What erasing an actor's data removed. */
export interface ErasedData {
  readonly conversations: number;
  readonly messages: number;
  readonly threads: number;
  readonly summaries: number;
  readonly tags: number;
  readonly agents: number;
  readonly idempotencyKeys: number;
  readonly memories: number;
}

/** An actor's data erased as a whole, from every module that holds some, never another actor's. */
@Injectable()
export class AccountErasure {
  constructor(
    private readonly db: DatabaseService,
    private readonly whole: WholeConversationsRepository,
    private readonly agents: AgentsService,
    private readonly idempotency: IdempotencyService,
    private readonly memories: MemoryService,
    private readonly oauth: OAuthService,
  ) {}

  /**
   * Erases everything of the actor: its MCP hosts' OAuth tokens, its idempotency keys, its conversations with their
   * messages, threads, summaries and tags (ERASE_BATCH per transaction), then its agents (a
   * conversation of another actor that used one of them is kept, without an agent). Answers
   * what was removed. Nothing of another actor is deleted.
   */
  async eraseAccount(actor: Actor): Promise<ErasedData> {
    const totals = {
      conversations: 0,
      messages: 0,
      threads: 0,
      summaries: 0,
      tags: 0,
      agents: 0,
      idempotencyKeys: 0,
      memories: 0,
    };
    totals.memories += await this.memories.eraseFor(actor);
    // The MCP hosts it connected lose their access first.
    await this.oauth.eraseFor(actor);
    totals.idempotencyKeys += await this.db.transaction((em) => this.idempotency.eraseFor(em, actor));
    for (;;) {
      const batch = await this.db.transaction(async (em) => {
        const ids = await this.whole.someConversationIdsOf(em, actor.id, ERASE_BATCH);
        if (ids.length === 0) return null;
        const contents = await this.whole.contentsOf(em, ids);
        return { ...contents, conversations: await this.whole.deleteConversations(em, actor.id, ids) };
      });
      if (!batch) break;
      totals.conversations += batch.conversations;
      totals.messages += batch.messages;
      totals.threads += batch.threads;
      totals.summaries += batch.summaries;
      totals.tags += batch.tags;
    }
    await this.db.transaction(async (em) => {
      // Other actors' conversations with these agents (offered ones) go on without one: no
      // foreign key does it (an offered agent is another actor's row, docs/operations.md).
      await this.whole.detachAgents(em, await this.agents.idsIn(em, actor));
      totals.agents += await this.agents.eraseFor(em, actor);
      // Memories the model wrote while the conversations were being erased.
      totals.memories += await this.memories.eraseIn(em, actor);
      // Keys claimed by requests that ran while the conversations were being erased.
      totals.idempotencyKeys += await this.idempotency.eraseFor(em, actor);
    });
    return totals;
  }
}
