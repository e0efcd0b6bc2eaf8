import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import type { Conversation } from '../conversations/conversation.entity.js';
import { InvalidInputError } from '../conversations/conversation.errors.js';
import { ConversationsRepository } from '../conversations/conversations.repository.js';
import { MessageIndexBacklog } from '../conversations/message-index-backlog.js';
import {
  type MessageFilters,
  type MessageHitDetails,
  MessageSearchRepository,
  type SearchQuery,
} from '../conversations/message-search.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { CallerStatistics } from './caller-statistics.js';
import { rankMessages } from './message-ranking.js';
import { decodeSearchCursor, encodeSearchCursor } from './search-cursor.js';
import { MAX_TERMS, parseSearchQuery } from './search-query.js';

const MAX_SEARCH_LIMIT = 100;
export const MAX_QUERY_CHARS = 500;
/** Title matches weighed per conversation search: a title holding a query word is one signal among the messages'. */
const TITLE_CANDIDATES = 200;

interface MessageSearchOptions extends MessageFilters {
  /** 1 to 100 (default 20). */
  readonly limit?: number;
  /** The nextCursor of the previous page of the same search. */
  readonly cursor?: string;
}

/** A message of the caller's matching a search, with where it is and how well it matched (higher is better). */
export interface MessageHit extends MessageHitDetails {
  readonly score: number;
}

interface MessageSearchPage {
  readonly items: MessageHit[];
  readonly nextCursor: string | null;
}

/** A conversation found by a search: its best message (null when only its title matched), with a snippet. */
interface ConversationSearchHit {
  readonly conversation: Conversation;
  readonly messageId: string | null;
  readonly messageSeq: number | null;
  readonly messageThread: string | null;
  /** Whether that message is on its thread's active path (null without one). */
  readonly onPath: boolean | null;
  readonly snippet: string;
  readonly score: number;
}

/**
 * Ranked search over one actor's history, for people (REST, MCP, the web page) and for the turn.
 * The text is parsed into terms (stemmed, stop words ignored, any word matches, more words
 * rank higher: BM25 with the caller's own statistics); only the caller's messages, never a
 * reply still streaming, never a deleted conversation's. Reads may lag writes (replicas).
 */
@Injectable()
export class RecallService {
  /** The caller's figures, kept a while (CallerStatistics); tests read and set its age. */
  readonly statistics: CallerStatistics;
  /** How many of a term's newest matches are weighed per search (bench/sections/search-common-words.mjs). */
  candidatesPerTerm = 2_000;

  constructor(
    private readonly db: DatabaseService,
    private readonly search: MessageSearchRepository,
    private readonly backlog: MessageIndexBacklog,
    private readonly conversations: ConversationsRepository,
  ) {
    this.statistics = new CallerStatistics(search);
  }

  /** The caller's messages best matching `text`, a page at a time (several per conversation). */
  searchMessages(actor: Actor, text: string, options: MessageSearchOptions = {}): Promise<MessageSearchPage> {
    const query = parsed(text);
    const limit = options.limit ?? 20;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT)
      throw new InvalidInputError(`limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
    const { limit: _limit, cursor, ...filters } = options;
    const search = { text, ...filters, before: filters.before?.toISOString(), after: filters.after?.toISOString() };
    const offset = cursor === undefined ? 0 : decodeSearchCursor(cursor, search, this.candidatesPerTerm * MAX_TERMS);
    return this.searchRead(actor, async (em) => {
      const ranked = await this.rank(em, actor.id, query, filters);
      const page = ranked.slice(offset, offset + limit);
      const details = await this.search.details(
        em,
        actor.id,
        query,
        page.map((r) => r.key),
      );
      // A message deleted since it was ranked has no details: it is left out.
      const items = page.flatMap((r) => {
        const found = details.get(r.key);
        return found ? [{ ...found, score: r.score }] : [];
      });
      return { items, nextCursor: offset + limit < ranked.length ? encodeSearchCursor(offset + limit, search) : null };
    });
  }

  /**
   * The caller's conversations best matching `text` (archived ones included), each with its best
   * message: a conversation scores as its best message, plus up to the best score of all when
   * its title holds the query's words.
   */
  searchConversations(actor: Actor, text: string, limit: number): Promise<ConversationSearchHit[]> {
    const query = parsed(text);
    return this.searchRead(actor, async (em) => {
      const ranked = await this.rank(em, actor.id, query, {});
      const found = new Map<string, { score: number; key: string | null; newness: number; title: string | null }>();
      for (const r of ranked)
        if (!found.has(r.conversationId))
          found.set(r.conversationId, { score: r.score, key: r.key, newness: r.newness, title: null });
      const top = ranked[0]?.score ?? 1;
      for (const t of await this.search.titleMatches(em, actor.id, query, TITLE_CANDIDATES)) {
        const seen = found.get(t.conversationId);
        const boost = top * Math.min(1, t.weight / Math.max(query.terms.length, 1));
        found.set(t.conversationId, {
          score: (seen?.score ?? 0) + boost,
          key: seen?.key ?? null,
          newness: seen?.newness ?? 0,
          title: t.snippet,
        });
      }
      const best = [...found.entries()]
        .sort(([, a], [, b]) => b.score - a.score || b.newness - a.newness)
        .slice(0, limit);
      const details = await this.search.details(
        em,
        actor.id,
        query,
        best.flatMap(([, b]) => (b.key === null ? [] : [b.key])),
      );
      const conversations = await this.conversationsWithTags(
        em,
        actor.id,
        best.map(([id]) => id),
      );
      return best.flatMap(([id, b]) => {
        const conversation = conversations.get(id);
        const message = b.key === null ? undefined : details.get(b.key);
        if (!conversation || (!message && b.title === null)) return [];
        return [
          {
            conversation,
            messageId: message?.messageId ?? null,
            messageSeq: message?.seq ?? null,
            messageThread: message?.thread ?? null,
            onPath: message?.onPath ?? null,
            snippet: message?.snippet ?? b.title ?? '',
            score: b.score,
          },
        ];
      });
    });
  }

  private rank(em: EntityManager, actor: string, query: SearchQuery, filters: MessageFilters) {
    return rankMessages(em, this.search, this.statistics, actor, query, filters, this.candidatesPerTerm);
  }

  /** A search's read: after every message written before it has reached the full-text index (MessageIndexBacklog). */
  private async searchRead<T>(actor: Actor, work: (em: EntityManager) => Promise<T>): Promise<T> {
    await this.backlog.catchUp();
    return this.db.replicaRead(actor.id, work);
  }

  private async conversationsWithTags(
    em: EntityManager,
    actor: string,
    ids: string[],
  ): Promise<Map<string, Conversation>> {
    const rows = await this.conversations.findManyOwned(em, actor, ids);
    const tags = await this.conversations.tagsOf(em, rows);
    for (const c of rows) c.tags = tags.get(c.id) ?? [];
    return new Map(rows.map((c) => [c.id, c]));
  }
}

/** The text as terms; an empty or overlong text is refused (a text of stop words only finds nothing). */
function parsed(text: string): SearchQuery {
  if (!text.trim()) throw new InvalidInputError('q must not be empty');
  if (text.length > MAX_QUERY_CHARS) throw new InvalidInputError(`q must be at most ${MAX_QUERY_CHARS} characters`);
  return parseSearchQuery(text);
}
