import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { forUpdate, isPostgres } from '../database/dialect.js';
import { EntityRows, sql } from '../database/sql.js';
import { ConversationTag } from './conversation-tag.entity.js';
import { Conversation, type ConversationState } from './conversation.entity.js';
import { Message, REPLAYED_STATUSES_SQL, type FunctionCallRecord, type MessageRole, type MessageStatus } from './message.entity.js';
import { MAIN_THREAD, Thread } from './thread.entity.js';
import type { ConversationCursor } from './conversation-cursor.js';

export interface ListFilters {
  readonly archived?: boolean;
  readonly pinned?: boolean;
  readonly tag?: string;
  /** Pinned conversations first, then the others, each most recently updated first. */
  readonly pinnedFirst?: boolean;
}

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

/** A row of RECENT_HISTORY_SQL or PINNED_ON_PATH_SQL. */
export interface ReplayedRow {
  readonly seq: number;
  readonly role: MessageRole;
  readonly content: string;
  readonly tokens: number | null;
  readonly function_calls: string | null;
  readonly call_id: string | null;
}

/** A thread's replayable messages before a seq (and after one), newest first; parameters: conversation, thread, before, after; then a LIMIT. */
export const RECENT_HISTORY_SQL = `SELECT "seq", "role", "content", "tokens", "function_calls", "call_id" FROM "messages"
  WHERE "conversation_id" = ? AND "thread" = ? AND "on_path" = 1 AND "seq" < ? AND "seq" > ? AND "status" IN ${REPLAYED_STATUSES_SQL} AND ("content" <> '' OR "function_calls" IS NOT NULL)
  ORDER BY "seq" DESC`;

/** The pinned messages of a thread's active path before a seq, oldest first; parameters: conversation, thread, before; then a LIMIT. */
export const PINNED_ON_PATH_SQL = `SELECT "seq", "role", "content", "tokens", NULL AS "function_calls", NULL AS "call_id" FROM "messages"
  WHERE "conversation_id" = ? AND "thread" = ? AND "pinned" = 1 AND "on_path" = 1 AND "seq" < ? AND "status" IN ${REPLAYED_STATUSES_SQL} AND "content" <> ''
  ORDER BY "seq"`;

/** A replayed message from its row (its function calls as the entity holds them). */
export function replayedOf(messages: EntityRows<Message>, r: ReplayedRow): ReplayedMessage {
  return {
    seq: r.seq,
    role: r.role,
    content: r.content,
    tokens: r.tokens,
    functionCalls: r.function_calls === null ? null : (messages.read('functionCalls', r.function_calls) as Message['functionCalls']),
    callId: r.call_id,
  };
}

/** Columns of a message that change after it is appended (a reply as it is generated). */
/** A progress save of a reply being generated: its text so far (undefined: unchanged), and whether its lease is renewed. */
export interface ProgressSave {
  readonly id: string;
  readonly content?: string;
  readonly renewLease: boolean;
}

export type MessageChanges = Partial<
  Pick<
    Message,
    | 'content'
    | 'status'
    | 'model'
    | 'promptTokens'
    | 'completionTokens'
    | 'versions'
    | 'errorCode'
    | 'errorMessage'
    | 'leaseUntil'
    | 'cancelRequestedAt'
    | 'toolCalls'
    | 'tokens'
    | 'createdAt'
    | 'functionCalls'
    | 'memoryIds'
    | 'recalledMessageIds'
    | 'pinned'
  >
>;

/**
 * Database access for conversations and messages. Every method takes the EntityManager of
 * the unit of work it belongs to, and every read that a caller could aim at another
 * actor's data filters on the actor in the query itself. The statements of a chat turn are
 * constant SQL with bound parameters (database/sql.ts); the rest uses TypeORM's builders.
 */
@Injectable()
export class ConversationsRepository {
  async insertConversation(
    em: EntityManager,
    actor: string,
    title: string,
    now: Date,
    extra: { agentId?: string | null; state?: ConversationState; metadata?: Record<string, string> | null; memory?: boolean } = {},
  ): Promise<Conversation> {
    const conversation = Object.assign(new Conversation(), {
      id: randomUUID(),
      actor,
      title,
      agentId: extra.agentId ?? null,
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

  /**
   * Appends messages with the next `seq` numbers, in order. Bumping `last_seq` first makes the
   * update the conversation's write lock for the rest of the transaction, so two appends can
   * never take the same number.
   */
  async appendMessages(em: EntityManager, conversation: Conversation, drafts: readonly NewMessage[], now: Date): Promise<Message[]> {
    const conversations = EntityRows.of(em, Conversation);
    const bump = 'UPDATE "conversations" SET "last_seq" = "last_seq" + ?, "updated_at" = ? WHERE "id" = ? RETURNING "last_seq"';
    const bumpParams = [drafts.length, conversations.value('updatedAt', now), conversation.id];
    if (isPostgres(em) && drafts.length > 0) {
      // One round trip: the bump is a CTE, and each row's seq is counted back from the last_seq it returns.
      const messages = this.messagesOf(conversation, drafts, now, 0);
      const rows = EntityRows.of(em, Message);
      const seq = rows.column('seq');
      const insert = rows.insertStatement(messages, { seq: (i) => `(SELECT "last_seq" FROM bump) - ${drafts.length - 1 - i}` });
      const { rows: stored } = await sql<{ id: string; seq: number }>(em, `WITH bump AS (${bump}) ${insert.text} RETURNING "id", "${seq}"`, [...bumpParams, ...insert.params]);
      // No conversation row: seq is NULL and the INSERT fails on NOT NULL; checked again all the same.
      if (stored.length !== drafts.length) throw new Error(`Conversation ${conversation.id} vanished inside its own transaction`);
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
  private messagesOf(conversation: Conversation, drafts: readonly NewMessage[], now: Date, firstSeq: number): Message[] {
    return drafts.map((draft, i) =>
      Object.assign(new Message(), {
        id: draft.id ?? randomUUID(),
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
  async recentHistory(em: EntityManager, conversationId: string, thread: string, beforeSeq: number, limit: number, afterSeq = 0): Promise<ReplayedMessage[]> {
    if (limit <= 0 || beforeSeq - 1 <= afterSeq) return [];
    // Only the columns the context needs: each column of each row is a JS value to build, and this runs every turn.
    const { rows } = await sql<ReplayedRow>(em, `${RECENT_HISTORY_SQL} LIMIT ?`, [conversationId, thread, beforeSeq, afterSeq, limit]);
    const messages = EntityRows.of(em, Message);
    return rows.reverse().map((r) => replayedOf(messages, r));
  }

  /** The active leaf of a thread: the last message of its active path (of every thread's when none is named). */
  lastMessage(em: EntityManager, conversationId: string, thread?: string): Promise<Message | null> {
    const messages = EntityRows.of(em, Message);
    return thread
      ? messages.findOne(em, '"conversation_id" = ? AND "thread" = ? AND "on_path" = 1', [conversationId, thread], 'ORDER BY "seq" DESC LIMIT 1')
      : messages.findOne(em, '"conversation_id" = ? AND "on_path" = 1', [conversationId], 'ORDER BY "seq" DESC LIMIT 1');
  }

  /**
   * The thread row, created when first used; `systemPrompt` (when given) replaces the thread's
   * own. `known`: the row (or null: none) as already read in this transaction.
   */
  async upsertThread(
    em: EntityManager,
    conversation: Pick<Conversation, 'id' | 'actor'>,
    name: string,
    requestedPrompt: string | undefined,
    now: Date,
    known?: Thread | null,
  ): Promise<Thread> {
    const conversationId = conversation.id;
    // A blank prompt clears the thread's own instructions.
    const systemPrompt = requestedPrompt === undefined ? undefined : requestedPrompt.trim() === '' ? null : requestedPrompt;
    const threads = EntityRows.of(em, Thread);
    const existing = known === undefined ? await this.findThread(em, conversationId, name) : known;
    if (!existing) {
      const thread = Object.assign(new Thread(), { conversationId, actor: conversation.actor, name, systemPrompt: systemPrompt ?? null, createdAt: now, updatedAt: now });
      await threads.insert(em, [thread]);
      return thread;
    }
    // Written only when the request changes the thread's prompt: a turn must not rewrite the row.
    if (systemPrompt === undefined) return existing;
    const changes = { updatedAt: now, systemPrompt };
    await threads.update(em, changes, '"conversation_id" = ? AND "name" = ?', [conversationId, name]);
    return Object.assign(existing, changes);
  }

  /** Replayable messages of a thread with afterSeq < seq < beforeSeq, oldest first, at most `limit`. */
  replayableBetween(em: EntityManager, conversationId: string, thread: string, afterSeq: number, beforeSeq: number, limit: number): Promise<Message[]> {
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

  /** Token totals of a conversation's replies. */
  async usageTotals(em: EntityManager, conversationId: string): Promise<{ promptTokens: number; completionTokens: number }> {
    const row = await em
      .createQueryBuilder(Message, 'm')
      .select('COALESCE(SUM(m.prompt_tokens), 0)', 'promptTokens')
      .addSelect('COALESCE(SUM(m.completion_tokens), 0)', 'completionTokens')
      .where('m.conversation_id = :conversationId', { conversationId })
      .getRawOne<{ promptTokens: string | number; completionTokens: string | number }>();
    return { promptTokens: Number(row?.promptTokens ?? 0), completionTokens: Number(row?.completionTokens ?? 0) };
  }

  findThread(em: EntityManager, conversationId: string, name: string): Promise<Thread | null> {
    return EntityRows.of(em, Thread).findOne(em, '"conversation_id" = ? AND "name" = ?', [conversationId, name]);
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

  listThreads(em: EntityManager, conversationId: string): Promise<Thread[]> {
    return em.find(Thread, { where: { conversationId }, order: { createdAt: 'ASC', name: 'ASC' } });
  }

  async updateState(em: EntityManager, id: string, state: ConversationState, now: Date): Promise<void> {
    await EntityRows.of(em, Conversation).update(em, { state, updatedAt: now }, '"id" = ?', [id]);
  }

  messageAt(em: EntityManager, conversationId: string, seq: number): Promise<Message | null> {
    return EntityRows.of(em, Message).findOne(em, '"conversation_id" = ? AND "seq" = ?', [conversationId, seq]);
  }

  findMessage(em: EntityManager, conversationId: string, id: string): Promise<Message | null> {
    return EntityRows.of(em, Message).findOne(em, '"id" = ? AND "conversation_id" = ?', [id, conversationId]);
  }

  /**
   * Changes a message. With `onlyIfNotCancelled`, nothing changes once a stop was requested:
   * the returned false tells the generator to stop.
   */
  async updateMessage(em: EntityManager, id: string, changes: MessageChanges, onlyIfNotCancelled = false): Promise<boolean> {
    const where = onlyIfNotCancelled ? '"id" = ? AND "cancel_requested_at" IS NULL' : '"id" = ?';
    return (await EntityRows.of(em, Message).update(em, changes, where, [id])) > 0;
  }

  /**
   * Stores how a reply ended (false: no such message). On PostgreSQL the same statement
   * NOTIFYs `channel` of it, delivered on commit: one round trip where a NOTIFY of its own is two.
   */
  async finishMessage(em: EntityManager, id: string, changes: MessageChanges, channel: string): Promise<boolean> {
    return (await EntityRows.of(em, Message).update(em, changes, '"id" = ?', [id], channel)) > 0;
  }

  /**
   * Saves the text generated so far (`content`; undefined: unchanged) of several replies at
   * once, and renews the lease of those whose `renewLease` is set, each unless a stop was
   * requested for it; returns the ids saved. On PostgreSQL it is one statement, which also
   * notifies `channel` of each id saved (delivered on commit).
   */
  async saveProgress(em: EntityManager, saves: readonly ProgressSave[], leaseUntil: Date, channel: string): Promise<Set<string>> {
    const rows = EntityRows.of(em, Message);
    const lease = rows.value('leaseUntil', leaseUntil);
    if (isPostgres(em)) {
      const result = await sql<{ id: string }>(
        em,
        'WITH saved AS (UPDATE "messages" AS m SET "content" = COALESCE(v.content, m."content"), ' +
          '"lease_until" = CASE WHEN v.renew THEN ?::timestamp ELSE m."lease_until" END ' +
          'FROM unnest(?::varchar[], ?::text[], ?::boolean[]) AS v(id, content, renew) WHERE m."id" = v.id AND m."cancel_requested_at" IS NULL RETURNING m."id") ' +
          'SELECT "id", pg_notify(?, "id") FROM saved',
        [lease, saves.map((s) => s.id), saves.map((s) => s.content ?? null), saves.map((s) => s.renewLease), channel],
      );
      return new Set(result.rows.map((r) => r.id));
    }
    // SQLite: a statement a reply, each prepared once (one statement for all, as VALUES or a JSON array, was slower).
    const saved = new Set<string>();
    for (const save of saves) {
      const [statement, params] = sqliteSave(save, lease);
      if ((await sql(em, statement, params)).affected > 0) saved.add(save.id);
    }
    return saved;
  }

  /** Messages by id, each with the actor owning its conversation: many followers' reads in one statement. */
  async messagesWithOwners(em: EntityManager, ids: readonly string[]): Promise<Array<{ message: Message; actor: string }>> {
    const rows = EntityRows.of(em, Message);
    const columns = rows.columnList
      .split(', ')
      .map((c) => `m.${c}`)
      .join(', ');
    const postgres = isPostgres(em);
    const { rows: found } = await sql<Record<string, unknown>>(
      em,
      `SELECT ${columns}, c."actor" AS "owner_actor" FROM "messages" m JOIN "conversations" c ON c."id" = m."conversation_id" ` +
        `WHERE m."id" ${postgres ? '= ANY(?::varchar[])' : 'IN (SELECT value FROM json_each(?))'}`,
      [postgres ? [...ids] : JSON.stringify(ids)],
    );
    return found.map((row) => ({ message: rows.hydrate(row), actor: String(row.owner_actor) }));
  }

  /** Of these replies, the ones a stop was requested for (or that are gone). */
  async cancelRequested(em: EntityManager, ids: readonly string[]): Promise<Set<string>> {
    const { rows } = isPostgres(em)
      ? await sql<{ id: string }>(em, 'SELECT "id" FROM "messages" WHERE "id" = ANY(?::varchar[]) AND "cancel_requested_at" IS NULL', [[...ids]])
      : await sql<{ id: string }>(em, 'SELECT "id" FROM "messages" WHERE "id" IN (SELECT value FROM json_each(?)) AND "cancel_requested_at" IS NULL', [JSON.stringify(ids)]);
    const going = new Set(rows.map((r) => r.id));
    return new Set(ids.filter((id) => !going.has(id)));
  }

  /** The status and lease of a reply, by id alone (its caller recorded the id, not the owner). */
  replyLease(em: EntityManager, id: string): Promise<Pick<Message, 'id' | 'status' | 'leaseUntil'> | null> {
    return em.findOne(Message, { select: { id: true, status: true, leaseUntil: true }, where: { id } });
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

  /** The tags of these conversations, by conversation id. */
  async tagsOf(em: EntityManager, conversationIds: readonly string[]): Promise<Map<string, string[]>> {
    const tags = new Map<string, string[]>(conversationIds.map((id) => [id, []]));
    if (conversationIds.length === 0) return tags;
    const rows = await em.find(ConversationTag, { where: { conversationId: In([...conversationIds]) }, order: { tag: 'ASC' } });
    for (const row of rows) tags.get(row.conversationId)?.push(row.tag);
    return tags;
  }

  async replaceTags(em: EntityManager, conversation: Pick<Conversation, 'id' | 'actor'>, tags: readonly string[]): Promise<void> {
    const conversationId = conversation.id;
    await em.delete(ConversationTag, { conversationId });
    if (tags.length) await em.insert(ConversationTag, tags.map((tag) => ({ conversationId, actor: conversation.actor, tag })));
  }

  async updateFlags(em: EntityManager, id: string, changes: { title?: string; archived?: boolean; pinned?: boolean }): Promise<void> {
    if (Object.keys(changes).length) await em.update(Conversation, { id }, changes);
  }

  async retitle(em: EntityManager, id: string, title: string): Promise<void> {
    await EntityRows.of(em, Conversation).update(em, { title }, '"id" = ?', [id]);
  }

  async touchConversation(em: EntityManager, id: string, now: Date): Promise<void> {
    await EntityRows.of(em, Conversation).update(em, { updatedAt: now }, '"id" = ?', [id]);
  }

  /**
   * The last `limit` messages (any status) of the active path before `beforeSeq` (all when
   * undefined), oldest first; one thread's when named.
   */
  async messagesBefore(em: EntityManager, conversationId: string, beforeSeq: number | undefined, limit: number, thread?: string): Promise<Message[]> {
    const query = em.createQueryBuilder(Message, 'm').where('m.conversation_id = :conversationId', { conversationId }).andWhere('m.on_path = 1');
    if (beforeSeq !== undefined) query.andWhere('m.seq < :beforeSeq', { beforeSeq });
    if (thread) query.andWhere('m.thread = :thread', { thread });
    const newestFirst = await query
      .orderBy('m.seq', 'DESC')
      .limit(limit)
      .getMany();
    return newestFirst.reverse();
  }

  allMessages(em: EntityManager, conversationId: string, thread?: string): Promise<Message[]> {
    return em.find(Message, { where: { conversationId, ...(thread ? { thread } : {}) }, order: { seq: 'ASC' } });
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
      query.andWhere('EXISTS (SELECT 1 FROM conversation_tags t WHERE t.conversation_id = c.id AND t.tag = :tag)', { tag: filters.tag });
    }
    if (agentId === null) query.andWhere('c.agent_id IS NULL');
    else if (agentId !== undefined) query.andWhere('c.agent_id = :agentId', { agentId });
    if (after?.pinned !== undefined) {
      // Past a pinned row: the pinned ones after it, then every unpinned one; past an unpinned row: the unpinned ones after it.
      const later = '(c.updated_at, c.id) < (:at, :id)';
      const where = after.pinned ? `((c.pinned = :yes AND ${later}) OR c.pinned = :no)` : `(c.pinned = :no AND ${later})`;
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

/** The SQLite statement of one progress save: the text, the lease, or both. */
function sqliteSave(save: ProgressSave, lease: unknown): [string, unknown[]] {
  const where = ' WHERE "id" = ? AND "cancel_requested_at" IS NULL';
  if (save.content === undefined) return [`UPDATE "messages" SET "lease_until" = ?${where}`, [lease, save.id]];
  if (!save.renewLease) return [`UPDATE "messages" SET "content" = ?${where}`, [save.content, save.id]];
  return [`UPDATE "messages" SET "content" = ?, "lease_until" = ?${where}`, [save.content, lease, save.id]];
}
