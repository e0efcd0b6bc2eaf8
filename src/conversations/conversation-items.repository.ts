import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EntityRows, sql } from '../database/sql.js';
import { Conversation } from './conversation.entity.js';
import { Message } from './message.entity.js';
import { ResponseRecord, type ResponseRequest } from './response-record.entity.js';

export type SortOrder = 'asc' | 'desc';

/**
 * Reads and writes the OpenAI surface needs on conversations and messages: the active path in
 * either direction from a message, conversations in either order from one, a message found by
 * id alone (for its owner only), removing one message from the tree, and response records.
 */
@Injectable()
export class ConversationItemsRepository {
  /**
   * Up to `limit` messages of a thread's active path, in `order` of seq, starting at `fromSeq`
   * (inclusive) when given. Walks the path's partial index.
   */
  async pathRows(
    em: EntityManager,
    conversationId: string,
    thread: string,
    order: SortOrder,
    limit: number,
    fromSeq?: number,
  ): Promise<Message[]> {
    const rows = EntityRows.of(em, Message);
    const bound = fromSeq === undefined ? '' : order === 'desc' ? ' AND "seq" <= ?' : ' AND "seq" >= ?';
    const params = fromSeq === undefined ? [conversationId, thread, limit] : [conversationId, thread, fromSeq, limit];
    return rows.find(
      em,
      `"conversation_id" = ? AND "thread" = ? AND "on_path" = 1${bound}`,
      params,
      `ORDER BY "seq" ${order === 'desc' ? 'DESC' : 'ASC'} LIMIT ?`,
    );
  }

  /** The actor's message with this id, in whichever of the actor's conversations holds it; null otherwise. */
  async ownedMessage(em: EntityManager, actor: string, messageId: string): Promise<Message | null> {
    const rows = EntityRows.of(em, Message);
    const prefixed = rows.columnList
      .split(', ')
      .map((c) => `m.${c}`)
      .join(', ');
    const { rows: found } = await sql<Record<string, unknown>>(
      em,
      `SELECT ${prefixed} FROM "messages" m JOIN "conversations" c ON c."id" = m."conversation_id" WHERE m."id" = ? AND c."actor" = ?`,
      [messageId, actor],
    );
    return found.length ? rows.hydrate(found[0]) : null;
  }

  /**
   * Up to `limit` of the actor's conversations by (updated_at, id) in `order`, strictly after
   * `after` in that order when given: the index of the REST listing, read either way.
   */
  listByActor(
    em: EntityManager,
    actor: string,
    order: SortOrder,
    limit: number,
    after?: Pick<Conversation, 'updatedAt' | 'id'>,
  ): Promise<Conversation[]> {
    const direction = order === 'desc' ? 'DESC' : 'ASC';
    const query = em
      .createQueryBuilder(Conversation, 'c')
      .where('c.actor = :actor', { actor })
      .orderBy('c.updated_at', direction)
      .addOrderBy('c.id', direction)
      .limit(limit);
    if (after)
      query.andWhere(`(c.updated_at, c.id) ${order === 'desc' ? '<' : '>'} (:at, :id)`, {
        at: after.updatedAt,
        id: after.id,
      });
    return query.getMany();
  }

  async updateMetadata(em: EntityManager, id: string, metadata: Record<string, string> | null): Promise<void> {
    await EntityRows.of(em, Conversation).update(em, { metadata }, '"id" = ?', [id]);
  }

  /** Removes a message from its tree: its children follow its parent instead, so no branch is cut off. */
  async removeMessage(em: EntityManager, message: Message): Promise<void> {
    await sql(em, 'UPDATE "messages" SET "parent_id" = ? WHERE "conversation_id" = ? AND "parent_id" = ?', [
      message.parentId,
      message.conversationId,
      message.id,
    ]);
    await sql(em, 'DELETE FROM "messages" WHERE "id" = ?', [message.id]);
  }

  async insertResponseRecord(
    em: EntityManager,
    actor: string,
    messageId: string,
    request: ResponseRequest,
    now: Date,
  ): Promise<void> {
    const record = Object.assign(new ResponseRecord(), { messageId, actor, request, createdAt: now });
    await EntityRows.of(em, ResponseRecord).insert(em, [record]);
  }

  /** The messages of a conversation's thread with fromSeq <= seq < toSeq, oldest first (a turn's input, stored in one run). */
  seqRange(
    em: EntityManager,
    conversationId: string,
    thread: string,
    fromSeq: number,
    toSeq: number,
  ): Promise<Message[]> {
    return EntityRows.of(em, Message).find(
      em,
      '"conversation_id" = ? AND "thread" = ? AND "seq" >= ? AND "seq" < ?',
      [conversationId, thread, fromSeq, toSeq],
      'ORDER BY "seq"',
    );
  }

  findResponseRecord(em: EntityManager, messageId: string): Promise<ResponseRecord | null> {
    return EntityRows.of(em, ResponseRecord).findOne(em, '"message_id" = ?', [messageId]);
  }
}
