/** Held-back text goes out in `delta` events of at most this many characters. */
export const FRAME_CHARS = 16 * 1024;

/**
 * `index`, moved back by one if it would cut a surrogate pair in two (each half would reach the
 * client as U+FFFD), and never past the end of `text`.
 */
export function splitPoint(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const before = text.charCodeAt(index - 1);
  return before >= 0xd800 && before <= 0xdbff ? index - 1 : index;
}

/** Deltas held back for a slow client, in order; taken off in frames without copying the rest. */
export class HeldText {
  private pieces: string[];
  private head = 0;

  constructor(first: string) {
    this.pieces = [first];
  }

  get empty(): boolean {
    return this.head === this.pieces.length;
  }

  push(text: string): void {
    this.pieces.push(text);
  }

  /** The next frame: at most FRAME_CHARS, whole characters only. */
  take(): string {
    let frame = '';
    while (!this.empty && frame.length < FRAME_CHARS) {
      const piece = this.pieces[this.head];
      if (frame.length + piece.length <= FRAME_CHARS) {
        frame += piece;
        this.head += 1;
        continue;
      }
      // Only a frame that already has text can get a cut at 0 (one place left, a pair next).
      const cut = splitPoint(piece, FRAME_CHARS - frame.length);
      frame += piece.slice(0, cut);
      this.pieces[this.head] = piece.slice(cut);
      break;
    }
    // Forget sent pieces once they are most of the array: amortised O(1) per piece.
    if (this.head > 1024 && this.head * 2 > this.pieces.length) {
      this.pieces = this.pieces.slice(this.head);
      this.head = 0;
    }
    return frame;
  }
}
