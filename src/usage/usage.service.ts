import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { AgentsService } from '../agents/agents.service.js';
import { Conversation } from '../conversations/conversation.entity.js';
import { Message, REPLAYED_STATUSES_SQL } from '../conversations/message.entity.js';
import { InvalidInputError } from '../conversations/conversation.errors.js';
import { DatabaseService } from '../database/database.service.js';

export interface UsageQuery {
  readonly from: Date;
  readonly to: Date;
  /** One agent's conversations; null: those without an agent; undefined: all. */
  readonly agentId?: string | null;
}

export interface UsageRow {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly replies: number;
}

export interface UsageReport {
  readonly totals: UsageRow;
  readonly byModel: ReadonlyArray<UsageRow & { readonly model: string }>;
  readonly byDay: ReadonlyArray<UsageRow & { readonly day: string }>;
}

/**
 * Token usage of an actor's replies, from what each reply stored (the model server's figures,
 * else counted with the tokenizer). Days are UTC. Answers replaced by regenerate are not
 * counted (they stay readable in their message's versions); summary folds are reported on
 * each conversation's summary.
 */
@Injectable()
export class UsageService {
  constructor(
    private readonly db: DatabaseService,
    private readonly agents: AgentsService,
  ) {}

  report(actor: Actor, query: UsageQuery): Promise<UsageReport> {
    if (query.from >= query.to) throw new InvalidInputError('from must be before to');
    return this.db.read(async (em) => {
      if (query.agentId) await this.agents.usableIn(em, actor, query.agentId);
      const day = em.connection.options.type === 'postgres' ? "to_char(m.created_at, 'YYYY-MM-DD')" : 'substr(m.created_at, 1, 10)';
      const base = () => {
        const q = em
          .createQueryBuilder(Message, 'm')
          .innerJoin(Conversation, 'c', 'c.id = m.conversation_id')
          .select('COALESCE(SUM(m.prompt_tokens), 0)', 'promptTokens')
          .addSelect('COALESCE(SUM(m.completion_tokens), 0)', 'completionTokens')
          .addSelect('COUNT(*)', 'replies')
          .where('c.actor = :actor', { actor: actor.id })
          .andWhere("m.role = 'assistant'")
          .andWhere(`m.status IN ${REPLAYED_STATUSES_SQL}`)
          .andWhere('m.created_at >= :from AND m.created_at < :to', { from: query.from, to: query.to });
        if (query.agentId === null) q.andWhere('c.agent_id IS NULL');
        else if (query.agentId) q.andWhere('c.agent_id = :agentId', { agentId: query.agentId });
        return q;
      };
      const totals = toRow(await base().getRawOne());
      const byModel = (await base().addSelect('m.model', 'model').groupBy('m.model').orderBy('m.model').getRawMany()).map((r) => ({
        model: String(r.model ?? 'unknown'),
        ...toRow(r),
      }));
      const byDay = (await base().addSelect(day, 'day').groupBy(day).orderBy(day).getRawMany()).map((r) => ({ day: String(r.day), ...toRow(r) }));
      return { totals, byModel, byDay };
    });
  }
}

function toRow(raw: Record<string, unknown> | undefined): UsageRow {
  return {
    promptTokens: Number(raw?.promptTokens ?? 0),
    completionTokens: Number(raw?.completionTokens ?? 0),
    replies: Number(raw?.replies ?? 0),
  };
}
