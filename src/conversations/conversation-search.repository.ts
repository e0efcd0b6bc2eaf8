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
  /**
   * Whether that message is on its thread's active path (null with messageId). The best match
   * may be on another branch: opening it there means selecting it first.
   */
  readonly onPath: boolean | null;
  readonly snippet: string;
  /** Higher is better. */
  readonly score: number;
}

interface MessageRow {
  conversationId: string;
  messageId: string;
  messageSeq: number;
  messageThread: string;
  rank: number;
}

/** A message hit before its snippet is made and its place read: only the hits returned get them (see `details`). */
type Candidate = Omit<SearchHit, 'snippet' | 'onPath'> & { snippet: string | null };

const messageOf = (r: MessageRow, score: number): Candidate => ({
  conversationId: r.conversationId,
  messageId: r.messageId,
  messageSeq: Number(r.messageSeq),
  messageThread: r.messageThread,
  snippet: null,
  score,
});

const titleOf = (r: { conversationId: string; snippet: string }, score: number): Candidate => ({
  conversationId: r.conversationId,
  messageId: null,
  messageSeq: null,
  messageThread: null,
  snippet: r.snippet,
  score,
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
 * Candidates are ranked without their text; snippets are made afterwards for the hits returned
 * only, since making one reads and re-tokenizes the whole message.
 */
@Injectable()
export class ConversationSearchRepository {
  async search(em: EntityManager, actor: string, text: string, limit: number): Promise<SearchHit[]> {
    const postgres = isPostgres(em);
    const titles = postgres ? await this.pgTitles(em, actor, text, limit) : await this.sqliteTitles(em, actor, text, limit);
    const messages = postgres ? await this.pgMessages(em, actor, text) : await this.sqliteMessages(em, actor, text);
    const best = new Map<string, Candidate>();
    for (const hit of [...titles, ...messages]) {
      const seen = best.get(hit.conversationId);
      if (!seen) best.set(hit.conversationId, hit);
      // A title match keeps its place, but shows the best message's snippet and id.
      else if (seen.messageId === null && hit.messageId !== null) best.set(hit.conversationId, { ...hit, score: seen.score });
    }
    const hits = [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit);
    const details = await this.details(em, postgres, text, hits.flatMap((h) => (h.messageId === null ? [] : [h.messageId])));
    return hits.map((h) => {
      const found = h.messageId === null ? undefined : details.get(h.messageId);
      // A message gone since it was ranked (deleted meanwhile) is not known to be on the path.
      return { ...h, snippet: h.snippet ?? found?.snippet ?? '', onPath: h.messageId === null ? null : (found?.onPath ?? false) };
    });
  }

  /**
   * The snippet of each message hit and whether it is on the active path, by id: one query for
   * all of them. The path is read here, from the few hits returned, rather than while ranking:
   * PostgreSQL's messages_search does not hold it (a branch switch would rewrite its rows).
   */
  private async details(em: EntityManager, postgres: boolean, text: string, ids: string[]): Promise<Map<string, { snippet: string; onPath: boolean }>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ id: string; snippet: string; onPath: number | string }> = postgres
      ? await em.query(
          `SELECT m.id, m.on_path AS "onPath", ts_headline('simple', m.content, plainto_tsquery('simple', $1), 'StartSel=[, StopSel=], MaxWords=20, MinWords=6, ShortWord=1') AS snippet
             FROM messages m WHERE m.id = ANY($2)`,
          [text, ids],
        )
      : await em.query(
          // By rowid on the FTS table itself: joined from messages by id, SQLite re-ran the MATCH per row (0.4 s for a common word).
          `SELECT m.id AS id, m.on_path AS onPath, snippet(messages_fts, 0, '[', ']', '…', 12) AS snippet
             FROM messages_fts JOIN messages m ON m.rowid = messages_fts.rowid
            WHERE messages_fts MATCH ? AND messages_fts.rowid IN (SELECT rowid FROM messages WHERE id IN (${ids.map(() => '?').join(', ')}))`,
          [ftsQuery(text), ...ids],
        );
    return new Map(rows.map((r) => [r.id, { snippet: r.snippet, onPath: Number(r.onPath) === 1 }]));
  }

  private async sqliteMessages(em: EntityManager, actor: string, text: string): Promise<Candidate[]> {
    const query = ftsQuery(text);
    if (!query) return [];
    // FTS5 walks its index newest rowid first and stops at the limit; bm25() is lower for better
    // matches. Most of a common word's cost is bm25's own: it counts every row holding each word
    // (all actors'), once per query, for its inverse document frequency.
    const rows: Array<MessageRow> = await em.query(
      `SELECT m.conversation_id AS conversationId, m.id AS messageId, m.seq AS messageSeq, m.thread AS messageThread,
              bm25(messages_fts) AS rank
         FROM messages_fts
         JOIN messages m ON m.rowid = messages_fts.rowid
         JOIN conversations c ON c.id = m.conversation_id
        WHERE messages_fts MATCH ? AND c.actor = ?
        ORDER BY messages_fts.rowid DESC
        LIMIT ${CANDIDATES}`,
      [query, actor],
    );
    // Best first (a stable sort: equal scores stay newest first); the search keeps the first of each conversation.
    return rows.map((r) => messageOf(r, -r.rank)).sort((a, b) => b.score - a.score);
  }

  private async sqliteTitles(em: EntityManager, actor: string, text: string, limit: number): Promise<Candidate[]> {
    const query = ftsQuery(text);
    if (!query) return [];
    const rows: Array<{ conversationId: string; snippet: string; rank: number }> = await em.query(
      `SELECT c.id AS conversationId, snippet(conversations_fts, 0, '[', ']', '…', 12) AS snippet, bm25(conversations_fts) AS rank
         FROM conversations_fts JOIN conversations c ON c.rowid = conversations_fts.rowid
        WHERE conversations_fts MATCH ? AND c.actor = ?
        ORDER BY rank LIMIT ${Number(limit)}`,
      [query, actor],
    );
    return rows.map((r) => titleOf(r, 1_000 - r.rank));
  }

  private async pgMessages(em: EntityManager, actor: string, text: string): Promise<Candidate[]> {
    // messages_search (migration 1764610000000) holds each message's vector plus a lexeme for its
    // actor (' a' || md5(actor), which no parsed word can equal), so the index itself keeps to
    // the caller's matches. A common word walks (created_at, seq) backwards and stops at the
    // limit; a rarer one is looked up in the GIN index. ts_rank reads the stored vector, the
    // same one to_tsvector('simple', content) gives, so ranks are as before. An empty query
    // (no word) must match nothing, not every message of the actor.
    const rows: Array<MessageRow> = await em.query(
      `WITH ranked AS (
         SELECT s.conversation_id, s.message_id AS id, s.seq, s.thread, ts_rank(s.search_vector, plainto_tsquery('simple', $1)) AS rank
           FROM messages_search s
          WHERE s.search_vector @@ (plainto_tsquery('simple', $1) && quote_literal(' a' || md5($2))::tsquery)
            AND numnode(plainto_tsquery('simple', $1)) > 0
          ORDER BY s.created_at DESC, s.seq DESC LIMIT ${CANDIDATES}),
       best AS (SELECT DISTINCT ON (conversation_id) * FROM ranked ORDER BY conversation_id, rank DESC)
       SELECT best.conversation_id AS "conversationId", best.id AS "messageId", best.seq AS "messageSeq",
              best.thread AS "messageThread", best.rank::float AS rank
         FROM best ORDER BY rank DESC`,
      [text, actor],
    );
    return rows.map((r) => messageOf(r, Number(r.rank)));
  }

  private async pgTitles(em: EntityManager, actor: string, text: string, limit: number): Promise<Candidate[]> {
    const rows: Array<{ conversationId: string; snippet: string; rank: number }> = await em.query(
      `SELECT c.id AS "conversationId", ts_rank(to_tsvector('simple', c.title), q) AS rank,
              ts_headline('simple', c.title, q, 'StartSel=[, StopSel=]') AS snippet
         FROM conversations c, plainto_tsquery('simple', $1) q
        WHERE c.actor = $2 AND to_tsvector('simple', c.title) @@ q
        ORDER BY rank DESC LIMIT ${Number(limit)}`,
      [text, actor],
    );
    return rows.map((r) => titleOf(r, 1_000 + Number(r.rank)));
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
