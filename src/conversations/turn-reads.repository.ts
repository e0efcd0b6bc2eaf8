import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { forUpdate, isPostgres } from '../database/dialect.js';
import { EntityRows, sql } from '../database/sql.js';
import { Conversation } from './conversation.entity.js';
import {
  PINNED_ON_PATH_SQL,
  RECENT_HISTORY_SQL,
  replayedOf,
  type ConversationKey,
  type ReplayedMessage,
  type ReplayedRow,
} from './messages.repository.js';
import { Message } from './message.entity.js';
import { Summary } from './summary.entity.js';
import { Thread } from './thread.entity.js';

/**
 * The columns and joins that read a thread's head beside another row: its active leaf (`l_`),
 * its row (`t_`) and the summary that stands for its active path (`s_`).
 */
function headOf(em: EntityManager) {
  const messages = EntityRows.of(em, Message);
  const threads = EntityRows.of(em, Thread);
  const summaries = EntityRows.of(em, Summary);
  return {
    columns: `${messages.prefixedColumnList('l', 'l_')}, ${threads.prefixedColumnList('t', 't_')}, ${summaries.prefixedColumnList('s', 's_')}`,
    joins: `LEFT JOIN (SELECT ${messages.columnList} FROM "messages" WHERE "conversation_id" = ? AND "actor" = ? AND "thread" = ? AND "on_path" = 1 ORDER BY "seq" DESC LIMIT 1) "l" ON 1 = 1
       LEFT JOIN "threads" "t" ON "t"."conversation_id" = ? AND "t"."actor" = ? AND "t"."name" = ?
       LEFT JOIN "summaries" "s" ON "s"."conversation_id" = ? AND "s"."actor" = ? AND "s"."thread" = ? AND NOT EXISTS (
         SELECT 1 FROM "messages" m WHERE m."conversation_id" = "s"."conversation_id" AND m."actor" = "s"."actor" AND m."seq" = "s"."covers_seq" AND m."on_path" = 0)`,
    params: ({ id, actor }: ConversationKey, thread: string) => [
      id,
      actor,
      thread,
      id,
      actor,
      thread,
      id,
      actor,
      thread,
    ],
    read: (row: Record<string, unknown>): ThreadHead => ({
      leaf: row.l_id == null ? null : messages.hydrate(row, 'l_'),
      thread: row.t_name == null ? null : threads.hydrate(row, 't_'),
      summary: row.s_thread == null ? null : summaries.hydrate(row, 's_'),
    }),
  };
}

/** A thread as a turn starts from it. */
export interface ThreadHead {
  /** The thread's active leaf (null: an empty thread). */
  readonly leaf: Message | null;
  /** The thread's row (null: not created yet). */
  readonly thread: Thread | null;
  /** Its running summary, if it stands for the active path (as SummariesRepository.findSummary reads it). */
  readonly summary: Summary | null;
}

/**
 * The reads every chat turn makes, each in one statement instead of several: on PostgreSQL a
 * statement is a round trip, and a turn's round trips bound its throughput. Each answers
 * exactly what the separate reads would (MessagesRepository.lastMessage and recentHistory,
 * ThreadsRepository.findThread, SummariesRepository.findSummary, the pinned messages of the
 * path), in the caller's transaction: `turn-reads.repository.spec.ts` compares them.
 * Run them after the conversation's row lock is held: a statement that waited for the lock
 * would read the other rows as they were before the wait (PostgreSQL re-checks only the locked row).
 */
@Injectable()
export class TurnReadsRepository {
  async threadHead(em: EntityManager, conversation: ConversationKey, thread: string): Promise<ThreadHead> {
    const head = headOf(em);
    const { rows } = await sql(
      em,
      `SELECT ${head.columns} FROM (SELECT 1 AS "one") "head" ${head.joins}`,
      head.params(conversation, thread),
    );
    return head.read(rows[0]);
  }

  /**
   * The actor's conversation (as ConversationsRepository.lockOwned reads it) with its thread's
   * head, or null when the actor has no such conversation. One statement on SQLite, where the
   * unit of work already holds the database's only write lock; on PostgreSQL the head is read
   * once the row lock is held, for the reason above.
   */
  async ownedWithHead(
    em: EntityManager,
    actor: string,
    conversationId: string,
    thread: string,
  ): Promise<{ conversation: Conversation; head: ThreadHead } | null> {
    const conversations = EntityRows.of(em, Conversation);
    if (isPostgres(em)) {
      const conversation = await conversations.findOne(
        em,
        '"id" = ? AND "actor" = ?',
        [conversationId, actor],
        forUpdate(em),
      );
      return conversation && { conversation, head: await this.threadHead(em, conversation, thread) };
    }
    const head = headOf(em);
    const { rows } = await sql(
      em,
      `SELECT ${conversations.prefixedColumnList('c', 'c_')}, ${head.columns} FROM "conversations" "c" ${head.joins} WHERE "c"."id" = ? AND "c"."actor" = ?`,
      [...head.params({ id: conversationId, actor }, thread), conversationId, actor],
    );
    return rows[0] ? { conversation: conversations.hydrate(rows[0], 'c_'), head: head.read(rows[0]) } : null;
  }

  /**
   * MessagesRepository.recentHistory (afterSeq 0) and the pinned messages of the thread's
   * active path before `beforeSeq` (at most `pinnedLimit`; a turn sends them whatever the window), in one statement.
   */
  async recentWithPinned(
    em: EntityManager,
    conversation: ConversationKey,
    thread: string,
    beforeSeq: number,
    limit: number,
    pinnedLimit: number,
  ): Promise<{ recent: ReplayedMessage[]; pinned: ReplayedMessage[] }> {
    if (beforeSeq <= 1) return { recent: [], pinned: [] };
    const { rows } = await sql<ReplayedRow & { part: number }>(
      em,
      `SELECT 0 AS "part", r.* FROM (${RECENT_HISTORY_SQL} LIMIT ?) r
       UNION ALL
       SELECT 1 AS "part", p.* FROM (${PINNED_ON_PATH_SQL} LIMIT ?) p`,
      [
        conversation.id,
        conversation.actor,
        thread,
        beforeSeq,
        0,
        Math.max(limit, 0),
        conversation.id,
        conversation.actor,
        thread,
        beforeSeq,
        pinnedLimit,
      ],
    );
    const messages = EntityRows.of(em, Message);
    const part = (n: number) =>
      rows
        .filter((r) => Number(r.part) === n)
        .map((r) => replayedOf(messages, r))
        .sort((a, b) => a.seq - b.seq);
    return { recent: part(0), pinned: part(1) };
  }
}
