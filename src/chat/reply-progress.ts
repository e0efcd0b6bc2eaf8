import { GrowingText } from '../common/growing-text.js';
import type { ProgressSave } from '../conversations/progress-save.js';

/** The shared saver a reply's progress registers with (ProgressSaver). */
export interface ProgressSaves {
  add(progress: ReplyProgress): void;
  /** Stops saving `progress`; settles once no save of it is under way. */
  remove(progress: ReplyProgress): Promise<void>;
}

/**
 * The text of one reply being generated, and what of it is saved. The shared ProgressSaver
 * saves every reply's progress together every `STREAM_FLUSH_MS` (so followers on any instance
 * see it), renews the lease well before it runs out, and calls `onCancel` when a stop was
 * requested.
 */
export class ReplyProgress {
  private readonly text = new GrowingText();
  private savedLength = 0;
  /** The turn's first commit gave the reply its lease. */
  private leaseAt = Date.now();
  /** Cut or stopped: the generation is ending, so the lease is no longer renewed (the text still is saved). */
  private halted = false;

  constructor(
    private readonly saves: ProgressSaves,
    readonly replyId: string,
    readonly actor: string,
    private readonly onCancel: () => void,
  ) {}

  get content(): string {
    return this.text.toString();
  }

  /** The text's length, without joining its pieces (which `content` does: per delta, that would copy the whole text). */
  get length(): number {
    return this.text.length;
  }

  start(): void {
    this.saves.add(this);
  }

  append(piece: string): void {
    this.text.append(piece);
  }

  /** The reply was cut or stopped: from now on its lease is never renewed. */
  halt(): void {
    this.halted = true;
  }

  stop(): Promise<void> {
    return this.saves.remove(this);
  }

  /** What a save now would write: the text when it changed (and `withText`), the lease when it is due; null: nothing. */
  pending(now: number, leaseEveryMs: number, withText = true): ProgressSave | null {
    const renewLease = !this.halted && now - this.leaseAt > leaseEveryMs;
    if (withText && this.text.length !== this.savedLength)
      return { id: this.replyId, actor: this.actor, content: this.text.toString(), renewLease };
    return renewLease ? { id: this.replyId, actor: this.actor, renewLease } : null;
  }

  /** `save`, asked for at `askedAt`, is durable. */
  saved(save: ProgressSave, askedAt: number): void {
    if (save.content !== undefined) this.savedLength = save.content.length;
    // Counted from before the statement, which computed the lease's end later still: never late.
    if (save.renewLease) this.leaseAt = askedAt;
  }

  /** A stop was requested (or the reply is gone). */
  cancelled(): void {
    this.onCancel();
  }
}
