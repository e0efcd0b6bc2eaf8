import { GrowingText } from '../common/growing-text.js';

/** A progress save of a reply being generated: its text so far, or (undefined) only a renewed lease. */
export interface ProgressSave {
  readonly id: string;
  readonly content?: string;
}

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
  private lastSaveAt = Date.now();

  constructor(
    private readonly saves: ProgressSaves,
    readonly replyId: string,
    private readonly onCancel: () => void,
  ) {}

  get content(): string {
    return this.text.toString();
  }

  start(): void {
    this.saves.add(this);
  }

  append(piece: string): void {
    this.text.append(piece);
  }

  stop(): Promise<void> {
    return this.saves.remove(this);
  }

  /** What a save now would write: the text when it changed, the lease alone when it is due; null: nothing. */
  pending(now: number, leaseEveryMs: number): ProgressSave | null {
    if (this.text.length !== this.savedLength) return { id: this.replyId, content: this.text.toString() };
    return now - this.lastSaveAt > leaseEveryMs ? { id: this.replyId } : null;
  }

  /** `save` is durable. */
  saved(save: ProgressSave, at: number): void {
    if (save.content !== undefined) this.savedLength = save.content.length;
    this.lastSaveAt = at;
  }

  /** A stop was requested (or the reply is gone). */
  cancelled(): void {
    this.onCancel();
  }
}
