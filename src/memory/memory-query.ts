/**
 * The words of a question that can find a memory: words of two letters or more, lower-cased,
 * without the most common English function words (they match nearly every fact and rank
 * nothing), at most MAX_QUERY_WORDS of them (the longest first: rarer, so more telling) so
 * that one retrieval costs the same whatever the question's length.
 */
export const MAX_QUERY_WORDS = 12;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our she so than that the their them then there these they this to too us was we were what when ' +
    'where which who whom why will with would you your yours about also any just like more most some such very want ' +
    'please tell know remember'
  ).split(' '),
);

export function queryWords(text: string, options: { all?: boolean } = {}): string[] {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    // A search (`all`) looks for every word typed, the way the conversation search does.
    if (options.all ? word.length <= 64 : word.length >= 2 && word.length <= 64 && !STOP_WORDS.has(word))
      words.add(word);
  }
  if (options.all) return [...words].slice(0, 32);
  return [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, MAX_QUERY_WORDS);
}

/** An FTS5 query: every word, quoted (so no word is read as an operator); `any`: one is enough. */
export function ftsMatch(words: readonly string[], any: boolean): string {
  return words.map((w) => `"${w.replaceAll('"', '')}"`).join(any ? ' OR ' : ' ');
}

/** A PostgreSQL to_tsquery text over the `simple` configuration: words are letters and digits only, so none is an operator. */
export function tsQuery(words: readonly string[], any: boolean): string {
  return words.map((w) => `'${w.replaceAll("'", '')}'`).join(any ? ' | ' : ' & ');
}
