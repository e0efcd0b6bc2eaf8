import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import type { Conversation } from './conversation.entity.js';
import { ConversationNotFoundError, ForbiddenConversationError } from './conversation.errors.js';
import type { ConversationsRepository } from './conversations.repository.js';

/**
 * The actor's conversation, or the domain error that says why not: another actor's
 * (ForbiddenConversationError) or none at all (ConversationNotFoundError). The query itself
 * filters on the actor, so a forgotten check elsewhere cannot leak a row. With `lock`, the
 * row stays locked for the rest of the transaction.
 */
export async function ownedConversation(
  repo: ConversationsRepository,
  em: EntityManager,
  actor: Actor,
  id: string,
  lock = false,
): Promise<Conversation> {
  const conversation = lock ? await repo.lockOwned(em, actor.id, id) : await repo.findOwned(em, actor.id, id);
  if (conversation) return conversation;
  throw await notOwnedError(repo, em, id);
}

/** Why the actor has no conversation `id`: it is another actor's, or there is none at all. */
export async function notOwnedError(
  repo: ConversationsRepository,
  em: EntityManager,
  id: string,
): Promise<ForbiddenConversationError | ConversationNotFoundError> {
  return (await repo.exists(em, id)) ? new ForbiddenConversationError(id) : new ConversationNotFoundError(id);
}
