import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { forUpdate } from '../database/dialect.js';
import { EntityRows } from '../database/sql.js';
import { ConversationTag } from './conversation-tag.entity.js';
import { Conversation, type ConversationState } from './conversation.entity.js';
import type { ConversationCursor } from './conversation-cursor.js';
import { timeOrderedId } from '../common/time-ordered-id.js';

export interface ListFilters {
  readonly archived?: boolean;
  readonly pinned?: boolean;
  readonly tag?: string;
  /** Pinned conversations first, then the others, each most recently updated first. */
  readonly pinnedFirst?: boolean;
}

/**
 * The conversations table and its tags: a conversation's row, its flags and state, the
 * actor's list. Every method takes the EntityManager of the unit of work it belongs to, and
 * every read that a caller could aim at another actor's data filters on the actor in the query
 * itself. Messages are MessagesRepository's, the reply lifecycle's columns ReplyRowsRepository's,
 * threads ThreadsRepository's.
 */
@Injectable()
export class ConversationsRepository {
  async insertConversation(
    em: EntityManager,
    actor: string,
    title: string,
    now: Date,
    extra: {
      agentId?: string | null;
      model?: string | null;
      state?: ConversationState;
      metadata?: Record<string, string> | null;
      memory?: boolean;
    } = {},
  ): Promise<Conversation> {
    const conversation = Object.assign(new Conversation(), {
      id: timeOrderedId(),
      actor,
      title,
      agentId: extra.agentId ?? null,
      model: extra.model ?? null,
      state: extra.state ?? {},
      metadata: extra.metadata ?? null,
      archived: false,
      pinned: false,
      memory: extra.memory ?? true,
      lastSeq: 0,
      createdAt: now,
      updatedAt: now,
    });
    await EntityRows.of(em, Conversation).insert(em, [conversation]);
    return conversation;
  }

  findOwned(em: EntityManager, actor: string, id: string): Promise<Conversation | null> {
    return EntityRows.of(em, Conversation).findOne(em, '"id" = ? AND "actor" = ?', [id, actor]);
  }

  findManyOwned(em: EntityManager, actor: string, ids: readonly string[]): Promise<Conversation[]> {
    return ids.length ? em.find(Conversation, { where: { id: In([...ids]), actor } }) : Promise.resolve([]);
  }

  /**
   * Like findOwned, and holds the conversation's row lock until the transaction ends where the
   * database has row locks (on SQLite the unit-of-work queue already serializes writers).
   */
  lockOwned(em: EntityManager, actor: string, id: string): Promise<Conversation | null> {
    return EntityRows.of(em, Conversation).findOne(em, '"id" = ? AND "actor" = ?', [id, actor], forUpdate(em));
  }

  async exists(em: EntityManager, id: string): Promise<boolean> {
    return (await em.count(Conversation, { where: { id } })) > 0;
  }

  /** Conversations of every actor bound to the agent (an offered agent's may be other actors'). */
  countWithAgent(em: EntityManager, agentId: string): Promise<number> {
    return em.count(Conversation, { where: { agentId } });
  }

  /** Deletes the actor's conversations with the agent, then unbinds everyone else's from it. */
  async deleteOrDetachAgent(em: EntityManager, actor: string, agentId: string, deleteOwn: boolean): Promise<void> {
    if (deleteOwn) await em.delete(Conversation, { agentId, actor });
    await em.update(Conversation, { agentId }, { agentId: null });
  }

  async updateState(em: EntityManager, id: string, state: ConversationState, now: Date): Promise<void> {
    await EntityRows.of(em, Conversation).update(em, { state, updatedAt: now }, '"id" = ?', [id]);
  }

  /** The tags of these conversations, by conversation id (read by id and actor). */
  async tagsOf(
    em: EntityManager,
    conversations: ReadonlyArray<Pick<Conversation, 'id' | 'actor'>>,
  ): Promise<Map<string, string[]>> {
    const tags = new Map<string, string[]>(conversations.map((c) => [c.id, []]));
    if (conversations.length === 0) return tags;
    const actors = [...new Set(conversations.map((c) => c.actor))];
    const rows = await em.find(ConversationTag, {
      where: { conversationId: In([...tags.keys()]), actor: In(actors) },
      order: { tag: 'ASC' },
    });
    for (const row of rows) tags.get(row.conversationId)?.push(row.tag);
    return tags;
  }

  async replaceTags(
    em: EntityManager,
    conversation: Pick<Conversation, 'id' | 'actor'>,
    tags: readonly string[],
  ): Promise<void> {
    const conversationId = conversation.id;
    await em.delete(ConversationTag, { conversationId, actor: conversation.actor });
    if (tags.length)
      await em.insert(
        ConversationTag,
        tags.map((tag) => ({ conversationId, actor: conversation.actor, tag })),
      );
  }

  async updateFlags(
    em: EntityManager,
    id: string,
    changes: { title?: string; archived?: boolean; pinned?: boolean; model?: string | null },
  ): Promise<void> {
    if (Object.keys(changes).length) await em.update(Conversation, { id }, changes);
  }

  /** Sets the title if it is still `from`; false when it is not (renamed meanwhile) or the conversation is gone. */
  async retitleIf(em: EntityManager, actor: string, id: string, from: string, to: string): Promise<boolean> {
    return (
      (await EntityRows.of(em, Conversation).update(em, { title: to }, '"id" = ? AND "actor" = ? AND "title" = ?', [
        id,
        actor,
        from,
      ])) > 0
    );
  }

  async retitle(em: EntityManager, id: string, title: string): Promise<void> {
    await EntityRows.of(em, Conversation).update(em, { title }, '"id" = ?', [id]);
  }

  async touchConversation(em: EntityManager, id: string, now: Date): Promise<void> {
    await EntityRows.of(em, Conversation).update(em, { updatedAt: now }, '"id" = ?', [id]);
  }

  /**
   * One page of the actor's conversations, most recently updated first (keyset pagination), or
   * pinned ones first with `pinnedFirst` (then `after` carries the pinned flag of its row).
   * Filters: `agentId` (null: those without an agent), `archived` (default: not archived),
   * `pinned`, `tag`.
   */
  listByActor(
    em: EntityManager,
    actor: string,
    limit: number,
    after?: ConversationCursor,
    agentId?: string | null,
    filters: ListFilters = {},
  ): Promise<Conversation[]> {
    const query = em
      .createQueryBuilder(Conversation, 'c')
      .where('c.actor = :actor', { actor })
      .andWhere('c.archived = :archived', { archived: filters.archived ?? false })
      .limit(limit);
    if (filters.pinnedFirst) query.orderBy('c.pinned', 'DESC').addOrderBy('c.updated_at', 'DESC');
    else query.orderBy('c.updated_at', 'DESC');
    query.addOrderBy('c.id', 'DESC');
    if (filters.pinned !== undefined) query.andWhere('c.pinned = :pinned', { pinned: filters.pinned });
    if (filters.tag !== undefined) {
      query.andWhere('EXISTS (SELECT 1 FROM conversation_tags t WHERE t.conversation_id = c.id AND t.tag = :tag)', {
        tag: filters.tag,
      });
    }
    if (agentId === null) query.andWhere('c.agent_id IS NULL');
    else if (agentId !== undefined) query.andWhere('c.agent_id = :agentId', { agentId });
    if (after?.pinned !== undefined) {
      // Past a pinned row: the pinned ones after it, then every unpinned one; past an unpinned row: the unpinned ones after it.
      const later = '(c.updated_at, c.id) < (:at, :id)';
      const where = after.pinned
        ? `((c.pinned = :yes AND ${later}) OR c.pinned = :no)`
        : `(c.pinned = :no AND ${later})`;
      query.andWhere(where, { at: after.updatedAt, id: after.id, yes: true, no: false });
    } else if (after) {
      // A row-value comparison, so the (actor, updated_at, id) index seeks straight to the cursor.
      query.andWhere('(c.updated_at, c.id) < (:at, :id)', {
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
