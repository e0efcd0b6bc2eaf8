import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { ContextRecall } from '../context/context-sources.js';
import { MessageSearchRepository, type MessageHitDetails } from '../conversations/message-search.repository.js';
import { RecallExcerptsRepository, type ExcerptMessage } from '../conversations/recall-excerpts.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { rankMessages } from './message-ranking.js';
import { RecallService } from './recall.service.js';
import { parseSearchQuery } from './search-query.js';

/** How many of the best matches a turn is offered; the context plan keeps those that fit RECALL_TOKEN_BUDGET. */
export const RECALL_OFFERED = 16;
/** How many of a word's newest matches are weighed for a turn: fewer than a search weighs, as a turn waits for it. */
const RECALL_CANDIDATES_PER_TERM = 100;
/** A word held by more than this share of the actor's messages is not searched for recall. */
const COMMON_SHARE = 0.5;
/** A question is read up to here for its words (its first terms are what the parser keeps anyway). */
const QUESTION_CHARS = 2_000;

/**
 * What of the actor's past a new message brings back: the questions and answers of their
 * conversations that best match it, on the active path of conversations whose memory is on, each
 * with its neighbour turn. Ranked as search ranks, with the actor's own statistics, but each
 * match counted once: a turn waits for it, and re-reading every matched text for its word counts
 * is most of a search's time.
 * Run before the turn's transaction, so the search holds no lock; the plan then drops what the
 * context already holds (this conversation's window) and keeps what fits the budget.
 */
@Injectable()
export class TurnRecall {
  constructor(
    private readonly db: DatabaseService,
    private readonly search: MessageSearchRepository,
    private readonly excerpts: RecallExcerptsRepository,
    private readonly ranking: RecallService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async forMessage(actor: Actor, message: string): Promise<ContextRecall[]> {
    if (!recallIsOn(this.config) || message.trim() === '') return [];
    // A chat message is not a search: quotes, a leading '-' and '*' are its punctuation, not syntax.
    const query = parseSearchQuery(message.slice(0, QUESTION_CHARS).replace(/["*]|(^|\s)-+/g, ' '));
    if (query.terms.length === 0) return [];
    return this.db.replicaRead(actor.id, async (em) => {
      // A word in most of the actor's messages tells nothing about which to recall (BM25's
      // classic weight for it is below zero): such words are left out, and a message made only
      // of them recalls nothing, without reading any of their matches.
      const { docs } = await this.ranking.statistics.totals(em, actor.id);
      const telling: typeof query.terms[number][] = [];
      for (const term of query.terms) if ((await this.ranking.statistics.termHits(em, actor.id, term)) <= docs * COMMON_SHARE) telling.push(term);
      if (telling.length === 0) return [];
      const ranked = await rankMessages(em, this.search, this.ranking.statistics, actor.id, { ...query, terms: telling }, { recallable: true }, RECALL_CANDIDATES_PER_TERM, false);
      const best = ranked.slice(0, RECALL_OFFERED);
      if (best.length === 0) return [];
      const details = await this.search.details(em, actor.id, query, best.map((r) => r.key), false);
      const hits = best.flatMap((r) => details.get(r.key) ?? []);
      const texts = await this.excerpts.withNeighbours(em, actor.id, hits.map((h) => h.messageId));
      return hits.flatMap((hit) => {
        const own = texts.get(hit.messageId);
        return own ? [excerptOf(hit, own, texts)] : [];
      });
    });
  }
}

/** RECALL_MODE and RECALL_TOKEN_BUDGET, the operator's switch: the search runs, and the plan sends what it found, only when on. */
export function recallIsOn(config: Pick<AppConfig, 'recallMode' | 'recallTokenBudget'>): boolean {
  return config.recallMode === 'on' && config.recallTokenBudget > 0;
}

/** A hit with its neighbour: the answer that follows a question on the path, or the message an answer follows. */
function excerptOf(hit: MessageHitDetails, own: ExcerptMessage, texts: ReadonlyMap<string, ExcerptMessage>): ContextRecall {
  let neighbour: ExcerptMessage | undefined;
  let before = false;
  if (hit.role === 'user') {
    for (const m of texts.values()) if (m.parentId === own.id && m.onPath) neighbour = m;
  }
  if (!neighbour && own.parentId) {
    neighbour = texts.get(own.parentId);
    before = true;
  }
  const shown = neighbour && (neighbour.role === 'user' || neighbour.role === 'assistant') && neighbour.content !== '' ? neighbour : undefined;
  return {
    id: hit.messageId,
    conversationId: hit.conversationId,
    seq: hit.seq,
    conversationTitle: hit.conversationTitle,
    createdAt: hit.createdAt,
    role: hit.role === 'assistant' ? 'assistant' : 'user',
    content: own.content,
    neighbour: shown ? { role: shown.role as 'user' | 'assistant', content: shown.content, before } : null,
    tokens: own.tokens === null || (shown && shown.tokens === null) ? null : own.tokens + (shown?.tokens ?? 0),
  };
}
