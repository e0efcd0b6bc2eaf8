/** At most this many tags per conversation, each at most this long (the column is varchar(50)). */
export const MAX_TAGS = 20;
export const MAX_TAG_CHARS = 50;

/** Tags are trimmed and lower-cased; blanks drop out and duplicates collapse; sorted. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim().toLowerCase()).filter(Boolean))].sort();
}
