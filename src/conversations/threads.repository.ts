import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EntityRows } from '../database/sql.js';
import type { Conversation } from './conversation.entity.js';
import { Thread } from './thread.entity.js';

/** The threads of a conversation: named lines of its messages, each with its own instructions. */
@Injectable()
export class ThreadsRepository {
  /**
   * The thread row, created when first used; `systemPrompt` (when given) replaces the thread's
   * own. `known`: the row (or null: none) as already read in this transaction.
   */
  async upsertThread(
    em: EntityManager,
    conversation: Pick<Conversation, 'id' | 'actor'>,
    name: string,
    requestedPrompt: string | undefined,
    now: Date,
    known?: Thread | null,
  ): Promise<Thread> {
    const conversationId = conversation.id;
    // A blank prompt clears the thread's own instructions.
    const systemPrompt =
      requestedPrompt === undefined ? undefined : requestedPrompt.trim() === '' ? null : requestedPrompt;
    const threads = EntityRows.of(em, Thread);
    const existing = known === undefined ? await this.findThread(em, conversationId, name) : known;
    if (!existing) {
      const thread = Object.assign(new Thread(), {
        conversationId,
        actor: conversation.actor,
        name,
        systemPrompt: systemPrompt ?? null,
        createdAt: now,
        updatedAt: now,
      });
      await threads.insert(em, [thread]);
      return thread;
    }
    // Written only when the request changes the thread's prompt: a turn must not rewrite the row.
    if (systemPrompt === undefined) return existing;
    const changes = { updatedAt: now, systemPrompt };
    await threads.update(em, changes, '"conversation_id" = ? AND "name" = ?', [conversationId, name]);
    return Object.assign(existing, changes);
  }

  findThread(em: EntityManager, conversationId: string, name: string): Promise<Thread | null> {
    return EntityRows.of(em, Thread).findOne(em, '"conversation_id" = ? AND "name" = ?', [conversationId, name]);
  }

  listThreads(em: EntityManager, conversationId: string): Promise<Thread[]> {
    return em.find(Thread, { where: { conversationId }, order: { createdAt: 'ASC', name: 'ASC' } });
  }
}
