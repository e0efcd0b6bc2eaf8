export const TITLE_MAX_CHARS = 60;

/** A conversation's title: its first message on one line, at most 60 characters. */
export function titleFromMessage(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  // Cut by code points so an emoji is never split in half.
  return Array.from(oneLine).slice(0, TITLE_MAX_CHARS).join('') || 'New conversation';
}
