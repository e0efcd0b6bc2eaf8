/** The most characters of one message a tool answers; a model's context is the scarce resource. */
export const MAX_MESSAGE_CHARS = 4_000;

/**
 * `text` within `max` characters; a longer one is cut with a note saying how much is left out
 * and how to read the rest (`how`). Never splits a surrogate pair.
 */
export function cutText(text: string, max: number, how: string): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  const cut = text.length - end;
  return { text: `${text.slice(0, end)}\n[cut: ${cut} more characters; ${how}]`, cut };
}
