export const TITLE_MAX_CHARS = 60;

/** The title of a conversation created empty without one, until its first message names it. */
export const UNTITLED = 'New conversation';

/** A conversation's title: its first message on one line, at most 60 characters. */
export function titleFromMessage(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  // Cut by code points so an emoji is never split in half.
  return Array.from(oneLine).slice(0, TITLE_MAX_CHARS).join('') || UNTITLED;
}
