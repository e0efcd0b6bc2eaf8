import type { EntityManager } from 'typeorm';
import type { ReplyError } from '../common/domain-error.js';
import type { ReplyRowsRepository } from './reply-rows.repository.js';
import type { Message } from './message.entity.js';

/** What a reply whose generator died is closed with. */
export const INTERRUPTED: ReplyError = {
  code: 'interrupted',
  message: 'The reply was interrupted: the server generating it stopped, or could not store it, before it was finished',
};

/**
 * Closes a `streaming` message whose lease has passed: cancelled if a stop was pending, else
 * failed as interrupted. True when it is (now) closed. A reader or a new turn that meets a dead
 * generator's reply closes it, so nobody waits on it.
 */
export async function closeIfExpired(repo: ReplyRowsRepository, em: EntityManager, message: Message, now: Date): Promise<boolean> {
  if (message.status !== 'streaming') return true;
  if (message.leaseUntil && message.leaseUntil >= now) return false;
  const changes = message.cancelRequestedAt
    ? { status: 'cancelled' as const, leaseUntil: null }
    : { status: 'failed' as const, errorCode: INTERRUPTED.code, errorMessage: INTERRUPTED.message, leaseUntil: null };
  await repo.updateMessage(em, message.id, changes);
  Object.assign(message, changes);
  return true;
}
