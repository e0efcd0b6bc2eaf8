import { Injectable } from '@nestjs/common';
import type { StorageError } from '../common/storage.errors.js';

/**
 * Replies of this process whose end the database refused, and why, while they are tried again
 * (ReplyGenerator.finishLater). Such a reply is still `streaming` in its row, so its thread looks
 * busy; a turn on it is refused for what is really wrong (the storage, with its Retry-After),
 * not as busy.
 */
@Injectable()
export class RepliesAwaitingStorage {
  private readonly waiting = new Map<string, StorageError>();

  add(replyId: string, cause: StorageError): void {
    this.waiting.set(replyId, cause);
  }

  remove(replyId: string): void {
    this.waiting.delete(replyId);
  }

  /** Why `replyId` is not stored yet, if it waits here. */
  causeFor(replyId: string): StorageError | undefined {
    return this.waiting.get(replyId);
  }
}
