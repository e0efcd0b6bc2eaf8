import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isPostgres } from '../database/dialect.js';
import type { MessageRole } from './message.entity.js';
import { PostgresMessageSearch } from './postgres-message-search.js';
import { SqliteMessageSearch } from './sqlite-message-search.js';

/** One thing to look for: a word (stemmed by the index), a prefix, or words in a row. */
export interface SearchTerm {
  readonly kind: 'word' | 'prefix' | 'phrase';
  /** Lower-case letters, digits and `_` only: safe to quote in any query syntax. */
  readonly words: readonly string[];
}

/** A parsed query: any of `terms` matches (OR); a message holding any of `excluded` is left out. */
export interface SearchQuery {
  readonly terms: readonly SearchTerm[];
  readonly excluded: readonly SearchTerm[];
}

/** Narrows the messages searched; the statistics used for ranking are the caller's whole history. */
export interface MessageFilters {
  readonly before?: Date;
  readonly after?: Date;
  readonly role?: MessageRole;
  readonly conversationId?: string;
  /** null: conversations without an agent. */
  readonly agentId?: string | null;
  readonly excludeConversationIds?: readonly string[];
}

/** A message holding a term: how often, its length in the index's tokens, and its age order (higher is newer). */
interface TermMatch {
  readonly key: string;
  readonly conversationId: string;
  readonly tf: number;
  readonly length: number;
  readonly newness: number;
}

/** A term's matches among the caller's messages, newest first; `complete` when none was left out by the cap. */
export interface TermMatches {
  readonly rows: readonly TermMatch[];
  readonly complete: boolean;
}

/** The caller's indexed messages and their total length, what average lengths are taken from. */
export interface CallerTotals {
  readonly docs: number;
  readonly length: number;
}

/** What a hit shows, read for the hits returned only. */
export interface MessageHitDetails {
  readonly messageId: string;
  readonly conversationId: string;
  readonly conversationTitle: string;
  readonly seq: number;
  readonly thread: string;
  readonly role: MessageRole;
  readonly createdAt: Date;
  /** The matched words in [brackets]. */
  readonly snippet: string;
  readonly onPath: boolean;
}

/** A conversation whose title matches, with how well (more is better) and the title marked. */
export interface TitleMatch {
  readonly conversationId: string;
  readonly weight: number;
  readonly snippet: string;
}

/** A recallable message holding a term, as a turn weighs it: its length in tokens as stored (model tokens). */
export interface RecallMatch {
  /** Which of the terms asked for. */
  readonly term: number;
  readonly messageId: string;
  readonly conversationId: string;
  readonly length: number;
  readonly newness: number;
}

/** A turn's recall candidates, every term's newest `cap` in one read, and the counts asked for. */
export interface RecallMatches {
  readonly rows: readonly RecallMatch[];
  /** Per term asked to be counted: how many of the caller's messages hold it (recallable or not); none when `within`'s memory is off. */
  readonly counts: ReadonlyMap<number, number>;
  /**
   * Some of the caller's messages the turn could be given wait for the full-text index (SQLite,
   * MessageIndexBacklog): the matches may miss them until it catches up. Those of `within`'s
   * newest `window` messages do not count: the turn's context holds them, never recalls them.
   */
  readonly behind: boolean;
}

/** What a turn's recall asks for. */
export interface RecallAsk {
  readonly actor: string;
  readonly terms: readonly SearchTerm[];
  /** The terms (indexes into `terms`) whose counts are not kept: counted in the same statement. */
  readonly count: ReadonlySet<number>;
  /** How many of each term's newest matches are weighed. */
  readonly cap: number;
  /**
   * The conversation the turn is in, when it exists: a temporary chat (`memory` off) recalls
   * nothing, and the statement checks that before it walks any match or counts any term.
   */
  readonly within?: string;
  /** How many of `within`'s newest messages the turn's history window holds (HISTORY_WINDOW). */
  readonly window: number;
}

/** The statements of one dialect. */
export interface MessageSearchDialect {
  /**
   * For a turn: each term's newest `cap` recallable matches (tf 1) and, for the terms in
   * `count`, the caller's messages holding it, in one statement.
   */
  recallMatches(em: EntityManager, ask: RecallAsk): Promise<RecallMatches>;
  /** The caller's questions and answers and their total length in stored tokens, what a turn's recall weighs lengths by. */
  recallTotals(em: EntityManager, actor: string): Promise<CallerTotals>;
  termMatches(
    em: EntityManager,
    actor: string,
    query: SearchQuery,
    term: number,
    filters: MessageFilters,
    cap: number,
  ): Promise<TermMatches>;
  termCount(em: EntityManager, actor: string, term: SearchTerm): Promise<number>;
  totals(em: EntityManager, actor: string): Promise<CallerTotals>;
  details(
    em: EntityManager,
    actor: string,
    query: SearchQuery,
    keys: readonly string[],
  ): Promise<Map<string, MessageHitDetails>>;
  titleMatches(em: EntityManager, actor: string, query: SearchQuery, limit: number): Promise<TitleMatch[]>;
}

/**
 * Full-text reads over the caller's messages and titles, for ranked search (recall/): the
 * index finds only the caller's rows (an owner token on SQLite's FTS5 table, an actor lexeme in
 * PostgreSQL's `messages_search`), and every figure it answers is about the caller's rows, so
 * ranking never depends on what others wrote. Both dialects stem (FTS5 `porter`, PostgreSQL
 * `english`). The query arrives parsed: each term is quoted here, never passed as syntax.
 */
@Injectable()
export class MessageSearchRepository implements MessageSearchDialect {
  private readonly sqlite = new SqliteMessageSearch();
  private readonly postgres = new PostgresMessageSearch();

  private of(em: EntityManager): MessageSearchDialect {
    return isPostgres(em) ? this.postgres : this.sqlite;
  }

  termMatches(
    em: EntityManager,
    actor: string,
    query: SearchQuery,
    term: number,
    filters: MessageFilters,
    cap: number,
  ): Promise<TermMatches> {
    return this.of(em).termMatches(em, actor, query, term, filters, cap);
  }

  termCount(em: EntityManager, actor: string, term: SearchTerm): Promise<number> {
    return this.of(em).termCount(em, actor, term);
  }

  recallMatches(em: EntityManager, ask: RecallAsk): Promise<RecallMatches> {
    if (ask.terms.length === 0) return Promise.resolve({ rows: [], counts: new Map(), behind: false });
    return this.of(em).recallMatches(em, ask);
  }

  recallTotals(em: EntityManager, actor: string): Promise<CallerTotals> {
    return this.of(em).recallTotals(em, actor);
  }

  totals(em: EntityManager, actor: string): Promise<CallerTotals> {
    return this.of(em).totals(em, actor);
  }

  details(
    em: EntityManager,
    actor: string,
    query: SearchQuery,
    keys: readonly string[],
  ): Promise<Map<string, MessageHitDetails>> {
    return keys.length === 0 ? Promise.resolve(new Map()) : this.of(em).details(em, actor, query, keys);
  }

  titleMatches(em: EntityManager, actor: string, query: SearchQuery, limit: number): Promise<TitleMatch[]> {
    return query.terms.length === 0 ? Promise.resolve([]) : this.of(em).titleMatches(em, actor, query, limit);
  }
}
