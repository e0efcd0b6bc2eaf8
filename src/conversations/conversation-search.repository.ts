import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isPostgres } from '../database/dialect.js';

export interface SearchHit {
  readonly conversationId: string;
  /** The best-matching message, or null when only the title matched. */
  readonly messageId: string | null;
  /** Where that message is: its seq and thread (null with messageId). */
  readonly messageSeq: number | null;
  readonly messageThread: string | null;
  readonly snippet: string;
  /** Higher is better. */
  readonly score: number;
}

interface MessageRow {
  conversationId: string;
  messageId: string;
  messageSeq: number;
  messageThread: string;
  snippet: string;
  rank: number;
}

const messageOf = (r: MessageRow) => ({
  conversationId: r.conversationId,
  messageId: r.messageId,
  messageSeq: Number(r.messageSeq),
  messageThread: r.messageThread,
  snippet: r.snippet,
});

/** Hits by score, best first: the search keeps the first hit it sees of each conversation. */
const bestFirst = (hits: SearchHit[]): SearchHit[] => hits.sort((a, b) => b.score - a.score);

const titleOf = (r: { conversationId: string; snippet: string }) => ({
  conversationId: r.conversationId,
  messageId: null,
  messageSeq: null,
  messageThread: null,
  snippet: r.snippet,
});

/**
 * How many of the caller's matching messages, the newest first, are ranked before picking the
 * best one per conversation. Taking the newest lets the index stop early: ranking every match
 * first cost 0.6 s for a word found in most of 1,000,000 messages, with the database busy meanwhile.
 */
const CANDIDATES = 2_000;

/**
 * Full-text search over titles and message contents, per dialect: SQLite FTS5 (bm25) or
 * PostgreSQL text search (ts_rank) on the `simple` configuration. Always filtered on the actor
 * in the query itself. One hit per conversation: its best message (a title match ranks first).
 */
@Injectable()
export class ConversationSearchRepository {
  async search(em: EntityManager, actor: string, text: string, limit: number): Promise<SearchHit[]> {
    const postgres = isPostgres(em);
    const titles = postgres ? await this.pgTitles(em, actor, text, limit) : await this.sqliteTitles(em, actor, text, limit);
    const messages = postgres ? await this.pgMessages(em, actor, text) : await this.sqliteMessages(em, actor, text);
    const best = new Map<string, SearchHit>();
    for (const hit of [...titles, ...messages]) {
      const seen = best.get(hit.conversationId);
      if (!seen) best.set(hit.conversationId, hit);
      // A title match keeps its place, but shows the best message's snippet and id.
      else if (seen.messageId === null && hit.messageId !== null) best.set(hit.conversationId, { ...hit, score: seen.score });
    }
    return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit);
  }

  private async sqliteMessages(em: EntityManager, actor: string, text: string): Promise<SearchHit[]> {
    const query = ftsQuery(text);
    if (!query) return [];
    // FTS5 walks its index newest rowid first and stops at the limit; bm25() is lower for better matches.
    const rows: Array<MessageRow> = await em.query(
      `SELECT m.conversation_id AS conversationId, m.id AS messageId, m.seq AS messageSeq, m.thread AS messageThread,
              snippet(messages_fts, 0, '[', ']', '…', 12) AS snippet, bm25(messages_fts) AS rank
         FROM messages_fts
         JOIN messages m ON m.rowid = messages_fts.rowid
         JOIN conversations c ON c.id = m.conversation_id
        WHERE messages_fts MATCH ? AND c.actor = ?
        ORDER BY messages_fts.rowid DESC
        LIMIT ${CANDIDATES}`,
      [query, actor],
    );
    return bestFirst(rows.map((r) => ({ ...messageOf(r), score: -r.rank })));
  }

  private async sqliteTitles(em: EntityManager, actor: string, text: string, limit: number): Promise<SearchHit[]> {
    const query = ftsQuery(text);
    if (!query) return [];
    const rows: Array<{ conversationId: string; snippet: string; rank: number }> = await em.query(
      `SELECT c.id AS conversationId, snippet(conversations_fts, 0, '[', ']', '…', 12) AS snippet, bm25(conversations_fts) AS rank
         FROM conversations_fts JOIN conversations c ON c.rowid = conversations_fts.rowid
        WHERE conversations_fts MATCH ? AND c.actor = ?
        ORDER BY rank LIMIT ${Number(limit)}`,
      [query, actor],
    );
    return rows.map((r) => ({ ...titleOf(r), score: 1_000 - r.rank }));
  }

  private async pgMessages(em: EntityManager, actor: string, text: string): Promise<SearchHit[]> {
    const rows: Array<MessageRow> = await em.query(
      `WITH q AS (SELECT plainto_tsquery('simple', $1) AS q),
       ranked AS (
         SELECT m.conversation_id, m.id, m.seq, m.thread, m.content, ts_rank(to_tsvector('simple', m.content), q.q) AS rank
           FROM messages m JOIN conversations c ON c.id = m.conversation_id, q
          WHERE c.actor = $2 AND to_tsvector('simple', m.content) @@ q.q
          ORDER BY m.created_at DESC, m.seq DESC LIMIT ${CANDIDATES}),
       best AS (SELECT DISTINCT ON (conversation_id) * FROM ranked ORDER BY conversation_id, rank DESC)
       SELECT best.conversation_id AS "conversationId", best.id AS "messageId", best.seq AS "messageSeq",
              best.thread AS "messageThread", best.rank::float AS rank,
              ts_headline('simple', best.content, q.q, 'StartSel=[, StopSel=], MaxWords=20, MinWords=6, ShortWord=1') AS snippet
         FROM best, q ORDER BY rank DESC`,
      [text, actor],
    );
    return rows.map((r) => ({ ...messageOf(r), score: Number(r.rank) }));
  }

  private async pgTitles(em: EntityManager, actor: string, text: string, limit: number): Promise<SearchHit[]> {
    const rows: Array<{ conversationId: string; snippet: string; rank: number }> = await em.query(
      `SELECT c.id AS "conversationId", ts_rank(to_tsvector('simple', c.title), q) AS rank,
              ts_headline('simple', c.title, q, 'StartSel=[, StopSel=]') AS snippet
         FROM conversations c, plainto_tsquery('simple', $1) q
        WHERE c.actor = $2 AND to_tsvector('simple', c.title) @@ q
        ORDER BY rank DESC LIMIT ${Number(limit)}`,
      [text, actor],
    );
    return rows.map((r) => ({ ...titleOf(r), score: 1_000 + Number(r.rank) }));
  }
}

/**
 * The user's words as an FTS5 query: every word must match (AND), each quoted so that FTS5
 * operators and punctuation in the input are taken literally. Empty when there is no word.
 */
export function ftsQuery(text: string): string {
  const words = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  return words
    .slice(0, 32)
    .map((w) => `"${w}"`)
    .join(' ');
}
