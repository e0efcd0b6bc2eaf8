import type { EntityManager } from 'typeorm';

/**
 * FTS5's bm25() for `messages_fts`, computed here from the same figures, with the number of rows
 * holding each word counted once and kept a while. bm25() counts those rows on every call, every
 * actor's: 30 ms for a word in 83 % of 1,000,000 messages, most of a common-word search. Here
 * the count is reused, so a word's weight differs from bm25's only by when its rows were counted.
 * Everything else is read exactly as FTS5 reads it: the row count and token total from the
 * index's averages record, each row's length from `messages_fts_docsize`, and each word's
 * occurrences from highlight(), which marks the same instances bm25 counts. The arithmetic is
 * bm25's, in its order, so equal inputs give equal scores (sqlite3.c, fts5Bm25Function).
 */

const K1 = 1.2;
const B = 0.75;
const OPEN = '\u0001';
const CLOSE = '\u0002';

/** How long a word's count is reused, and how far the table may grow or shrink meanwhile. */
const COUNT_MAX_AGE_MS = 5 * 60_000;
const COUNT_MAX_DRIFT = 0.01;
const COUNTS_KEPT = 10_000;

/** The table's row count and token total: FTS5's averages record (rowid 1 of `messages_fts_data`). */
export interface FtsTotals {
  readonly rows: number;
  readonly tokens: number;
}

/** A word's weight: the rows holding it, and the table's rows when they were counted. */
interface WordCount {
  readonly hits: number;
  readonly rows: number;
  readonly at: number;
}

/** SQLite's varint (sqlite3GetVarint): big-endian 7-bit groups, the ninth byte whole. */
export function readVarint(bytes: Uint8Array, offset: number): { value: number; next: number } {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    const byte = bytes[offset + i];
    if (byte === undefined) throw new Error('truncated varint');
    if (i === 8) return { value: value * 256 + byte, next: offset + 9 };
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return { value, next: offset + i + 1 };
  }
  throw new Error('unreachable');
}

export async function ftsTotals(em: EntityManager): Promise<FtsTotals | null> {
  const [row] = (await em.query(`SELECT block FROM messages_fts_data WHERE id = 1`)) as Array<{ block: Uint8Array }>;
  if (!row?.block) return null;
  const rows = readVarint(row.block, 0);
  const tokens = readVarint(row.block, rows.next);
  return rows.value > 0 ? { rows: rows.value, tokens: tokens.value } : null;
}

/** Words FTS5's unicode61 tokenizer makes one token of, folded exactly as it folds them: ASCII letters and digits. */
export const PLAIN_WORD = /^[A-Za-z0-9]+$/;

/** The rows of `messages_fts` holding each word, counted at most every few minutes (bounded). */
export class WordCounts {
  private readonly counts = new Map<string, WordCount>();

  async hits(em: EntityManager, word: string, totals: FtsTotals, now = Date.now()): Promise<WordCount> {
    const seen = this.counts.get(word);
    if (seen && now - seen.at < COUNT_MAX_AGE_MS && Math.abs(totals.rows - seen.rows) <= seen.rows * COUNT_MAX_DRIFT) return seen;
    // FTS5's vocabulary table (migration 1764710000000): the rows a MATCH of the word finds, counted in half the time.
    const [row] = (await em.query(`SELECT doc FROM messages_fts_rows WHERE term = ?`, [word])) as Array<{ doc: number }>;
    const count = { hits: Number(row?.doc ?? 0), rows: totals.rows, at: now };
    this.counts.delete(word);
    if (this.counts.size >= COUNTS_KEPT) this.counts.delete(this.counts.keys().next().value as string);
    this.counts.set(word, count);
    return count;
  }
}

/** bm25's inverse document frequency, floored as bm25 floors it. */
export function idf(count: WordCount): number {
  const value = Math.log((count.rows - count.hits + 0.5) / (count.hits + 0.5));
  return value <= 0.0 ? 1e-6 : value;
}

/**
 * How often each word occurs in a row, from highlight(messages_fts, 0, char(1), char(2)) on a
 * query of those words: each marked span is one instance of one word (a word given twice counts
 * for both, as bm25's phrases do). Null when the marks are not exactly that (a span not a plain
 * word of the query, a mark character in the text itself, a word missing): the caller then
 * falls back to bm25() itself.
 */
export function frequencies(marked: string, words: readonly string[]): number[] | null {
  const freq = words.map(() => 0);
  let at = 0;
  for (;;) {
    const open = marked.indexOf(OPEN, at);
    const stray = marked.indexOf(CLOSE, at);
    if (open < 0) {
      if (stray >= 0) return null;
      break;
    }
    const close = marked.indexOf(CLOSE, open + 1);
    if (close < 0 || (stray >= 0 && stray < open)) return null;
    const span = marked.slice(open + 1, close);
    if (!PLAIN_WORD.test(span)) return null;
    const token = span.toLowerCase();
    let found = false;
    words.forEach((w, i) => {
      if (w === token) {
        freq[i] += 1.0;
        found = true;
      }
    });
    if (!found) return null;
    at = close + 1;
  }
  return freq.every((f) => f > 0) ? freq : null;
}

/** The row's length in tokens, from its `messages_fts_docsize` blob (one varint per column). */
export function rowTokens(size: Uint8Array): number {
  return readVarint(size, 0).value;
}

/** bm25's score of a row, sign flipped (higher is better): fts5Bm25Function's sum, term by term. */
export function bm25Score(freq: readonly number[], weights: readonly number[], tokens: number, avgdl: number): number {
  let score = 0.0;
  for (let i = 0; i < weights.length; i++) {
    score += weights[i] * ((freq[i] * (K1 + 1.0)) / (freq[i] + K1 * (1 - B + (B * tokens) / avgdl)));
  }
  return score;
}
