import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ConversationNotFoundError, MessageNotFoundError } from '../conversations/conversation.errors.js';
import { ConversationsRepository } from '../conversations/conversations.repository.js';
import type { Message } from '../conversations/message.entity.js';
import { MessagesRepository } from '../conversations/messages.repository.js';
import { ownedConversation } from '../conversations/ownership.js';
import { ReplyLease } from '../conversations/reply-lease.js';
import type { ProgressSave } from '../conversations/progress-save.js';
import { ReplyRowsRepository } from '../conversations/reply-rows.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { DatabaseWakeups } from '../database/database-wakeups.js';
import type { ReplyOutcome } from './turn.js';

/** Until when a reply's generator holds it, from `now`: it renews the lease while it runs. */
export function leaseFrom(config: Pick<AppConfig, 'replyLeaseMs'>, now: Date): Date {
  return new Date(now.getTime() + config.replyLeaseMs);
}

/**
 * The life of a reply in the database once its turn started: its progress and lease, a stop
 * asked for, its end, and the closing of replies whose generator died. Promises: a reply whose
 * generator stops renewing its lease is closed, never left hanging; followers on any instance
 * are woken by each durable change.
 */
@Injectable()
export class ReplyStore {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: ConversationsRepository,
    private readonly messageRows: MessagesRepository,
    private readonly replyRows: ReplyRowsRepository,
    private readonly lease: ReplyLease,
    private readonly wakeups: DatabaseWakeups,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Saves the text generated so far (or only renews the lease) of replies being generated, all
   * in one commit, each unless a stop was requested for it; their followers are woken once it
   * is durable. Returns the ids saved: a reply missing from it must stop.
   */
  async saveProgress(saves: readonly ProgressSave[]): Promise<Set<string>> {
    const lease = leaseFrom(this.config, new Date());
    const channel = this.wakeups.channel;
    // PostgreSQL: one statement commits on its own (no BEGIN/COMMIT round trips) and notifies.
    const saved = await this.db.statement((em) => this.replyRows.saveProgress(em, saves, lease, channel));
    for (const save of saves) if (saved.has(save.id)) this.wakeups.committed(save.id, save.content);
    return saved;
  }

  /** A cheap read for generators with nothing to save: which of them were asked to stop? */
  cancelRequested(replies: ReadonlyArray<{ readonly id: string; readonly actor: string }>): Promise<Set<string>> {
    return this.db.read((em) =>
      this.replyRows.cancelRequested(
        em,
        replies.map((r) => r.id),
        [...new Set(replies.map((r) => r.actor))],
      ),
    );
  }

  /**
   * Stores how the reply ended. If the conversation was deleted
   * meanwhile there is nothing to store into: ConversationNotFoundError, so no surface reports
   * a reply as stored that is not.
   */
  async finishReply(reply: Pick<Message, 'id' | 'conversationId' | 'actor'>, outcome: ReplyOutcome): Promise<void> {
    try {
      // On PostgreSQL the save NOTIFYs the followers of every instance itself, on its commit.
      await this.storeOutcome(reply, outcome);
    } finally {
      // Followers read the row again: the outcome, or the conversation gone.
      this.wakeups.committed(reply.id);
    }
  }

  private storeOutcome(reply: Pick<Message, 'id' | 'conversationId' | 'actor'>, outcome: ReplyOutcome): Promise<void> {
    // One statement: on PostgreSQL it commits on its own, without the round trips of BEGIN and COMMIT.
    return this.db.statement(async (em) => {
      const stored = await this.replyRows.finishMessage(
        em,
        reply.actor,
        reply.id,
        {
          status: outcome.status,
          content: outcome.content,
          model: outcome.model,
          promptTokens: outcome.usage?.promptTokens ?? null,
          completionTokens: outcome.usage?.completionTokens ?? null,
          errorCode: outcome.error?.code ?? null,
          errorMessage: outcome.error?.message ?? null,
          toolCalls: outcome.toolCalls?.length ? outcome.toolCalls : null,
          reasoning: outcome.reasoning ?? null,
          reasoningMs: outcome.reasoningMs ?? null,
          ...(outcome.functionCalls?.length ? { functionCalls: outcome.functionCalls } : {}),
          tokens: outcome.tokens ?? null,
          ...(outcome.memoryIds ? { memoryIds: outcome.memoryIds.length ? [...outcome.memoryIds] : null } : {}),
          ...(outcome.recalledMessageIds
            ? { recalledMessageIds: outcome.recalledMessageIds.length ? [...outcome.recalledMessageIds] : null }
            : {}),
          leaseUntil: null,
        },
        this.wakeups.channel,
      );
      // The conversation's updated_at was bumped when the turn started; bumping it again would rewrite its index entry.
      if (!stored) throw new ConversationNotFoundError(reply.conversationId);
    });
  }

  /**
   * Asks the generator of a `streaming` reply to stop (it may run on another instance). A reply
   * whose generator is gone is closed as cancelled at once. Returns the message as it is now.
   */
  requestCancel(actor: Actor, conversationId: string, messageId: string): Promise<Message> {
    return this.db.transaction(async (em) => {
      await ownedConversation(this.repo, em, actor, conversationId);
      const message = await this.messageRows.findMessage(em, { id: conversationId, actor: actor.id }, messageId);
      if (!message) throw new MessageNotFoundError(messageId);
      if (message.status !== 'streaming') return message;
      const now = new Date();
      const changes =
        message.leaseUntil && message.leaseUntil < now
          ? { status: 'cancelled' as const, cancelRequestedAt: now, leaseUntil: null }
          : { cancelRequestedAt: now };
      await this.replyRows.updateMessage(em, message.id, changes);
      return Object.assign(message, changes);
    });
  }

  /** Closes replies whose generators died (their instance stopped). Returns how many. */
  async sweepExpired(): Promise<number> {
    const closed = await this.db.transaction(async (em) => {
      const now = new Date();
      const expired = await this.replyRows.expiredReplies(em, now, 500);
      const ids: string[] = [];
      for (const message of expired) {
        if (!(await this.lease.closeIfExpired(em, message, now))) continue;
        await this.wakeups.notifyIn(em, message.id);
        ids.push(message.id);
      }
      return { ids, count: expired.length };
    });
    for (const id of closed.ids) this.wakeups.committed(id);
    return closed.count;
  }
}
