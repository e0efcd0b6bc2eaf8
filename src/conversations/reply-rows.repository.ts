import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isPostgres } from '../database/dialect.js';
import { EntityRows, sql } from '../database/sql.js';
import { Message } from './message.entity.js';
import type { ProgressSave } from './progress-save.js';

/** A progress save of a reply being generated: its text so far (undefined: unchanged), and whether its lease is renewed. */

/** Columns of a message that change after it is appended (a reply as it is generated). */
type MessageChanges = Partial<
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
    | 'reasoning'
    | 'reasoningMs'
    | 'tokens'
    | 'createdAt'
    | 'functionCalls'
    | 'memoryIds'
    | 'recalledMessageIds'
    | 'pinned'
  >
>;

/**
 * The columns of a reply's lifecycle on `messages`: its progress, lease, cancellation and end,
 * and the reads of followers and of the janitor. Replies are found by id alone: their callers
 * recorded the id of a reply they started or follow.
 */
@Injectable()
export class ReplyRowsRepository {
  /**
   * Changes a message. With `onlyIfNotCancelled`, nothing changes once a stop was requested:
   * the returned false tells the generator to stop.
   */
  async updateMessage(
    em: EntityManager,
    id: string,
    changes: MessageChanges,
    onlyIfNotCancelled = false,
  ): Promise<boolean> {
    const where = onlyIfNotCancelled ? '"id" = ? AND "cancel_requested_at" IS NULL' : '"id" = ?';
    return (await EntityRows.of(em, Message).update(em, changes, where, [id])) > 0;
  }

  /**
   * Stores how a reply ended (false: no such message). On PostgreSQL the same statement
   * NOTIFYs `channel` of it, delivered on commit: one round trip where a NOTIFY of its own is two.
   */
  async finishMessage(
    em: EntityManager,
    actor: string,
    id: string,
    changes: MessageChanges,
    channel: string,
  ): Promise<boolean> {
    return (await EntityRows.of(em, Message).update(em, changes, '"id" = ? AND "actor" = ?', [id, actor], channel)) > 0;
  }

  /**
   * Saves the text generated so far (`content`; undefined: unchanged) of several replies at
   * once, and renews the lease of those whose `renewLease` is set, each unless a stop was
   * requested for it; returns the ids saved. On PostgreSQL it is one statement, which also
   * notifies `channel` of each id saved (delivered on commit).
   */
  async saveProgress(
    em: EntityManager,
    saves: readonly ProgressSave[],
    leaseUntil: Date,
    channel: string,
  ): Promise<Set<string>> {
    const rows = EntityRows.of(em, Message);
    const lease = rows.value('leaseUntil', leaseUntil);
    if (isPostgres(em)) {
      const result = await sql<{ id: string }>(
        em,
        'WITH saved AS (UPDATE "messages" AS m SET "content" = COALESCE(v.content, m."content"), ' +
          '"lease_until" = CASE WHEN v.renew THEN ?::timestamp ELSE m."lease_until" END ' +
          'FROM unnest(?::varchar[], ?::varchar[], ?::text[], ?::boolean[]) AS v(id, actor, content, renew) ' +
          'WHERE m."id" = v.id AND m."actor" = v.actor AND m."cancel_requested_at" IS NULL RETURNING m."id") ' +
          'SELECT "id", pg_notify(?, "id") FROM saved',
        [
          lease,
          saves.map((s) => s.id),
          saves.map((s) => s.actor),
          saves.map((s) => s.content ?? null),
          saves.map((s) => s.renewLease),
          channel,
        ],
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

  /**
   * Messages by id among those of these actors (a message's actor is its conversation's):
   * many followers' reads in one statement. The caller pairs each with the read that asked.
   */
  async messagesOf(em: EntityManager, ids: readonly string[], actors: readonly string[]): Promise<Message[]> {
    const rows = EntityRows.of(em, Message);
    const [ids$, actors$] = isPostgres(em)
      ? ['= ANY(?::varchar[])', '= ANY(?::varchar[])']
      : ['IN (SELECT value FROM json_each(?))', 'IN (SELECT value FROM json_each(?))'];
    const list = (values: readonly string[]) => (isPostgres(em) ? [...values] : JSON.stringify(values));
    const { rows: found } = await sql<Record<string, unknown>>(
      em,
      `SELECT ${rows.columnList} FROM "messages" WHERE "id" ${ids$} AND "actor" ${actors$}`,
      [list(ids), list(actors)],
    );
    return found.map((row) => rows.hydrate(row));
  }

  /** Of these replies (of these actors), the ones a stop was requested for (or that are gone). */
  async cancelRequested(em: EntityManager, ids: readonly string[], actors: readonly string[]): Promise<Set<string>> {
    const { rows } = isPostgres(em)
      ? await sql<{ id: string }>(
          em,
          'SELECT "id" FROM "messages" WHERE "id" = ANY(?::varchar[]) AND "actor" = ANY(?::varchar[]) AND "cancel_requested_at" IS NULL',
          [[...ids], [...actors]],
        )
      : await sql<{ id: string }>(
          em,
          'SELECT "id" FROM "messages" WHERE "id" IN (SELECT value FROM json_each(?)) AND "actor" IN (SELECT value FROM json_each(?)) AND "cancel_requested_at" IS NULL',
          [JSON.stringify(ids), JSON.stringify(actors)],
        );
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
}

/** The SQLite statement of one progress save: the text, the lease, or both. */
function sqliteSave(save: ProgressSave, lease: unknown): [string, unknown[]] {
  const where = ' WHERE "id" = ? AND "actor" = ? AND "cancel_requested_at" IS NULL';
  if (save.content === undefined)
    return [`UPDATE "messages" SET "lease_until" = ?${where}`, [lease, save.id, save.actor]];
  if (!save.renewLease) return [`UPDATE "messages" SET "content" = ?${where}`, [save.content, save.id, save.actor]];
  return [`UPDATE "messages" SET "content" = ?, "lease_until" = ?${where}`, [save.content, lease, save.id, save.actor]];
}
