import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EntityRows, sql } from '../database/sql.js';
import { Message, type MessageRole } from './message.entity.js';

/** A sibling as a page needs it: where it is in the tree, not what it says. */
type SiblingRow = Pick<Message, 'id' | 'parentId' | 'thread' | 'role' | 'seq' | 'createdAt'>;

/** How many ids one statement names (SQLite binds at most 32,766 parameters). */
const IDS_PER_STATEMENT = 500;

/**
 * The tree of a conversation's messages: each message has a parent, and each thread an active
 * path (`on_path`), the branch its turns continue and the model is sent. Switching branches
 * rewrites only the two branches below their fork point, never the rest of the tree; reading
 * the path walks a partial index of the path alone.
 */
@Injectable()
export class MessageTreeRepository {
  /** Takes the thread's path below `seq` off the active path (0: the whole thread's path). */
  async leavePathBelow(em: EntityManager, conversationId: string, thread: string, seq: number): Promise<void> {
    await sql(
      em,
      'UPDATE "messages" SET "on_path" = 0 WHERE "conversation_id" = ? AND "thread" = ? AND "on_path" = 1 AND "seq" > ?',
      [conversationId, thread, seq],
    );
  }

  /**
   * Makes `target`'s branch the thread's active path: its ancestors up to where they meet the
   * current path (the fork point), `target`, and with `down` its newest descendants to a leaf.
   * What the current path held below the fork point (below `target` with `down`) leaves it.
   * Without `down`, a target already on the path leaves the path as it is. Returns the new leaf
   * (`target` without `down`).
   */
  async activate(em: EntityManager, target: Message, down: boolean): Promise<string> {
    // Up from the target while off the path: the rows to put on it, and the fork point (the first one on it).
    const { rows: up } = await sql<{ id: string; seq: number; on_path: number }>(
      em,
      `WITH RECURSIVE up("id", "parent_id", "seq", "on_path") AS (
         SELECT "id", "parent_id", "seq", "on_path" FROM "messages" WHERE "conversation_id" = ? AND "id" = ?
         UNION ALL
         SELECT m."id", m."parent_id", m."seq", m."on_path" FROM "messages" m JOIN up ON m."id" = up."parent_id"
          WHERE up."on_path" = 0 AND m."conversation_id" = ?)
       SELECT "id", "seq", "on_path" FROM up`,
      [target.conversationId, target.id, target.conversationId],
    );
    const fork = up.find((r) => Number(r.on_path) === 1);
    const branch = up.filter((r) => Number(r.on_path) === 0).map((r) => r.id);
    const below = down ? await this.newestDescendants(em, target) : [];
    if (branch.length === 0 && !down) return target.id;
    // The path below the fork point (the whole thread's when the branch has a root of its own) leaves...
    await this.leavePathBelow(em, target.conversationId, target.thread, fork ? Number(fork.seq) : 0);
    // ...and the branch takes its place.
    const ids = [...branch, ...below];
    for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
      const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
      await sql(
        em,
        `UPDATE "messages" SET "on_path" = 1 WHERE "conversation_id" = ? AND "id" IN (${chunk.map(() => '?').join(', ')})`,
        [target.conversationId, ...chunk],
      );
    }
    target.onPath = true;
    return below.at(-1) ?? target.id;
  }

  /** Below `from`, the newest child at each step down to a leaf (oldest first; `from` not included). */
  private async newestDescendants(em: EntityManager, from: Message): Promise<string[]> {
    const { rows } = await sql<{ id: string | null; depth: number }>(
      em,
      `WITH RECURSIVE down("id", "depth") AS (
         SELECT CAST(? AS varchar(36)), 0
         UNION ALL
         SELECT (SELECT c."id" FROM "messages" c WHERE c."conversation_id" = ? AND c."parent_id" = down."id"
                  ORDER BY c."created_at" DESC, c."seq" DESC LIMIT 1), down."depth" + 1
           FROM down WHERE down."id" IS NOT NULL)
       SELECT "id", "depth" FROM down WHERE "id" IS NOT NULL AND "depth" > 0 ORDER BY "depth"`,
      [from.id, from.conversationId],
    );
    return rows.map((r) => r.id as string);
  }

  /**
   * Each message's siblings (itself included: the children of its parent, or the roots of its
   * thread), oldest first, as light rows (no content). One query for the children of every
   * parent named, one for the roots.
   */
  async siblingsOf(
    em: EntityManager,
    conversationId: string,
    messages: readonly Message[],
  ): Promise<Map<string, SiblingRow[]>> {
    const parents = [...new Set(messages.map((m) => m.parentId).filter((p): p is string => p !== null))];
    const rootThreads = [...new Set(messages.filter((m) => m.parentId === null).map((m) => m.thread))];
    const columns = 'SELECT "id", "parent_id", "thread", "role", "seq", "created_at" FROM "messages"';
    const found: SiblingRow[] = [];
    const collect = async (where: string, params: unknown[]) => {
      const { rows } = await sql<{
        id: string;
        parent_id: string | null;
        thread: string;
        role: MessageRole;
        seq: number;
        created_at: unknown;
      }>(em, `${columns} WHERE ${where}`, params);
      const entity = EntityRows.of(em, Message);
      for (const r of rows) {
        found.push({
          id: r.id,
          parentId: r.parent_id,
          thread: r.thread,
          role: r.role,
          seq: Number(r.seq),
          createdAt: entity.read('createdAt', r.created_at) as Date,
        });
      }
    };
    for (let i = 0; i < parents.length; i += IDS_PER_STATEMENT) {
      const chunk = parents.slice(i, i + IDS_PER_STATEMENT);
      await collect(`"conversation_id" = ? AND "parent_id" IN (${chunk.map(() => '?').join(', ')})`, [
        conversationId,
        ...chunk,
      ]);
    }
    if (rootThreads.length > 0) {
      await collect(
        `"conversation_id" = ? AND "parent_id" IS NULL AND "thread" IN (${rootThreads.map(() => '?').join(', ')})`,
        [conversationId, ...rootThreads],
      );
    }
    const byFamily = new Map<string, SiblingRow[]>();
    const family = (m: Pick<Message, 'parentId' | 'thread'>) => m.parentId ?? `root:${m.thread}`;
    for (const m of found) {
      const list = byFamily.get(family(m));
      if (list) list.push(m);
      else byFamily.set(family(m), [m]);
    }
    for (const list of byFamily.values())
      list.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.seq - b.seq);
    return new Map(messages.map((m) => [m.id, byFamily.get(family(m)) ?? [m]]));
  }

  /**
   * `leaf` and its ancestors, oldest first: the branch that ends at it (the active path, for an
   * active leaf). One recursive query up the parent links, whatever else the tree holds.
   */
  async branchTo(em: EntityManager, leaf: Message): Promise<Message[]> {
    const { rows } = await sql<{ id: string }>(
      em,
      `WITH RECURSIVE up("id", "parent_id") AS (
         SELECT "id", "parent_id" FROM "messages" WHERE "conversation_id" = ? AND "id" = ?
         UNION ALL
         SELECT m."id", m."parent_id" FROM "messages" m JOIN up ON m."id" = up."parent_id" WHERE m."conversation_id" = ?)
       SELECT "id" FROM up`,
      [leaf.conversationId, leaf.id, leaf.conversationId],
    );
    const found = await this.messagesById(
      em,
      leaf.conversationId,
      rows.map((r) => r.id),
    );
    return found.sort((a, b) => a.seq - b.seq);
  }

  /** Whole messages by id (the other answers a page shows as `versions`). */
  async messagesById(em: EntityManager, conversationId: string, ids: readonly string[]): Promise<Message[]> {
    const out: Message[] = [];
    for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
      const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
      out.push(
        ...(await EntityRows.of(em, Message).find(
          em,
          `"conversation_id" = ? AND "id" IN (${chunk.map(() => '?').join(', ')})`,
          [conversationId, ...chunk],
        )),
      );
    }
    return out;
  }

  /** A page of every message of the tree (any branch), newest first by seq before `beforeSeq`; returned oldest first. */
  async treePage(
    em: EntityManager,
    conversationId: string,
    beforeSeq: number | undefined,
    limit: number,
    thread?: string,
  ): Promise<Message[]> {
    const where = ['"conversation_id" = ?'];
    const params: unknown[] = [conversationId];
    if (beforeSeq !== undefined) {
      where.push('"seq" < ?');
      params.push(beforeSeq);
    }
    if (thread) {
      where.push('"thread" = ?');
      params.push(thread);
    }
    const newest = await EntityRows.of(em, Message).find(
      em,
      where.join(' AND '),
      [...params, limit],
      'ORDER BY "seq" DESC LIMIT ?',
    );
    return newest.reverse();
  }
}
