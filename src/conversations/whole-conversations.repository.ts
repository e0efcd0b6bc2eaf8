import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { ConversationTag } from './conversation-tag.entity.js';
import { Conversation } from './conversation.entity.js';
import { isPostgres, rowLock } from '../database/dialect.js';
import { MAIN_THREAD } from './thread.entity.js';
import { Message } from './message.entity.js';
import { ResponseRecord } from './response-record.entity.js';
import { Summary } from './summary.entity.js';
import { Thread } from './thread.entity.js';

/** Rows per multi-row INSERT: well under the bound-parameter limits of SQLite and PostgreSQL. */
const INSERT_CHUNK = 200;

/** A conversation row to insert whole (an import or a fork). */
export type ConversationRow = Pick<
  Conversation,
  'id' | 'actor' | 'title' | 'agentId' | 'state' | 'archived' | 'pinned' | 'lastSeq' | 'createdAt' | 'updatedAt'
> & { importSource?: string | null };

/** A message row to insert whole, as stored (never `streaming`: no lease, no stop request). */
export type MessageRow = Pick<
  Message,
  | 'id'
  | 'conversationId'
  | 'seq'
  | 'thread'
  | 'role'
  | 'content'
  | 'tokens'
  | 'status'
  | 'model'
  | 'promptTokens'
  | 'completionTokens'
  | 'versions'
  | 'toolCalls'
  | 'errorCode'
  | 'errorMessage'
  | 'createdAt'
  | 'parentId'
  | 'onPath'
> &
  Partial<Pick<Message, 'reasoning' | 'reasoningMs'>>;

/** What erasing a batch of conversations removed with them. */
interface ConversationContents {
  readonly messages: number;
  readonly threads: number;
  readonly summaries: number;
  readonly tags: number;
}

/**
 * Whole conversations at once: read for an export, written by an import or a fork, erased with
 * an account (portability/ asks for these; the tables stay conversations'). Every query that
 * selects by actor filters on it in the query itself; whole-conversation inserts skip the
 * reload of defaults (every column is given).
 */
@Injectable()
export class WholeConversationsRepository {
  /** All the actor's conversation ids (archived included), most recently updated first. */
  async conversationIdsOf(em: EntityManager, actor: string): Promise<string[]> {
    const rows = await em
      .createQueryBuilder(Conversation, 'c')
      .select('c.id', 'id')
      .where('c.actor = :actor', { actor })
      .orderBy('c.updated_at', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .getRawMany<{ id: string }>();
    return rows.map((r) => r.id);
  }

  tagsOf(em: EntityManager, conversationId: string): Promise<string[]> {
    return em
      .find(ConversationTag, { where: { conversationId }, order: { tag: 'ASC' } })
      .then((rows) => rows.map((r) => r.tag));
  }

  summariesOf(em: EntityManager, conversationId: string): Promise<Summary[]> {
    return em.find(Summary, { where: { conversationId }, order: { thread: 'ASC' } });
  }

  /** Every message with `seq` up to `lastSeq` (all threads), in order. */
  messagesUpTo(em: EntityManager, conversationId: string, lastSeq: number): Promise<Message[]> {
    return em
      .createQueryBuilder(Message, 'm')
      .where('m.conversation_id = :conversationId', { conversationId })
      .andWhere('m.seq <= :lastSeq', { lastSeq })
      .orderBy('m.seq', 'ASC')
      .getMany();
  }

  /**
   * Which of these import sources (`<format>:<id in the file>`) the actor's conversations came
   * from, or which of these conversation ids the actor holds (a file of our own format re-imported
   * where it was exported): each found source or id with the conversation that holds it.
   */
  async alreadyImported(
    em: EntityManager,
    actor: string,
    sources: readonly string[],
    ownIds: readonly string[] = [],
  ): Promise<Map<string, { id: string; title: string }>> {
    const found = new Map<string, { id: string; title: string }>();
    if (sources.length > 0) {
      const rows = await em.find(Conversation, {
        select: { id: true, title: true, importSource: true },
        where: { actor, importSource: In([...sources]) },
      });
      for (const r of rows) found.set(r.importSource!, { id: r.id, title: r.title });
    }
    if (ownIds.length > 0) {
      for (const r of await em.find(Conversation, {
        select: { id: true, title: true },
        where: { actor, id: In([...ownIds]) },
      }))
        found.set(r.id, { id: r.id, title: r.title });
    }
    return found;
  }

  /**
   * What an import adding messages to a conversation it made before needs of it: its `lastSeq`
   * (the row locked when `lock`), which of `ids` it holds, its message count, the active leaf of its
   * main thread, and whether a reply is being generated in it. Null when the actor has no such conversation.
   */
  async importTarget(
    em: EntityManager,
    actor: string,
    conversationId: string,
    ids: readonly string[],
    lock: boolean,
  ): Promise<{
    lastSeq: number;
    held: Set<string>;
    messageCount: number;
    activeLeaf: string | null;
    streaming: boolean;
  } | null> {
    const conversation = await em.findOne(Conversation, {
      where: { id: conversationId, actor },
      ...(lock ? rowLock(em) : {}),
    });
    if (!conversation) return null;
    const held = new Set<string>();
    for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
      const rows = await em.find(Message, {
        select: { id: true },
        where: { conversationId, actor, id: In(ids.slice(i, i + INSERT_CHUNK)) },
      });
      for (const r of rows) held.add(r.id);
    }
    const leaf = await em.findOne(Message, {
      select: { id: true },
      where: { conversationId, actor, thread: MAIN_THREAD, onPath: true },
      order: { seq: 'DESC' },
    });
    return {
      lastSeq: conversation.lastSeq,
      held,
      messageCount: await em.count(Message, { where: { conversationId, actor } }),
      activeLeaf: leaf?.id ?? null,
      streaming: await em.exists(Message, { where: { conversationId, actor, status: 'streaming' } }),
    };
  }

  /** After an import appended messages: the conversation's new `lastSeq`, and when it was last used. */
  async advanceImported(
    em: EntityManager,
    actor: string,
    conversationId: string,
    lastSeq: number,
    updatedAt: Date,
  ): Promise<void> {
    await em.update(Conversation, { id: conversationId, actor }, { lastSeq, updatedAt });
  }

  /** Inserts the row; returns it as the entity (tags empty until insertTags). */
  async insertConversation(em: EntityManager, row: ConversationRow): Promise<Conversation> {
    await em.createQueryBuilder().insert().into(Conversation).values(row).updateEntity(false).execute();
    return Object.assign(new Conversation(), row, { tags: [] });
  }

  // The rows below belong to `actor`'s conversations: each row carries the actor (it keys every per-actor table).

  async insertThreads(
    em: EntityManager,
    actor: string,
    rows: ReadonlyArray<Pick<Thread, 'conversationId' | 'name' | 'systemPrompt' | 'createdAt' | 'updatedAt'>>,
  ): Promise<void> {
    await this.insertChunked(
      em,
      Thread,
      rows.map((r) => ({ ...r, actor })),
    );
  }

  async insertMessages(em: EntityManager, actor: string, rows: readonly MessageRow[]): Promise<void> {
    const full = rows.map((r) => ({ ...r, actor, leaseUntil: null, cancelRequestedAt: null }));
    await this.insertChunked(em, Message, full);
  }

  async insertSummaries(em: EntityManager, actor: string, rows: ReadonlyArray<Omit<Summary, 'actor'>>): Promise<void> {
    await this.insertChunked(
      em,
      Summary,
      rows.map((r) => ({ ...r, actor })),
    );
  }

  async insertTags(em: EntityManager, actor: string, conversationId: string, tags: readonly string[]): Promise<void> {
    await this.insertChunked(
      em,
      ConversationTag,
      tags.map((tag) => ({ conversationId, tag, actor })),
    );
  }

  /** Unbinds every conversation, whoever's, from these agents (they are being deleted). */
  async detachAgents(em: EntityManager, agentIds: readonly string[]): Promise<void> {
    for (let i = 0; i < agentIds.length; i += INSERT_CHUNK) {
      await em.update(Conversation, { agentId: In(agentIds.slice(i, i + INSERT_CHUNK)) }, { agentId: null });
    }
  }

  /** Up to `limit` of the actor's conversation ids, for erasing in batches. */
  async someConversationIdsOf(em: EntityManager, actor: string, limit: number): Promise<string[]> {
    const rows = await em
      .createQueryBuilder(Conversation, 'c')
      .select('c.id', 'id')
      .where('c.actor = :actor', { actor })
      .orderBy('c.id', 'ASC')
      .limit(limit)
      .getRawMany<{ id: string }>();
    return rows.map((r) => r.id);
  }

  /** What these conversations hold, counted before they are deleted (the cascade does not say). */
  async contentsOf(em: EntityManager, conversationIds: readonly string[]): Promise<ConversationContents> {
    if (conversationIds.length === 0) return { messages: 0, threads: 0, summaries: 0, tags: 0 };
    const where = { conversationId: In([...conversationIds]) };
    return {
      messages: await em.count(Message, { where }),
      threads: await em.count(Thread, { where }),
      summaries: await em.count(Summary, { where }),
      tags: await em.count(ConversationTag, { where }),
    };
  }

  /** Deletes these conversations of the actor (their rows go with them by cascade); returns how many. */
  async deleteConversations(em: EntityManager, actor: string, conversationIds: readonly string[]): Promise<number> {
    if (conversationIds.length === 0) return 0;
    const result = await em.delete(Conversation, { id: In([...conversationIds]), actor });
    return result.affected ?? 0;
  }

  /** How many conversations each actor holds (archived included), for operators: the most first. */
  async conversationCountsByActor(em: EntityManager): Promise<{ actor: string; conversations: number }[]> {
    const rows = await em
      .createQueryBuilder(Conversation, 'c')
      .select('c.actor', 'actor')
      .addSelect('COUNT(*)', 'conversations')
      .groupBy('c.actor')
      .orderBy('COUNT(*)', 'DESC')
      .addOrderBy('c.actor', 'ASC')
      .getRawMany<{ actor: string; conversations: string | number }>();
    return rows.map((r) => ({ actor: r.actor, conversations: Number(r.conversations) }));
  }

  /**
   * Gives every conversation of `from` (with its messages, threads, summaries, tags, response
   * records and search rows) to `to`. The actor is part of every key and foreign key, so the
   * transaction's foreign-key checks are deferred to its commit, where every row has moved: the
   * caller moves the other tables that reference conversations (shares, aliases, idempotency
   * keys) in the same transaction. Answers how many conversations and messages moved.
   */
  async moveActor(em: EntityManager, from: string, to: string): Promise<{ conversations: number; messages: number }> {
    if (isPostgres(em)) {
      await em.query('SET CONSTRAINTS ALL DEFERRED');
      // The search row's vector carries a lexeme naming its actor (migration 1764610000000): swapped, not recomputed.
      await em.query(
        `UPDATE "messages_search" SET "actor" = $2::varchar, "search_vector" = ts_delete("search_vector", ' a' || md5($1::varchar)) || array_to_tsvector(ARRAY[' a' || md5($2::varchar)]) WHERE "actor" = $1::varchar`,
        [from, to],
      );
    } else {
      // Reset by SQLite at the end of the transaction. The full-text index follows the actor by its update trigger.
      await em.query('PRAGMA defer_foreign_keys = ON');
    }
    const conversations = (await em.update(Conversation, { actor: from }, { actor: to })).affected ?? 0;
    const messages = (await em.update(Message, { actor: from }, { actor: to })).affected ?? 0;
    for (const entity of [Thread, Summary, ConversationTag, ResponseRecord] as const)
      await em.update(entity, { actor: from }, { actor: to });
    return { conversations, messages };
  }

  private async insertChunked<T extends object>(
    em: EntityManager,
    entity: new () => T,
    rows: readonly object[],
  ): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      // The rows are complete entities; TypeORM's deep-partial type cannot follow their JSON columns.
      await em
        .createQueryBuilder()
        .insert()
        .into(entity)
        .values(chunk as never)
        .updateEntity(false)
        .execute();
    }
  }
}
