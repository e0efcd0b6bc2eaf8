import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { utcDaySql } from '../database/dialect.js';
import { Conversation } from './conversation.entity.js';
import { Message, REPLAYED_STATUSES_SQL } from './message.entity.js';

export interface UsageFilter {
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

export interface UsageTotals {
  readonly totals: UsageRow;
  readonly byModel: ReadonlyArray<UsageRow & { readonly model: string }>;
  readonly byDay: ReadonlyArray<UsageRow & { readonly day: string }>;
}

/**
 * Token sums over an actor's stored replies (`[from, to)`, UTC days), for the usage report:
 * the messages table is this module's, so the sums are computed here.
 */
@Injectable()
export class MessageUsageRepository {
  async totals(em: EntityManager, actor: string, filter: UsageFilter): Promise<UsageTotals> {
    const day = utcDaySql(em, 'm.created_at');
    const base = () => {
      const q = em
        .createQueryBuilder(Message, 'm')
        .innerJoin(Conversation, 'c', 'c.id = m.conversation_id')
        .select('COALESCE(SUM(m.prompt_tokens), 0)', 'promptTokens')
        .addSelect('COALESCE(SUM(m.completion_tokens), 0)', 'completionTokens')
        .addSelect('COUNT(*)', 'replies')
        .where('c.actor = :actor', { actor })
        .andWhere("m.role = 'assistant'")
        .andWhere(`m.status IN ${REPLAYED_STATUSES_SQL}`)
        .andWhere('m.created_at >= :from AND m.created_at < :to', { from: filter.from, to: filter.to });
      if (filter.agentId === null) q.andWhere('c.agent_id IS NULL');
      else if (filter.agentId) q.andWhere('c.agent_id = :agentId', { agentId: filter.agentId });
      return q;
    };
    const totals = toRow(await base().getRawOne());
    const byModel = (await base().addSelect('m.model', 'model').groupBy('m.model').orderBy('m.model').getRawMany()).map(
      (r) => ({
        model: String(r.model ?? 'unknown'),
        ...toRow(r),
      }),
    );
    const byDay = (await base().addSelect(day, 'day').groupBy(day).orderBy(day).getRawMany()).map((r) => ({
      day: String(r.day),
      ...toRow(r),
    }));
    return { totals, byModel, byDay };
  }
}

function toRow(raw: Record<string, unknown> | undefined): UsageRow {
  return {
    promptTokens: Number(raw?.promptTokens ?? 0),
    completionTokens: Number(raw?.completionTokens ?? 0),
    replies: Number(raw?.replies ?? 0),
  };
}
