import { GrowingText } from '../common/growing-text.js';

/**
 * The thinking a reasoning model sends beside its answer, for one reply: kept apart from the
 * answer (never replayed), bounded like it (at most `maxChars`; what comes after is dropped
 * and the answer goes on), and timed from the first thought to the first piece of answer that
 * follows (summed over tool rounds).
 */
export class ReasoningTrace {
  private readonly text = new GrowingText();
  private length = 0;
  private thinkingSince: number | null = null;
  private thoughtMs = 0;
  private thought = false;
  private roundStarts = false;

  constructor(private readonly maxChars: number) {}

  /** Keeps what fits of `piece` and returns it ('' once full). */
  add(piece: string): string {
    if (!piece) return '';
    this.thought = true;
    this.thinkingSince ??= performance.now();
    // Thoughts of a later tool round start a paragraph of their own.
    const separator = this.length > 0 && this.roundStarts ? '\n\n' : '';
    this.roundStarts = false;
    // NUL cannot be stored in PostgreSQL text.
    const clean = separator + (piece.includes('\u0000') ? piece.replaceAll('\u0000', '') : piece);
    const kept = clean.slice(0, Math.max(0, this.maxChars - this.length));
    // A surrogate pair cut in half would not be valid text.
    const whole = kept.length < clean.length && /[\uD800-\uDBFF]$/.test(kept) ? kept.slice(0, -1) : kept;
    if (!whole) return '';
    this.text.append(whole);
    this.length += whole.length;
    return whole;
  }

  /** The answer (or the call) has started after the thinking: the time thinking ends here. */
  answered(): void {
    if (this.thinkingSince === null) return;
    this.thoughtMs += performance.now() - this.thinkingSince;
    this.thinkingSince = null;
  }

  /** A new model call (a tool round) begins. */
  nextRound(): void {
    this.answered();
    this.roundStarts = true;
  }

  /** What was kept, and for how long the model thought; null fields when it did not. */
  result(): { reasoning: string | null; reasoningMs: number | null } {
    this.answered();
    return this.thought && this.length > 0
      ? { reasoning: this.text.toString(), reasoningMs: Math.round(this.thoughtMs) }
      : { reasoning: null, reasoningMs: null };
  }
}
