import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { AgentsService } from '../agents/agents.service.js';
import { InvalidInputError } from '../conversations/conversation.errors.js';
import {
  MessageUsageRepository,
  type UsageFilter,
  type UsageRow,
  type UsageTotals,
} from '../conversations/message-usage.repository.js';
import { DatabaseService } from '../database/database.service.js';

type UsageQuery = UsageFilter;
export type { UsageRow };
type UsageReport = UsageTotals;

/**
 * Token usage of an actor's replies, from what each reply stored (the model server's figures,
 * else counted with the tokenizer). Days are UTC. Answers replaced by regenerate are not
 * counted (they stay readable in their message's versions); summary folds are reported on
 * each conversation's summary. The sums are the conversations module's (it owns messages).
 */
@Injectable()
export class UsageService {
  constructor(
    private readonly db: DatabaseService,
    private readonly agents: AgentsService,
    private readonly messages: MessageUsageRepository,
  ) {}

  report(actor: Actor, query: UsageQuery): Promise<UsageReport> {
    if (query.from >= query.to) throw new InvalidInputError('from must be before to');
    return this.db.replicaRead(actor.id, async (em) => {
      if (query.agentId) await this.agents.usableIn(em, actor, query.agentId);
      return this.messages.totals(em, actor.id, query);
    });
  }
}
