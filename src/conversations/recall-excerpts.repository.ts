import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isPostgres, storedDate } from '../database/dialect.js';

/** A stored message as recall quotes it. */
export interface ExcerptMessage {
  readonly id: string;
  readonly conversationId: string;
  readonly parentId: string | null;
  readonly role: string;
  readonly content: string;
  readonly onPath: boolean;
  /** The content's tokens as counted when it was stored (null: never counted). */
  readonly tokens: number | null;
}

/** A message recall found, with where it is. */
export interface ExcerptHit extends ExcerptMessage {
  readonly seq: number;
  readonly createdAt: Date;
  readonly conversationTitle: string;
}

/** What recall quotes: the hits found, and every neighbour turn of theirs by id. */
export interface Excerpts {
  readonly hits: ReadonlyMap<string, ExcerptHit>;
  readonly neighbours: ReadonlyMap<string, ExcerptMessage>;
}

const COLUMNS =
  'x.id AS id, x.conversation_id AS "conversationId", x.parent_id AS "parentId", x.role AS role, x.content AS content, x.on_path AS "onPath", x.tokens AS tokens';

type Row = ExcerptMessage & {
  part: number | string;
  seq: number | null;
  createdAt: string | Date | null;
  title: string | null;
  onPath: boolean | number;
};

/**
 * What a turn quotes of the messages recall found: their text, and each one's neighbour turn
 * (the message it follows, and the one on the active path that follows it), the caller's rows
 * only. One statement of three parts, each on an index (the key; the key again; conversation and
 * parent): one part joining them with OR would scan every message.
 */
@Injectable()
export class RecallExcerptsRepository {
  async withNeighbours(em: EntityManager, actor: string, ids: readonly string[]): Promise<Excerpts> {
    if (ids.length === 0) return { hits: new Map(), neighbours: new Map() };
    const pg = isPostgres(em);
    const params: unknown[] = [];
    // Each placeholder its own parameter: SQLite's `?` is positional.
    const p = (value: unknown) => (params.push(value), pg ? `$${params.length}` : '?');
    const owner = () => p(actor);
    const list = () => ids.map(p).join(', ');
    // SQLite's CROSS JOIN keeps the order written: the hits by key first, then their conversations.
    const then = pg ? 'JOIN' : 'CROSS JOIN';
    const hit = () =>
      `SELECT h.id, h.conversation_id, h.parent_id, h.role FROM messages h WHERE h.actor = ${owner()} AND h.id IN (${list()})`;
    const rows: Row[] = await em.query(
      `SELECT 0 AS part, ${COLUMNS}, x.seq AS seq, x.created_at AS "createdAt", c.title AS title
         FROM messages x ${then} conversations c ON c.id = x.conversation_id AND c.actor = x.actor
        WHERE x.actor = ${owner()} AND x.id IN (${list()})
       UNION ALL
       SELECT 1, ${COLUMNS}, NULL, NULL, NULL FROM (${hit()}) h ${then} messages x ON x.id = h.parent_id AND x.actor = ${owner()}
       UNION ALL
       SELECT 2, ${COLUMNS}, NULL, NULL, NULL FROM (${hit()}) h
         ${then} messages x ON x.conversation_id = h.conversation_id AND x.parent_id = h.id AND x.actor = ${owner()} AND x.on_path = 1
        WHERE h.role = 'user'`,
      params,
    );
    const hits = new Map<string, ExcerptHit>();
    const neighbours = new Map<string, ExcerptMessage>();
    for (const r of rows) {
      const message: ExcerptMessage = {
        id: r.id,
        conversationId: r.conversationId,
        parentId: r.parentId,
        role: r.role,
        content: r.content,
        onPath: Number(r.onPath) === 1 || r.onPath === true,
        tokens: r.tokens === null ? null : Number(r.tokens),
      };
      if (Number(r.part) === 0)
        hits.set(r.id, {
          ...message,
          seq: Number(r.seq),
          createdAt: storedDate(r.createdAt!),
          conversationTitle: r.title ?? '',
        });
      else neighbours.set(r.id, message);
    }
    return { hits, neighbours };
  }
}
