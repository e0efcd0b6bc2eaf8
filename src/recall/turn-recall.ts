import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { ContextRecall } from '../context/context-sources.js';
import { MessageIndexBacklog } from '../conversations/message-index-backlog.js';
import {
  MessageSearchRepository,
  type RecallMatch,
  type SearchQuery,
} from '../conversations/message-search.repository.js';
import {
  RecallExcerptsRepository,
  type ExcerptHit,
  type ExcerptMessage,
} from '../conversations/recall-excerpts.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { combine, idf, termScore } from './bm25.js';
import { RecallService } from './recall.service.js';
import { parseSearchQuery } from './search-query.js';

/** What a recall read answers when the index is behind the caller's writes elsewhere. */
const BEHIND = Symbol('behind');
/** How many of the best matches a turn is offered; the context plan keeps those that fit RECALL_TOKEN_BUDGET. */
const RECALL_OFFERED = 16;
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
 * match counted once and lengths taken from the stored token counts: a turn waits for it, and
 * re-reading every matched text for its word counts and index lengths is most of a search's time.
 * Two statements in the usual case: every word's matches (and the counts not kept), then the
 * best hits with their neighbour turns.
 * Run before the turn's transaction, so the search holds no lock; the plan then drops what the
 * context already holds (this conversation's window) and keeps what fits the budget.
 */
@Injectable()
export class TurnRecall {
  constructor(
    private readonly db: DatabaseService,
    private readonly search: MessageSearchRepository,
    private readonly backlog: MessageIndexBacklog,
    private readonly excerpts: RecallExcerptsRepository,
    private readonly ranking: RecallService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `within`: the conversation the turn is in, when it exists (a temporary chat recalls nothing). */
  async forMessage(actor: Actor, message: string, within?: string): Promise<ContextRecall[]> {
    if (!recallIsOn(this.config) || this.config.memoryMode === 'off' || message.trim() === '') return [];
    // A chat message is not a search: quotes, a leading '-' and '*' are its punctuation, not syntax.
    const query = parseSearchQuery(message.slice(0, QUESTION_CHARS).replace(/["*]|(^|\s)-+/g, ' '));
    if (query.terms.length === 0) return [];
    const recalled = await this.recall(actor, query, within, false);
    if (recalled !== BEHIND) return recalled;
    // Messages this turn could be given wait for the full-text index: index them, then look
    // again, taking what the index holds even if it could not catch up (a full disk).
    await this.backlog.catchUp();
    return (await this.recall(actor, query, within, true)) as ContextRecall[];
  }

  private recall(
    actor: Actor,
    query: SearchQuery,
    within: string | undefined,
    anyway: boolean,
  ): Promise<ContextRecall[] | typeof BEHIND> {
    return this.db.replicaRead(actor.id, async (em) => {
      const statistics = this.ranking.statistics;
      const { docs, length } = await statistics.recallTotals(em, actor.id);
      // A word in most of the actor's messages tells nothing about which to recall (BM25's
      // classic weight for it is below zero): such words are left out, and a message made only
      // of them recalls nothing. A word whose count is not kept is counted in the same read as
      // every word's matches, and left out afterwards if it proves common.
      const common = (hits: number) => hits > docs * COMMON_SHARE;
      const known = query.terms.map((term) => statistics.keptTermHits(actor.id, term));
      const asked = query.terms.flatMap((term, i) =>
        known[i] !== undefined && common(known[i]) ? [] : [{ term, hits: known[i] }],
      );
      if (asked.length === 0) return [];
      const toCount = new Set(asked.flatMap((a, i) => (a.hits === undefined ? [i] : [])));
      const found = await this.search.recallMatches(em, {
        actor: actor.id,
        terms: asked.map((a) => a.term),
        count: toCount,
        cap: RECALL_CANDIDATES_PER_TERM,
        within,
        window: this.config.historyWindow,
      });
      if (found.behind && !anyway) return BEHIND;
      // Counts come back only when the turn's conversation keeps memories: none is kept otherwise.
      for (const [i, n] of found.counts) await statistics.termHits(em, actor.id, asked[i].term, n);
      const hits = asked.map((a, i) => a.hits ?? found.counts.get(i) ?? 0);
      const best = rankRecall(found.rows, hits, docs, length, common).slice(0, RECALL_OFFERED);
      if (best.length === 0) return [];
      const excerpts = await this.excerpts.withNeighbours(em, actor.id, best);
      return best.flatMap((id) => {
        const hit = excerpts.hits.get(id);
        return hit ? [excerptOf(hit, excerpts.neighbours)] : [];
      });
    });
  }
}

/**
 * The matches' message ids, best first (equal scores: newest first): BM25 with every match
 * counted once and lengths in stored tokens, over the terms that are not common.
 */
function rankRecall(
  rows: readonly RecallMatch[],
  hits: readonly number[],
  docs: number,
  length: number,
  common: (hits: number) => boolean,
): string[] {
  const telling = hits.map((h) => !common(h));
  // Each telling term's place among the telling terms, what the score's parts are indexed by.
  const slot: number[] = [];
  let terms = 0;
  for (const t of telling) slot.push(t ? terms++ : -1);
  const weights = hits.map((h) => idf(docs, h));
  const averageLength = docs > 0 ? length / docs : 1;
  const byId = new Map<string, { newness: number; parts: number[] }>();
  for (const row of rows) {
    if (!telling[row.term]) continue;
    let entry = byId.get(row.messageId);
    if (!entry) byId.set(row.messageId, (entry = { newness: row.newness, parts: new Array<number>(terms).fill(0) }));
    entry.parts[slot[row.term]] = termScore(weights[row.term], 1, row.length, averageLength);
  }
  return [...byId.entries()]
    .map(([id, e]) => ({ id, newness: e.newness, score: combine(e.parts) }))
    .sort((a, b) => b.score - a.score || b.newness - a.newness)
    .map((r) => r.id);
}

/** RECALL_MODE and RECALL_TOKEN_BUDGET, the operator's switch: the search runs, and the plan sends what it found, only when on. */
export function recallIsOn(config: Pick<AppConfig, 'recallMode' | 'recallTokenBudget'>): boolean {
  return config.recallMode === 'on' && config.recallTokenBudget > 0;
}

/** A hit with its neighbour: the answer that follows a question on the path, or the message an answer follows. */
function excerptOf(hit: ExcerptHit, texts: ReadonlyMap<string, ExcerptMessage>): ContextRecall {
  let neighbour: ExcerptMessage | undefined;
  let before = false;
  if (hit.role === 'user') {
    for (const m of texts.values()) if (m.parentId === hit.id && m.onPath) neighbour = m;
  }
  if (!neighbour && hit.parentId) {
    neighbour = texts.get(hit.parentId);
    before = true;
  }
  const shown =
    neighbour && (neighbour.role === 'user' || neighbour.role === 'assistant') && neighbour.content !== ''
      ? neighbour
      : undefined;
  return {
    id: hit.id,
    conversationId: hit.conversationId,
    seq: hit.seq,
    conversationTitle: hit.conversationTitle,
    createdAt: hit.createdAt,
    role: hit.role === 'assistant' ? 'assistant' : 'user',
    content: hit.content,
    neighbour: shown ? { role: shown.role as 'user' | 'assistant', content: shown.content, before } : null,
    tokens: hit.tokens === null || (shown && shown.tokens === null) ? null : hit.tokens + (shown?.tokens ?? 0),
  };
}
