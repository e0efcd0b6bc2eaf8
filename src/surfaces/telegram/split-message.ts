/** Telegram refuses a text message longer than this (UTF-16 code units). */
const TELEGRAM_TEXT_LIMIT = 4096;

/** Cut points in order of preference: between paragraphs, between lines, between words. */
const SEPARATORS = ['\n\n', '\n', ' '] as const;

/**
 * Cuts a text into messages Telegram accepts, at the best boundary within each part: a
 * paragraph break, else a line break, else a space, else (one huge word) anywhere that does
 * not split a surrogate pair. A boundary in the first half of a part is only used when no
 * better one exists, so parts stay long. The separator where a cut falls is dropped; blank
 * parts are left out (Telegram refuses empty messages).
 */
export function splitMessage(text: string, limit = TELEGRAM_TEXT_LIMIT): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const [cut, skip] = cutPoint(rest, limit);
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut + skip);
  }
  parts.push(rest);
  return parts.filter((part) => part.trim() !== '');
}

/** Where to cut `text` (longer than `limit`), and how many separator characters to drop there. */
function cutPoint(text: string, limit: number): [number, number] {
  for (const minimum of [Math.floor(limit / 2), 1]) {
    for (const separator of SEPARATORS) {
      // The separator may straddle the limit: it is dropped, so the part still fits.
      const at = text.lastIndexOf(separator, limit);
      if (at >= minimum) return [at, separator.length];
    }
  }
  const code = text.charCodeAt(limit - 1);
  const splitsPair = code >= 0xd800 && code <= 0xdbff;
  return [splitsPair ? limit - 1 : limit, 0];
}
