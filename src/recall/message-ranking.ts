import type { EntityManager } from 'typeorm';
import type {
  MessageFilters,
  MessageSearchRepository,
  SearchQuery,
} from '../conversations/message-search.repository.js';
import { combine, idf, termScore } from './bm25.js';
import type { CallerStatistics } from './caller-statistics.js';

/** A message of the caller's, scored (higher is better); `key` is the index's name for it. */
interface RankedMessage {
  readonly key: string;
  readonly conversationId: string;
  readonly score: number;
  readonly newness: number;
}

const filtered = (f: MessageFilters) => Object.values(f).some((v) => v !== undefined);

/**
 * Every candidate of the caller's for the query, best first (equal scores: newest first). Each
 * term contributes its newest `cap` matches: a rare term's are all of them, a common term's
 * matches beyond the cap are not credited (their weight is small). Statistics are the caller's.
 */
export async function rankMessages(
  em: EntityManager,
  repo: MessageSearchRepository,
  statistics: CallerStatistics,
  actor: string,
  query: SearchQuery,
  filters: MessageFilters,
  cap: number,
): Promise<RankedMessage[]> {
  if (query.terms.length === 0) return [];
  const totals = await statistics.totals(em, actor);
  const averageLength = totals.docs > 0 ? totals.length / totals.docs : 1;
  const byKey = new Map<string, { conversationId: string; newness: number; parts: number[] }>();
  for (let i = 0; i < query.terms.length; i++) {
    const matches = await repo.termMatches(em, actor, query, i, filters, cap);
    // A whole list of the term's rows, unfiltered, is its count; otherwise it is counted (or kept).
    const whole = matches.complete && !filtered(filters) && query.excluded.length === 0;
    const weight = idf(
      totals.docs,
      await statistics.termHits(em, actor, query.terms[i], whole ? matches.rows.length : undefined),
    );
    for (const row of matches.rows) {
      let entry = byKey.get(row.key);
      if (!entry)
        byKey.set(
          row.key,
          (entry = { conversationId: row.conversationId, newness: row.newness, parts: query.terms.map(() => 0) }),
        );
      entry.parts[i] = termScore(weight, row.tf, row.length, averageLength);
    }
  }
  return [...byKey.entries()]
    .map(([key, e]) => ({ key, conversationId: e.conversationId, newness: e.newness, score: combine(e.parts) }))
    .sort((a, b) => b.score - a.score || b.newness - a.newness);
}
