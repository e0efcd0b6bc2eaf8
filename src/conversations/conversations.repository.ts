import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Conversation } from './conversation.entity.js';
import { Message, type MessageRole, type MessageStatus } from './message.entity.js';
import type { ConversationCursor } from './conversation-cursor.js';

export interface NewMessage {
  readonly role: MessageRole;
  readonly content: string;
  readonly status?: MessageStatus;
  readonly model?: string | null;
  readonly promptTokens?: number | null;
  readonly completionTokens?: number | null;
  readonly leaseUntil?: Date | null;
}

/** Columns of a message that change after it is appended (a reply as it is generated). */
export type MessageChanges = Partial<
  Pick<
    Message,
    | 'content'
    | 'status'
    | 'model'
    | 'promptTokens'
    | 'completionTokens'
    | 'versions'
    | 'errorStatus'
    | 'errorMessage'
    | 'leaseUntil'
    | 'cancelRequestedAt'
    | 'createdAt'
  >
>;

/**
 * TypeORM access for conversations and messages. Every method takes the EntityManager of
 * the unit of work it belongs to, and every read that a caller could aim at another
 * actor's data filters on the actor in the query itself.
 */
@Injectable()
export class ConversationsRepository {
  async insertConversation(em: EntityManager, actor: string, title: string, now: Date): Promise<Conversation> {
    const conversation = em.create(Conversation, {
      id: randomUUID(),
      actor,
      title,
      lastSeq: 0,
      createdAt: now,
      updatedAt: now,
    });
    await em.insert(Conversation, conversation);
    return conversation;
  }

  findOwned(em: EntityManager, actor: string, id: string): Promise<Conversation | null> {
    return em.findOne(Conversation, { where: { id, actor } });
  }

  /**
   * Like findOwned, and holds the conversation's row lock until the transaction ends where the
   * database has row locks (on SQLite the unit-of-work queue already serializes writers).
   */
  lockOwned(em: EntityManager, actor: string, id: string): Promise<Conversation | null> {
    const rowLocks = em.connection.options.type === 'postgres';
    return em.findOne(Conversation, { where: { id, actor }, ...(rowLocks ? { lock: { mode: 'pessimistic_write' } } : {}) });
  }

  async exists(em: EntityManager, id: string): Promise<boolean> {
    return (await em.count(Conversation, { where: { id } })) > 0;
  }

  /**
   * Appends a message with the next `seq`. Bumping `last_seq` first makes the update the
   * conversation's write lock for the rest of the transaction, so two appends can never
   * take the same number.
   */
  async appendMessage(em: EntityManager, conversation: Conversation, draft: NewMessage, now: Date): Promise<Message> {
    await em
      .createQueryBuilder()
      .update(Conversation)
      .set({ lastSeq: () => 'last_seq + 1', updatedAt: now })
      .where('id = :id', { id: conversation.id })
      .execute();
    const { lastSeq } = await em.findOneOrFail(Conversation, {
      select: { id: true, lastSeq: true },
      where: { id: conversation.id },
    });
    conversation.lastSeq = lastSeq;
    conversation.updatedAt = now;
    const message = em.create(Message, {
      id: randomUUID(),
      conversationId: conversation.id,
      seq: lastSeq,
      role: draft.role,
      content: draft.content,
      status: draft.status ?? 'complete',
      model: draft.model ?? null,
      promptTokens: draft.promptTokens ?? null,
      completionTokens: draft.completionTokens ?? null,
      versions: null,
      errorStatus: null,
      errorMessage: null,
      leaseUntil: draft.leaseUntil ?? null,
      cancelRequestedAt: null,
      createdAt: now,
    });
    await em.insert(Message, message);
    return message;
  }

  /**
   * The last `limit` complete, non-empty messages before `beforeSeq`, oldest first. Walks the
   * (conversation_id, seq) index backwards, so the cost depends on `limit`, not on how long
   * the conversation is.
   */
  async recentHistory(em: EntityManager, conversationId: string, beforeSeq: number, limit: number): Promise<Message[]> {
    if (limit <= 0) return [];
    const newestFirst = await em
      .createQueryBuilder(Message, 'm')
      .where('m.conversation_id = :conversationId', { conversationId })
      .andWhere('m.seq < :beforeSeq', { beforeSeq })
      .andWhere("m.status = 'complete'")
      .andWhere("m.content <> ''")
      .orderBy('m.seq', 'DESC')
      .limit(limit)
      .getMany();
    return newestFirst.reverse();
  }

  lastMessage(em: EntityManager, conversationId: string): Promise<Message | null> {
    return em.findOne(Message, { where: { conversationId }, order: { seq: 'DESC' } });
  }

  messageAt(em: EntityManager, conversationId: string, seq: number): Promise<Message | null> {
    return em.findOne(Message, { where: { conversationId, seq } });
  }

  findMessage(em: EntityManager, conversationId: string, id: string): Promise<Message | null> {
    return em.findOne(Message, { where: { id, conversationId } });
  }

  /**
   * Changes a message. With `onlyIfNotCancelled`, nothing changes once a stop was requested:
   * the returned false tells the generator to stop.
   */
  async updateMessage(em: EntityManager, id: string, changes: MessageChanges, onlyIfNotCancelled = false): Promise<boolean> {
    const query = em.createQueryBuilder().update(Message).set(changes).where('id = :id', { id });
    if (onlyIfNotCancelled) query.andWhere('cancel_requested_at IS NULL');
    return ((await query.execute()).affected ?? 0) > 0;
  }

  async isCancelRequested(em: EntityManager, id: string): Promise<boolean> {
    const row = await em.findOne(Message, { select: { id: true, cancelRequestedAt: true }, where: { id } });
    return !row || row.cancelRequestedAt !== null;
  }

  /** Replies still marked streaming whose generator stopped renewing its lease. */
  expiredReplies(em: EntityManager, now: Date, limit: number): Promise<Message[]> {
    return em
      .createQueryBuilder(Message, 'm')
      .where("m.status = 'streaming'")
      .andWhere('m.lease_until < :now', { now })
      .limit(limit)
      .getMany();
  }

  async touchConversation(em: EntityManager, id: string, now: Date): Promise<void> {
    await em.update(Conversation, { id }, { updatedAt: now });
  }

  /** The last `limit` messages (any status) before `beforeSeq`, oldest first. */
  async messagesBefore(em: EntityManager, conversationId: string, beforeSeq: number, limit: number): Promise<Message[]> {
    const newestFirst = await em
      .createQueryBuilder(Message, 'm')
      .where('m.conversation_id = :conversationId', { conversationId })
      .andWhere('m.seq < :beforeSeq', { beforeSeq })
      .orderBy('m.seq', 'DESC')
      .limit(limit)
      .getMany();
    return newestFirst.reverse();
  }

  allMessages(em: EntityManager, conversationId: string): Promise<Message[]> {
    return em.find(Message, { where: { conversationId }, order: { seq: 'ASC' } });
  }

  /** One page of the actor's conversations, most recently updated first (keyset pagination). */
  listByActor(em: EntityManager, actor: string, limit: number, after?: ConversationCursor): Promise<Conversation[]> {
    const query = em
      .createQueryBuilder(Conversation, 'c')
      .where('c.actor = :actor', { actor })
      .orderBy('c.updated_at', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .limit(limit);
    if (after) {
      query.andWhere('(c.updated_at < :at OR (c.updated_at = :at AND c.id < :id))', {
        at: after.updatedAt,
        id: after.id,
      });
    }
    return query.getMany();
  }

  /** Deletes the actor's conversation (messages go with it by cascade); false when none matched. */
  async deleteOwned(em: EntityManager, actor: string, id: string): Promise<boolean> {
    const result = await em.delete(Conversation, { id, actor });
    return (result.affected ?? 0) > 0;
  }
}
