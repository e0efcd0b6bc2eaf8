export const TITLE_MAX_CHARS = 60;

/** The title of a conversation created empty without one, until its first message names it. */
export const UNTITLED = 'New conversation';

/** A conversation's title: its first message on one line, at most 60 characters. */
export function titleFromMessage(message: string): string {
  const oneLine = message.replace(/\s+/g, ' ').trim();
  // Cut by code points so an emoji is never split in half.
  return Array.from(oneLine).slice(0, TITLE_MAX_CHARS).join('') || UNTITLED;
}

/** A first message's Markdown is read this far: a title needs its start, and the rules below then cost at most this squared. */
const MARKDOWN_PREFIX_CHARS = 1000;

/**
 * The title a conversation takes from its first message: that message's text without its
 * Markdown (headings, emphasis, code marks and fences, links and images reduced to their text,
 * quote and list markers, table pipes and rules, HTML tags), on one line, at most 60 characters.
 */
export function titleFromFirstMessage(message: string): string {
  const lines = message.slice(0, MARKDOWN_PREFIX_CHARS).split(/\r?\n/);
  const kept: string[] = [];
  for (const line of lines) {
    // Code fences, horizontal rules and table separator rows carry no words.
    if (/^\s*(```|~~~)/.test(line)) continue;
    if (/^[\s|:*_-]*$/.test(line) && (line.match(/[-*_]/g)?.length ?? 0) >= 3) continue;
    kept.push(line.replace(/^[ \t]*(?:(?:#{1,6}|>|[-*+]|\d{1,9}[.)])[ \t]+|>)+/, ''));
  }
  const text = kept
    .join('\n')
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/<\/?[A-Za-z][^<>\n]*>/g, '')
    .replace(/\*\*|__|~~|`/g, '')
    // A single * or _ that opens or closes emphasis; one inside a word (snake_case) or between spaces (2 * 3) stays.
    .replace(/(^|\s)[*_]+(?=\S)/g, '$1')
    .replace(/(?<=\S)[*_]+(?=[\s.,!?:;)]|$)/g, '')
    .replace(/\|/g, ' ');
  return titleFromMessage(text);
}
