import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { ConversationTag } from './conversation-tag.entity.js';
import { Conversation } from './conversation.entity.js';
import { Message } from './message.entity.js';
import { Summary } from './summary.entity.js';
import { Thread } from './thread.entity.js';

/** Rows per multi-row INSERT: well under the bound-parameter limits of SQLite and PostgreSQL. */
const INSERT_CHUNK = 200;

/** A conversation row to insert whole (an import or a fork). */
export type ConversationRow = Pick<
  Conversation,
  'id' | 'actor' | 'title' | 'agentId' | 'state' | 'archived' | 'pinned' | 'lastSeq' | 'createdAt' | 'updatedAt'
>;

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
export interface ConversationContents {
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

  /** Inserts the row; returns it as the entity (tags empty until insertTags). */
  async insertConversation(em: EntityManager, row: ConversationRow): Promise<Conversation> {
    await em.createQueryBuilder().insert().into(Conversation).values(row).updateEntity(false).execute();
    return Object.assign(new Conversation(), row, { tags: [] });
  }

  // The rows below belong to `actor`'s conversations: each row carries the actor (it keys every per-actor table).

  async insertThreads(em: EntityManager, actor: string, rows: ReadonlyArray<Pick<Thread, 'conversationId' | 'name' | 'systemPrompt' | 'createdAt' | 'updatedAt'>>): Promise<void> {
    await this.insertChunked(em, Thread, rows.map((r) => ({ ...r, actor })));
  }

  async insertMessages(em: EntityManager, actor: string, rows: readonly MessageRow[]): Promise<void> {
    const full = rows.map((r) => ({ ...r, actor, leaseUntil: null, cancelRequestedAt: null }));
    await this.insertChunked(em, Message, full);
  }

  async insertSummaries(em: EntityManager, actor: string, rows: ReadonlyArray<Omit<Summary, 'actor'>>): Promise<void> {
    await this.insertChunked(em, Summary, rows.map((r) => ({ ...r, actor })));
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

  private async insertChunked<T extends object>(em: EntityManager, entity: new () => T, rows: readonly object[]): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      // The rows are complete entities; TypeORM's deep-partial type cannot follow their JSON columns.
      await em.createQueryBuilder().insert().into(entity).values(chunk as never).updateEntity(false).execute();
    }
  }
}
