/** BM25's usual constants (as FTS5's bm25() and Lucene use them). */
const K1 = 1.2;
const B = 0.75;

/**
 * A term's weight from the caller's own messages: `docs` of theirs in all, `hits` holding the
 * term. Lucene's form, always positive, so a word in most of one's messages still counts a little.
 */
export function idf(docs: number, hits: number): number {
  return Math.log(1 + Math.max(0, docs - hits + 0.5) / (hits + 0.5));
}

/** One term's part of a message's score: its frequency there, saturated and normalized by the message's length. */
export function termScore(weight: number, tf: number, length: number, averageLength: number): number {
  if (tf <= 0) return 0;
  return (weight * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / Math.max(averageLength, 1)));
}

/**
 * A message's score: BM25's sum times the share of the query's terms it holds (Lucene's
 * coordination factor), so that messages holding more of the words come first unless the
 * words they miss are rare ones.
 */
export function combine(parts: readonly number[]): number {
  let sum = 0;
  let matched = 0;
  for (const part of parts) {
    sum += part;
    if (part > 0) matched += 1;
  }
  return parts.length === 0 ? 0 : (sum * matched) / parts.length;
}
