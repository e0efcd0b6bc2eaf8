import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { DatabaseService } from '../database/database.service.js';
import { MessageNotFoundError } from './conversation.errors.js';
import { ConversationItemsRepository } from './conversation-items.repository.js';
import type { Message } from './message.entity.js';
import type { ResponseRequest } from './response-record.entity.js';

/**
 * Replies read as responses: found by id alone for their owner (another actor's is unknown),
 * with the request they were made for when it was recorded.
 */
@Injectable()
export class ResponseRecordsService {
  constructor(
    private readonly db: DatabaseService,
    private readonly items: ConversationItemsRepository,
  ) {}

  /** The actor's message with this id, in any of the actor's conversations; MessageNotFoundError otherwise. */
  ownedMessage(actor: Actor, messageId: string): Promise<Message> {
    return this.db.read(async (em) => {
      const message = await this.items.ownedMessage(em, actor.id, messageId);
      if (!message) throw new MessageNotFoundError(messageId);
      return message;
    });
  }

  /** The actor's reply with the request it answered (null when it was not made as a response). */
  find(actor: Actor, messageId: string): Promise<{ message: Message; request: ResponseRequest | null }> {
    return this.db.read(async (em) => {
      const message = await this.items.ownedMessage(em, actor.id, messageId);
      if (!message || message.role !== 'assistant') throw new MessageNotFoundError(messageId);
      return { message, request: (await this.items.findResponseRecord(em, messageId))?.request ?? null };
    });
  }

  /**
   * The messages a reply answered as its input: the run stored with it when it was made as a
   * response (`inputCount` of them, right before it), otherwise the message it follows.
   */
  inputs(actor: Actor, messageId: string): Promise<Message[]> {
    return this.db.read(async (em) => {
      const message = await this.items.ownedMessage(em, actor.id, messageId);
      if (!message || message.role !== 'assistant') throw new MessageNotFoundError(messageId);
      const count = (await this.items.findResponseRecord(em, messageId))?.request.inputCount;
      if (count)
        return this.items.seqRange(em, message.conversationId, message.thread, message.seq - count, message.seq);
      const parent = message.parentId ? await this.items.ownedMessage(em, actor.id, message.parentId) : null;
      return parent ? [parent] : [];
    });
  }

  /** Records the request a reply answers (its message exists: it is written once the turn has started). */
  record(actor: Actor, messageId: string, request: ResponseRequest): Promise<void> {
    return this.db.transaction((em) => this.items.insertResponseRecord(em, actor.id, messageId, request, new Date()));
  }
}
