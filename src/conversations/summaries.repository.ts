import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rowLock } from '../database/dialect.js';
import { EntityRows, sql } from '../database/sql.js';
import { Summary } from './summary.entity.js';

/** Each thread's running summary, as it stands for the thread's active path. */
@Injectable()
export class SummariesRepository {
  /**
   * The thread's running summary, if it stands for the active path: one made on a branch the
   * thread has since left (its last covered message is off the path) is no summary of it.
   */
  async findSummary(em: EntityManager, conversationId: string, thread: string): Promise<Summary | null> {
    const summary = await EntityRows.of(em, Summary).findOne(em, '"conversation_id" = ? AND "thread" = ?', [conversationId, thread]);
    if (!summary) return null;
    const { rows } = await sql<{ on_path: number }>(em, 'SELECT "on_path" FROM "messages" WHERE "conversation_id" = ? AND "seq" = ?', [conversationId, summary.coversSeq]);
    return rows.length === 0 || Number(rows[0].on_path) === 1 ? summary : null;
  }

  /**
   * Writes the summary only if it still covers `expectedCoversSeq` (0: none yet), so two
   * instances folding the same messages cannot both apply their fold. True when written.
   */
  async replaceSummaryIf(em: EntityManager, next: Summary, expectedCoversSeq: number): Promise<boolean> {
    const current = await em.findOne(Summary, { where: { conversationId: next.conversationId, thread: next.thread }, ...rowLock(em) });
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
