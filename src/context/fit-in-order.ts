import { TOKENS_PER_MESSAGE } from './token-counter.js';

/**
 * The items of one system message (memories, recalled excerpts) that fit within `limit` tokens
 * with their header and the message's chat format: in the order offered, each one that still
 * fits, skipping one that does not, so one long item does not keep out the short ones after it.
 * Nothing when not even the header and one item fit.
 */
export function fitInOrder<T extends { readonly tokens: number }>(
  items: readonly T[],
  headerTokens: number,
  limit: number,
): { items: T[]; tokens: number } {
  let total = TOKENS_PER_MESSAGE + headerTokens;
  const kept: T[] = [];
  for (const item of items) {
    if (total + item.tokens > limit) continue;
    total += item.tokens;
    kept.push(item);
  }
  return kept.length === 0 ? { items: [], tokens: 0 } : { items: kept, tokens: total };
}
