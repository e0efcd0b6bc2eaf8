import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { Message } from '../conversations/message.entity.js';

/** Reads of one statement, at most. */
const MAX_BATCH = 500;

interface Pending {
  readonly read: { readonly actor: Actor; readonly conversationId: string; readonly messageId: string };
  readonly resolve: (message: Message) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The reads of followers woken together (one progress save wakes the followers of hundreds of
 * replies) go to the database as one statement, instead of one transaction each. A read the
 * batch cannot answer (not the actor's, gone, a lease run out) is made alone by
 * `ConversationsService.getMessage`, which answers it as it always did (an error, or the reply
 * closed).
 */
@Injectable()
export class FollowerReads {
  private pending: Pending[] = [];

  constructor(private readonly conversations: ConversationsService) {}

  read(actor: Actor, conversationId: string, messageId: string): Promise<Message> {
    return new Promise((resolve, reject) => {
      this.pending.push({ read: { actor, conversationId, messageId }, resolve, reject });
      // Reads asked in this turn of the event loop go together.
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    for (let i = 0; i < batch.length; i += MAX_BATCH) {
      const part = batch.slice(i, i + MAX_BATCH);
      let found: Array<Message | null>;
      try {
        found = await this.conversations.followedMessages(part.map((p) => p.read));
      } catch (error) {
        part.forEach((p) => p.reject(error));
        continue;
      }
      part.forEach((p, j) => {
        const message = found[j];
        if (message) return p.resolve(message);
        const { actor, conversationId, messageId } = p.read;
        this.conversations.getMessage(actor, conversationId, messageId).then(p.resolve, p.reject);
      });
    }
  }
}
