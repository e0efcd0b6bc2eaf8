import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isPostgres } from '../database/dialect.js';
import { bm25Score, frequencies, ftsTotals, idf, PLAIN_WORD, rowTokens, WordCounts } from './sqlite-bm25.js';

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
 * Candidates are ranked without their snippets; those are made afterwards for the hits returned
 * only, since making one reads and re-tokenizes the whole message. On SQLite, common words are
 * scored here with bm25's formula from word counts kept a while (sqlite-bm25.ts).
 */
@Injectable()
export class ConversationSearchRepository {
  private readonly wordCounts = new WordCounts();
  /**
   * From how many rows holding the words (all of them together) the messages are scored here:
   * below, bm25's own count (a few ms) is cheaper than marking up to 2,000 candidates. Tests lower it.
   */
  scoreFromHits = 100_000;
  /**
   * Up to how many messages a caller has (their conversations' `last_seq`, an upper bound) their
   * messages are looked up one by one for common words, rather than walking every actor's
   * matches: 40-60 µs a message, against a walk that, for a caller with few of the matches,
   * reads most of them (200 ms for a word in most of 1,000,000 messages). Tests change it.
   */
  driveFromCallerRows = 2_000;

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

  private async sqliteMessages(em: EntityManager, actor: string, text: string, mayScore = true): Promise<Candidate[]> {
    const query = ftsQuery(text);
    if (!query) return [];
    const words = ftsWords(text).map((w) => w.toLowerCase());
    const own = mayScore ? await this.ownWeights(em, words) : null;
    const candidates = own && (await this.callerRowsAtMost(em, actor, this.driveFromCallerRows)) ? lookedUpCandidates(query, actor) : walkedCandidates(query, actor, own !== null);
    // The owner is checked again on conversations for the rows kept.
    const rows: Array<MessageRow & { rank?: number; marked?: string; size?: Uint8Array }> = await em.query(
      `SELECT m.conversation_id AS conversationId, m.id AS messageId, m.seq AS messageSeq, m.thread AS messageThread, f.*
         FROM (${candidates.text}) f
         CROSS JOIN messages m ON m.rowid = f.matched
         CROSS JOIN conversations c ON c.id = m.conversation_id
        WHERE c.actor = ?
        ORDER BY f.matched DESC`,
      [...candidates.params, actor],
    );
    const scored: Candidate[] = [];
    for (const r of rows) {
      if (!own) {
        scored.push(messageOf(r, -r.rank));
        continue;
      }
      const freq = frequencies(r.marked ?? '', words);
      // Marks that cannot be read with certainty (a mark character in a message itself): bm25() decides.
      if (!freq || !(r.size instanceof Uint8Array)) return this.sqliteMessages(em, actor, text, false);
      scored.push(messageOf(r, bm25Score(freq, own.weights, rowTokens(r.size), own.avgdl)));
    }
    // Best first (a stable sort: equal scores stay newest first); the search keeps the first of each conversation.
    return scored.sort((a, b) => b.score - a.score);
  }

  /**
   * bm25's weights and average row length, to score here instead of bm25() (see sqlite-bm25.ts),
   * when the words are common enough that bm25's own count would cost more than marking the
   * candidates: rare words, and words FTS5 may fold in ways not read here, keep bm25().
   */
  /** Whether the caller has at most `limit` messages (an upper bound: every seq handed out). */
  private async callerRowsAtMost(em: EntityManager, actor: string, limit: number): Promise<boolean> {
    const [row] = (await em.query(`SELECT coalesce(sum(last_seq), 0) AS n FROM conversations WHERE actor = ?`, [actor])) as Array<{ n: number }>;
    return Number(row?.n ?? 0) <= limit;
  }

  private async ownWeights(em: EntityManager, words: string[]): Promise<{ weights: number[]; avgdl: number } | null> {
    if (words.length === 0 || !words.every((w) => PLAIN_WORD.test(w))) return null;
    const totals = await ftsTotals(em);
    if (!totals) return null;
    const counts = [];
    for (const word of words) counts.push(await this.wordCounts.hits(em, word, totals));
    if (counts.reduce((sum, c) => sum + c.hits, 0) < this.scoreFromHits) return null;
    return { weights: counts.map(idf), avgdl: totals.tokens / totals.rows };
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

/** A subquery of the caller's newest matching messages (`matched`, a rowid), with what they are scored from. */
interface CandidateQuery {
  readonly text: string;
  readonly params: unknown[];
}

/**
 * FTS5 walks its index newest rowid first and stops at the limit; messages_fts_owners keeps that
 * walk to two integers per match (other actors' matches included) instead of a row of messages
 * and one of conversations. bm25() is lower for better matches; with `marked`, the score is
 * computed in the service from the marks and the row's size instead.
 */
function walkedCandidates(query: string, actor: string, marked: boolean): CandidateQuery {
  const scoredBy = marked
    ? `highlight(messages_fts, 0, char(1), char(2)) AS marked, (SELECT sz FROM messages_fts_docsize WHERE id = messages_fts.rowid) AS size`
    : `bm25(messages_fts) AS rank`;
  return {
    text: `SELECT messages_fts.rowid AS matched, ${scoredBy}
             FROM messages_fts CROSS JOIN messages_fts_owners o ON o.message_rowid = messages_fts.rowid
            WHERE messages_fts MATCH ? AND o.conversation_rowid IN (SELECT rowid FROM conversations WHERE actor = ?)
            ORDER BY messages_fts.rowid DESC
            LIMIT ${CANDIDATES}`,
    params: [query, actor],
  };
}

/**
 * A caller with few messages: each of theirs is looked up in the index (a point MATCH), instead
 * of walking every actor's matches of a common word for theirs; only the rows kept are marked up.
 */
function lookedUpCandidates(query: string, actor: string): CandidateQuery {
  return {
    text: `SELECT o.matched,
                  (SELECT highlight(messages_fts, 0, char(1), char(2)) FROM messages_fts
                    WHERE messages_fts MATCH ? AND messages_fts.rowid = o.matched) AS marked,
                  (SELECT sz FROM messages_fts_docsize WHERE id = o.matched) AS size
             FROM (SELECT own.rowid AS matched FROM messages own
                    WHERE own.conversation_id IN (SELECT id FROM conversations WHERE actor = ?)
                      AND own.rowid IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND messages_fts.rowid = own.rowid)
                    ORDER BY own.rowid DESC
                    LIMIT ${CANDIDATES}) o`,
    params: [query, actor, query],
  };
}

/**
 * The user's words as an FTS5 query: every word must match (AND), each quoted so that FTS5
 * operators and punctuation in the input are taken literally. Empty when there is no word.
 */
export function ftsQuery(text: string): string {
  return ftsWords(text)
    .map((w) => `"${w}"`)
    .join(' ');
}

/** The user's words, as ftsQuery quotes them. */
function ftsWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 32);
}
