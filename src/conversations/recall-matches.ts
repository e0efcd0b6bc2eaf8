import type { RecallMatch, RecallMatches } from './message-search.repository.js';

/** The `t` of the row telling whether a message the turn could be given waits for the index (`n` 1). */
export const BEHIND_ROW = -1;

/** A row of a recall statement: a term's match (`id` set), a term's count (`n` set), or BEHIND_ROW. */
export interface RecallRow {
  readonly t: number | string;
  readonly id: string | null;
  readonly conversationId: string | null;
  readonly length: number | string | null;
  readonly newness: number | string | null;
  readonly n: number | string | null;
}

/** A recall statement's rows as matches per term, and the counts. */
export function recallMatchesOf(rows: readonly RecallRow[]): RecallMatches {
  const matches: RecallMatch[] = [];
  const counts = new Map<number, number>();
  let behind = false;
  for (const r of rows) {
    const term = Number(r.t);
    if (term === BEHIND_ROW) {
      behind = Number(r.n) === 1;
      continue;
    }
    if (r.id === null) {
      counts.set(term, Number(r.n ?? 0));
      continue;
    }
    matches.push({
      term,
      messageId: r.id,
      conversationId: String(r.conversationId),
      length: Math.max(1, Number(r.length)),
      newness: Number(r.newness),
    });
  }
  return { rows: matches, counts, behind };
}
