import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { isPostgres } from '../database/dialect.js';
import { Conversation } from './conversation.entity.js';
import { Message } from './message.entity.js';

/**
 * Nor any of its threads written since: an imported conversation keeps its source's times for the
 * conversation (the listing shows when it was last used there) and its thread records the import,
 * so RETENTION_DAYS counts from the import.
 */
const NO_THREAD_SINCE = `NOT EXISTS (SELECT 1 FROM threads t WHERE t.conversation_id = c.id AND t.updated_at >= :cutoff)`;

/** Conversations of every actor not updated since a cutoff, in batches, for the retention sweep. */
@Injectable()
export class StaleConversationsRepository {
  /**
   * Up to `limit` ids of conversations last updated before `cutoff`, oldest first. On
   * PostgreSQL the rows are locked, skipping rows another instance's sweep holds, so two
   * instances sweeping at once share the work instead of waiting on each other.
   */
  async staleIds(em: EntityManager, cutoff: Date, limit: number): Promise<string[]> {
    const query = em
      .createQueryBuilder(Conversation, 'c')
      .select('c.id', 'id')
      .where('c.updated_at < :cutoff', { cutoff })
      .andWhere(NO_THREAD_SINCE)
      .orderBy('c.updated_at', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .limit(limit);
    if (isPostgres(em)) query.setLock('pessimistic_write').setOnLocked('skip_locked');
    return (await query.getRawMany<{ id: string }>()).map((r) => r.id);
  }

  countMessages(em: EntityManager, conversationIds: readonly string[]): Promise<number> {
    return conversationIds.length
      ? em.count(Message, { where: { conversationId: In([...conversationIds]) } })
      : Promise.resolve(0);
  }

  /**
   * Deletes those of the conversations still not updated since `cutoff` (a turn may have
   * touched one since it was selected); their messages, threads, summaries and tags go with
   * them by cascade. Returns how many were deleted.
   */
  async deleteStale(em: EntityManager, conversationIds: readonly string[], cutoff: Date): Promise<number> {
    if (conversationIds.length === 0) return 0;
    const result = await em
      .createQueryBuilder()
      .delete()
      .from(Conversation)
      .where({ id: In([...conversationIds]) })
      .andWhere('updated_at < :cutoff', { cutoff })
      .andWhere(NO_THREAD_SINCE.replace('c.id', `${em.connection.driver.escape('conversations')}.id`))
      .execute();
    return result.affected ?? 0;
  }
}
