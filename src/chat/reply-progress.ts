import { Logger } from '@nestjs/common';
import type { TurnStore } from './turn-store.js';

/**
 * Keeps a reply's row alive while it is generated: every `flushMs` it saves the new text (so
 * followers on any instance see it), renews the lease well before it runs out, and checks
 * whether a stop was requested, in which case it calls `onCancel`.
 */
export class ReplyProgress {
  private readonly logger = new Logger(ReplyProgress.name);
  private text = '';
  private savedLength = 0;
  private lastSaveAt = Date.now();
  private timer?: NodeJS.Timeout;
  private tick: Promise<void> | null = null;

  constructor(
    private readonly turns: TurnStore,
    private readonly replyId: string,
    private readonly timing: { readonly streamFlushMs: number; readonly replyLeaseMs: number },
    private readonly onCancel: () => void,
  ) {}

  get content(): string {
    return this.text;
  }

  start(): void {
    this.timer = setInterval(() => {
      // A slow database must not pile ticks up: skip while one is still running.
      this.tick ??= this.save().finally(() => (this.tick = null));
    }, this.timing.streamFlushMs);
  }

  append(piece: string): void {
    this.text += piece;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.tick;
  }

  private async save(): Promise<void> {
    try {
      const dirty = this.text.length !== this.savedLength;
      const leaseDue = Date.now() - this.lastSaveAt > this.timing.replyLeaseMs / 3;
      let goOn: boolean;
      if (dirty || leaseDue) {
        const text = this.text;
        goOn = await this.turns.saveProgress(this.replyId, dirty ? text : undefined);
        this.savedLength = text.length;
        this.lastSaveAt = Date.now();
      } else {
        goOn = !(await this.turns.isCancelRequested(this.replyId));
      }
      if (!goOn) this.onCancel();
    } catch (error) {
      // The final save still happens when the reply ends; a missed tick only delays followers.
      this.logger.warn(`Could not save the progress of reply ${this.replyId}: ${(error as Error).message}`);
    }
  }
}
