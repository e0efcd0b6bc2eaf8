import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isPostgres } from '../database/dialect.js';
import { EntityRows, sql } from '../database/sql.js';
import { Conversation } from './conversation.entity.js';
import {
  Message,
  REPLAYED_STATUSES_SQL,
  type FunctionCallRecord,
  type MessageRole,
  type MessageStatus,
} from './message.entity.js';
import { MAIN_THREAD } from './thread.entity.js';
import { timeOrderedId } from '../common/time-ordered-id.js';

export interface NewMessage {
  /** Given when the caller needs the id first (a reply names its question as parent). */
  readonly id?: string;
  readonly role: MessageRole;
  readonly thread?: string;
  readonly content: string;
  readonly status?: MessageStatus;
  readonly model?: string | null;
  readonly promptTokens?: number | null;
  readonly completionTokens?: number | null;
  readonly leaseUntil?: Date | null;
  readonly tokens?: number | null;
  /** The message it follows (null or absent: the first of its thread). */
  readonly parentId?: string | null;
  /** Functions of the client an assistant message asks to be called. */
  readonly functionCalls?: readonly FunctionCallRecord[] | null;
  /** On a `tool` message: the call it answers. */
  readonly callId?: string | null;
  /** A reply: the long-term memories its turn was given. */
  readonly memoryIds?: readonly string[] | null;
  /** A reply: the messages recall gave its turn. */
  readonly recalledMessageIds?: readonly string[] | null;
}

/** A stored message as the model is sent it again. */
export type ReplayedMessage = Pick<Message, 'seq' | 'role' | 'content' | 'tokens' | 'functionCalls' | 'callId'>;

/**
 * A conversation's token usage: the sums of its replies' usage, read from their own index
 * (idx_messages_usage) and not from the rows, whose contents may spill onto overflow pages.
 */
export const USAGE_TOTALS_SQL = `SELECT COALESCE(SUM("prompt_tokens"), 0) AS "promptTokens",
  COALESCE(SUM("completion_tokens"), 0) AS "completionTokens"
FROM "messages" WHERE "conversation_id" = ? AND "actor" = ?
  AND (prompt_tokens IS NOT NULL OR completion_tokens IS NOT NULL)`;

/** A row of RECENT_HISTORY_SQL or PINNED_ON_PATH_SQL. */
export interface ReplayedRow {
  readonly seq: number;
  readonly role: MessageRole;
  readonly content: string;
  readonly tokens: number | null;
  readonly function_calls: string | null;
  readonly call_id: string | null;
}

/** A conversation as every statement on its rows names it: by id, and by actor (what a database distributed by actor routes on). */
export type ConversationKey = Pick<Conversation, 'id' | 'actor'>;

/** A thread's replayable messages before a seq (and after one), newest first; parameters: conversation, actor, thread, before, after; then a LIMIT. */
export const RECENT_HISTORY_SQL = `SELECT "seq", "role", "content", "tokens", "function_calls", "call_id" FROM "messages"
  WHERE "conversation_id" = ? AND "actor" = ? AND "thread" = ? AND "on_path" = 1 AND "seq" < ? AND "seq" > ? AND "status" IN ${REPLAYED_STATUSES_SQL} AND ("content" <> '' OR "function_calls" IS NOT NULL)
  ORDER BY "seq" DESC`;

/** The pinned messages of a thread's active path before a seq, oldest first; parameters: conversation, actor, thread, before; then a LIMIT. */
export const PINNED_ON_PATH_SQL = `SELECT "seq", "role", "content", "tokens", NULL AS "function_calls", NULL AS "call_id" FROM "messages"
  WHERE "conversation_id" = ? AND "actor" = ? AND "thread" = ? AND "pinned" = 1 AND "on_path" = 1 AND "seq" < ? AND "status" IN ${REPLAYED_STATUSES_SQL} AND "content" <> ''
  ORDER BY "seq"`;

/** A replayed message from its row (its function calls as the entity holds them). */
export function replayedOf(messages: EntityRows<Message>, r: ReplayedRow): ReplayedMessage {
  return {
    seq: r.seq,
    role: r.role,
    content: r.content,
    tokens: r.tokens,
    functionCalls:
      r.function_calls === null ? null : (messages.read('functionCalls', r.function_calls) as Message['functionCalls']),
    callId: r.call_id,
  };
}

/**
 * A conversation's messages: appending them in order, and the reads of its history (the
 * window replayed to the model, the path, a message by id or seq). The statements of a chat
 * turn are constant SQL with bound parameters (database/sql.ts); the rest uses TypeORM's builders.
 */
@Injectable()
export class MessagesRepository {
  /**
   * Appends messages with the next `seq` numbers, in order. Bumping `last_seq` first makes the
   * update the conversation's write lock for the rest of the transaction, so two appends can
   * never take the same number.
   */
  async appendMessages(
    em: EntityManager,
    conversation: Conversation,
    drafts: readonly NewMessage[],
    now: Date,
  ): Promise<Message[]> {
    const conversations = EntityRows.of(em, Conversation);
    const bump =
      'UPDATE "conversations" SET "last_seq" = "last_seq" + ?, "updated_at" = ? WHERE "id" = ? AND "actor" = ? RETURNING "last_seq"';
    const bumpParams = [drafts.length, conversations.value('updatedAt', now), conversation.id, conversation.actor];
    if (isPostgres(em) && drafts.length > 0) {
      // One round trip: the bump is a CTE, and each row's seq is counted back from the last_seq it returns.
      const messages = this.messagesOf(conversation, drafts, now, 0);
      const rows = EntityRows.of(em, Message);
      const seq = rows.column('seq');
      const insert = rows.insertStatement(messages, {
        seq: (i) => `(SELECT "last_seq" FROM bump) - ${drafts.length - 1 - i}`,
      });
      const { rows: stored } = await sql<{ id: string; seq: number }>(
        em,
        `WITH bump AS (${bump}) ${insert.text} RETURNING "id", "${seq}"`,
        [...bumpParams, ...insert.params],
      );
      // No conversation row: seq is NULL and the INSERT fails on NOT NULL; checked again all the same.
      if (stored.length !== drafts.length)
        throw new Error(`Conversation ${conversation.id} vanished inside its own transaction`);
      const seqOf = new Map(stored.map((row) => [row.id, Number(row.seq)]));
      for (const message of messages) message.seq = seqOf.get(message.id) ?? Number.NaN;
      conversation.lastSeq = Math.max(...seqOf.values());
      conversation.updatedAt = now;
      return messages;
    }
    const { rows } = await sql<{ last_seq: number }>(em, bump, bumpParams);
    if (rows.length === 0) throw new Error(`Conversation ${conversation.id} vanished inside its own transaction`);
    const lastSeq = Number(rows[0].last_seq);
    conversation.lastSeq = lastSeq;
    conversation.updatedAt = now;
    const messages = this.messagesOf(conversation, drafts, now, lastSeq - drafts.length + 1);
    await EntityRows.of(em, Message).insert(em, messages);
    return messages;
  }

  /** The messages `drafts` become in `conversation`, numbered from `firstSeq`. */
  private messagesOf(
    conversation: Conversation,
    drafts: readonly NewMessage[],
    now: Date,
    firstSeq: number,
  ): Message[] {
    return drafts.map((draft, i) =>
      Object.assign(new Message(), {
        id: draft.id ?? timeOrderedId(),
        conversationId: conversation.id,
        actor: conversation.actor,
        seq: firstSeq + i,
        thread: draft.thread ?? MAIN_THREAD,
        role: draft.role,
        content: draft.content,
        status: draft.status ?? 'complete',
        model: draft.model ?? null,
        promptTokens: draft.promptTokens ?? null,
        completionTokens: draft.completionTokens ?? null,
        versions: null,
        errorCode: null,
        errorMessage: null,
        leaseUntil: draft.leaseUntil ?? null,
        cancelRequestedAt: null,
        toolCalls: null,
        functionCalls: draft.functionCalls ?? null,
        callId: draft.callId ?? null,
        tokens: draft.tokens ?? null,
        parentId: draft.parentId ?? null,
        onPath: true,
        pinned: false,
        memoryIds: draft.memoryIds?.length ? [...draft.memoryIds] : null,
        recalledMessageIds: draft.recalledMessageIds?.length ? [...draft.recalledMessageIds] : null,
        createdAt: now,
      }),
    );
  }

  async appendMessage(em: EntityManager, conversation: Conversation, draft: NewMessage, now: Date): Promise<Message> {
    const [message] = await this.appendMessages(em, conversation, [draft], now);
    return message;
  }

  /**
   * The last `limit` complete, non-empty messages of a thread before `beforeSeq` (and after
   * `afterSeq`), oldest first, with only what is replayed to the model. Walks the (conversation_id, thread, seq) index
   * backwards, so the cost depends on `limit`, not on how long the conversation is.
   */
  async recentHistory(
    em: EntityManager,
    conversation: ConversationKey,
    thread: string,
    beforeSeq: number,
    limit: number,
    afterSeq = 0,
  ): Promise<ReplayedMessage[]> {
    if (limit <= 0 || beforeSeq - 1 <= afterSeq) return [];
    // Only the columns the context needs: each column of each row is a JS value to build, and this runs every turn.
    const { rows } = await sql<ReplayedRow>(em, `${RECENT_HISTORY_SQL} LIMIT ?`, [
      conversation.id,
      conversation.actor,
      thread,
      beforeSeq,
      afterSeq,
      limit,
    ]);
    const messages = EntityRows.of(em, Message);
    return rows.reverse().map((r) => replayedOf(messages, r));
  }

  /** The active leaf of a thread: the last message of its active path (of every thread's when none is named). */
  lastMessage(em: EntityManager, conversationId: string, thread?: string): Promise<Message | null> {
    const messages = EntityRows.of(em, Message);
    return thread
      ? messages.findOne(
          em,
          '"conversation_id" = ? AND "thread" = ? AND "on_path" = 1',
          [conversationId, thread],
          'ORDER BY "seq" DESC LIMIT 1',
        )
      : messages.findOne(
          em,
          '"conversation_id" = ? AND "on_path" = 1',
          [conversationId],
          'ORDER BY "seq" DESC LIMIT 1',
        );
  }

  /** Replayable messages of a thread with afterSeq < seq < beforeSeq, oldest first, at most `limit`. */
  replayableBetween(
    em: EntityManager,
    conversationId: string,
    thread: string,
    afterSeq: number,
    beforeSeq: number,
    limit: number,
  ): Promise<Message[]> {
    return em
      .createQueryBuilder(Message, 'm')
      .where('m.conversation_id = :conversationId', { conversationId })
      .andWhere('m.thread = :thread', { thread })
      .andWhere('m.on_path = 1')
      .andWhere('m.seq > :afterSeq AND m.seq < :beforeSeq', { afterSeq, beforeSeq })
      .andWhere(`m.status IN ${REPLAYED_STATUSES_SQL}`)
      .andWhere("m.content <> ''")
      .orderBy('m.seq', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Token totals of a conversation's replies (USAGE_TOTALS_SQL). */
  async usageTotals(
    em: EntityManager,
    conversation: ConversationKey,
  ): Promise<{ promptTokens: number; completionTokens: number }> {
    const { rows } = await sql<{ promptTokens: string | number; completionTokens: string | number }>(
      em,
      USAGE_TOTALS_SQL,
      [conversation.id, conversation.actor],
    );
    return {
      promptTokens: Number(rows[0]?.promptTokens ?? 0),
      completionTokens: Number(rows[0]?.completionTokens ?? 0),
    };
  }

  countReplayableBefore(em: EntityManager, conversationId: string, thread: string, beforeSeq: number): Promise<number> {
    return em
      .createQueryBuilder(Message, 'm')
      .where('m.conversation_id = :conversationId', { conversationId })
      .andWhere('m.thread = :thread', { thread })
      .andWhere('m.on_path = 1')
      .andWhere('m.seq < :beforeSeq', { beforeSeq })
      .andWhere(`m.status IN ${REPLAYED_STATUSES_SQL}`)
      .andWhere("m.content <> ''")
      .getCount();
  }

  messageAt(em: EntityManager, conversationId: string, seq: number): Promise<Message | null> {
    return EntityRows.of(em, Message).findOne(em, '"conversation_id" = ? AND "seq" = ?', [conversationId, seq]);
  }

  findMessage(em: EntityManager, conversation: ConversationKey, id: string): Promise<Message | null> {
    return EntityRows.of(em, Message).findOne(em, '"id" = ? AND "conversation_id" = ? AND "actor" = ?', [
      id,
      conversation.id,
      conversation.actor,
    ]);
  }

  /**
   * The last `limit` messages (any status) of the active path before `beforeSeq` (all when
   * undefined), oldest first; one thread's when named.
   */
  async messagesBefore(
    em: EntityManager,
    conversationId: string,
    beforeSeq: number | undefined,
    limit: number,
    thread?: string,
  ): Promise<Message[]> {
    const query = em
      .createQueryBuilder(Message, 'm')
      .where('m.conversation_id = :conversationId', { conversationId })
      .andWhere('m.on_path = 1');
    if (beforeSeq !== undefined) query.andWhere('m.seq < :beforeSeq', { beforeSeq });
    if (thread) query.andWhere('m.thread = :thread', { thread });
    const newestFirst = await query.orderBy('m.seq', 'DESC').limit(limit).getMany();
    return newestFirst.reverse();
  }

  allMessages(em: EntityManager, conversationId: string, thread?: string): Promise<Message[]> {
    return em.find(Message, { where: { conversationId, ...(thread ? { thread } : {}) }, order: { seq: 'ASC' } });
  }
}
