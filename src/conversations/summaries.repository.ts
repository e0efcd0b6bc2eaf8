import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rowLock } from '../database/dialect.js';
import { EntityRows } from '../database/sql.js';
import { Summary } from './summary.entity.js';

/** Each thread's running summary, as it stands for the thread's active path. */
@Injectable()
export class SummariesRepository {
  /**
   * The thread's running summary, if it stands for the active path: one made on a branch the
   * thread has since left (its last covered message is off the path) is no summary of it.
   */
  findSummary(em: EntityManager, conversationId: string, thread: string): Promise<Summary | null> {
    // One statement, as every turn reads it: the covered message is looked up by (conversation_id, seq).
    return EntityRows.of(em, Summary).findOne(
      em,
      `"conversation_id" = ? AND "thread" = ? AND NOT EXISTS (
         SELECT 1 FROM "messages" m WHERE m."conversation_id" = "summaries"."conversation_id" AND m."seq" = "summaries"."covers_seq" AND m."on_path" = 0)`,
      [conversationId, thread],
    );
  }

  /**
   * Writes the summary only if it still covers `expectedCoversSeq` (0: none yet), so two
   * instances folding the same messages cannot both apply their fold. True when written.
   */
  async replaceSummaryIf(em: EntityManager, next: Summary, expectedCoversSeq: number): Promise<boolean> {
    const current = await em.findOne(Summary, {
      where: { conversationId: next.conversationId, thread: next.thread },
      ...rowLock(em),
    });
    // A summary of a branch the thread has left counts as none: the fold replaces it.
    const standing = current && (await this.findSummary(em, next.conversationId, next.thread)) ? current.coversSeq : 0;
    if (standing !== expectedCoversSeq) return false;
    if (current) {
      await em.update(Summary, { conversationId: next.conversationId, thread: next.thread }, next);
      return true;
    }
    // Two first folds racing on PostgreSQL: the second insert fails on the primary key, and its caller drops that fold.
    await em.insert(Summary, next);
    return true;
  }
}
