/** Why a reply was cut before the model finished it. */
type ReplyCutCode = 'reply_too_long' | 'reply_timeout';

interface ReplyCut {
  readonly code: ReplyCutCode;
  readonly message: string;
}

/**
 * The bounds of one reply: MAX_REPLY_CHARS of text and LLM_MAX_REPLY_MS of generation. It
 * admits text up to the limit and, once a bound is reached, remembers why and calls `onCut`
 * (which aborts the model call). A model that never stops then holds neither the thread's
 * lock nor memory for longer than the bounds allow.
 */
export class ReplyBounds {
  private cutBy: ReplyCut | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly limits: { readonly maxReplyChars: number; readonly maxReplyMs: number },
    private readonly onCut: () => void,
  ) {
    this.timer = setTimeout(
      () =>
        this.cut({
          code: 'reply_timeout',
          message: `The reply was cut after LLM_MAX_REPLY_MS (${limits.maxReplyMs} ms)`,
        }),
      limits.maxReplyMs,
    );
  }

  get reason(): ReplyCut | null {
    return this.cutBy;
  }

  /** The part of `piece` that fits after `written` characters; cuts the reply when it does not all fit. */
  admit(written: number, piece: string): string {
    if (this.cutBy) return '';
    const room = this.limits.maxReplyChars - written;
    if (piece.length <= room) return piece;
    // Never split a surrogate pair: half a character cannot be stored as UTF-8.
    const end = room > 0 && isHighSurrogate(piece.charCodeAt(room - 1)) ? room - 1 : Math.max(0, room);
    this.tooLong();
    return piece.slice(0, end);
  }

  /** Tool call arguments count against the same bound: a model could write them forever too. */
  admitsArguments(args: string): boolean {
    if (args.length <= this.limits.maxReplyChars) return true;
    this.tooLong();
    return false;
  }

  end(): void {
    clearTimeout(this.timer);
  }

  private tooLong(): void {
    this.cut({
      code: 'reply_too_long',
      message: `The reply was cut at MAX_REPLY_CHARS (${this.limits.maxReplyChars} characters)`,
    });
  }

  private cut(reason: ReplyCut): void {
    if (this.cutBy) return;
    this.cutBy = reason;
    this.end();
    this.onCut();
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
