/** Any BPE encoder: the only call this file needs. */
export interface TokenCountingEncoder {
  countTokens(text: string): number;
}

/** The longest run without white space that one BPE call sees. */
export const MAX_RUN_CHARS = 128;
/** The longest piece of ordinary text (cut at white space) that one BPE call sees. */
export const MAX_PIECE_CHARS = 2_048;

const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x3000;
const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

/**
 * Counts the tokens of `text` in time linear in its length. BPE merges inside one
 * pre-tokenized word cost about the square of its length (32,000 CJK characters, a valid
 * message, take 5 s; a 100,000-character reply without spaces far longer), and the event loop
 * waits meanwhile. So the text is counted in pieces: cut before white space once a piece is
 * MAX_PIECE_CHARS long (the encoders attach a leading space to the word after it, so such a
 * cut changes the count by at most one token, usually none), and cut hard inside any run of
 * MAX_RUN_CHARS characters without white space (never inside a surrogate pair). Ordinary text
 * of up to MAX_PIECE_CHARS counts exactly as in one call.
 */
export function countTokensBounded(encoder: TokenCountingEncoder, text: string): number {
  if (text.length <= MAX_RUN_CHARS) return encoder.countTokens(text);
  let total = 0;
  let pieceStart = 0;
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      if (i - pieceStart >= MAX_PIECE_CHARS) {
        total += encoder.countTokens(text.slice(pieceStart, i));
        pieceStart = i;
      }
      runStart = i + 1;
    } else if (i + 1 - runStart >= MAX_RUN_CHARS && !isHighSurrogate(c)) {
      total += encoder.countTokens(text.slice(pieceStart, i + 1));
      pieceStart = runStart = i + 1;
    }
  }
  if (pieceStart < text.length) total += encoder.countTokens(text.slice(pieceStart));
  return total;
}
