import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ReplyError } from '../common/domain-error.js';
import { ConversationBusyError } from './conversation.errors.js';
import { ReplyRowsRepository } from './reply-rows.repository.js';
import type { Message } from './message.entity.js';

/** What a reply whose generator died is closed with. */
export const INTERRUPTED: ReplyError = {
  code: 'interrupted',
  message: 'The reply was interrupted: the server generating it stopped, or could not store it, before it was finished',
};

/**
 * The one place that decides whether a reply is still being generated. A `streaming` reply
 * holds a lease its generator renews; once the lease has passed, the first reader or writer
 * that meets the reply closes it, so nobody waits on a dead generator. Every writer of messages
 * (a turn, `/v1` items, a branch selection, a fork) asks here before it touches a thread.
 */
@Injectable()
export class ReplyLease {
  constructor(private readonly replyRows: ReplyRowsRepository) {}

  /**
   * Closes a `streaming` message whose lease has passed: cancelled if a stop was pending, else
   * failed as interrupted. True when it is (now) closed.
   */
  async closeIfExpired(em: EntityManager, message: Message, now: Date): Promise<boolean> {
    if (message.status !== 'streaming') return true;
    if (message.leaseUntil && message.leaseUntil >= now) return false;
    const changes = message.cancelRequestedAt
      ? { status: 'cancelled' as const, leaseUntil: null }
      : { status: 'failed' as const, errorCode: INTERRUPTED.code, errorMessage: INTERRUPTED.message, leaseUntil: null };
    await this.replyRows.updateMessage(em, message.id, changes);
    Object.assign(message, changes);
    return true;
  }

  /**
   * Refuses (ConversationBusyError, or the more precise error `explain` gives for the reply)
   * while `message` (a thread's leaf, or a message about to change) is a reply still being
   * generated; a dead generator's reply is closed instead, and the caller goes on.
   */
  async assertIdle(
    em: EntityManager,
    conversationId: string,
    message: Message | null | undefined,
    now: Date,
    explain?: (replyId: string) => Error | undefined,
  ): Promise<void> {
    if (!message || (await this.closeIfExpired(em, message, now))) return;
    throw explain?.(message.id) ?? new ConversationBusyError(conversationId, message.id);
  }
}
