import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DatabaseService } from '../database/database.service.js';
import type { Conversation } from './conversation.entity.js';
import { ConversationBusyError, ConversationStateError, InvalidInputError, MessageNotFoundError } from './conversation.errors.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ownedConversation } from './ownership.js';
import type { Message, MessageStatus, MessageVersion } from './message.entity.js';
import { titleFromMessage } from './title.js';

/** A turn ready for the model: the question is stored, the reply row exists as `streaming`. */
export interface StartedTurn {
  readonly conversation: Conversation;
  readonly created: boolean;
  readonly question: Message;
  readonly reply: Message;
  /** Complete messages before the question, oldest first, at most the requested window. */
  readonly history: Message[];
}

/** How a reply ended. */
export interface ReplyOutcome {
  readonly status: Exclude<MessageStatus, 'streaming'>;
  readonly content: string;
  readonly model: string | null;
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number } | null;
  readonly error: { readonly status: number; readonly message: string } | null;
}

/** What a reply whose generator died is closed with. */
const INTERRUPTED = { status: 502, message: 'The reply was interrupted: the server generating it stopped' };

/**
 * The life of a chat turn in the database. Promises: a question and its reply are adjacent
 * (`seq` n and n+1); while a reply is `streaming` its conversation takes no other turn
 * (ConversationBusyError), on any instance, because the lock is the reply row itself; a reply
 * whose generator stops renewing its lease is closed as failed, never left hanging.
 */
@Injectable()
export class TurnsService {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: ConversationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Stores the question and an empty `streaming` reply (creating the conversation when no id is given). */
  startTurn(actor: Actor, conversationId: string | undefined, content: string, historyLimit: number, model: string): Promise<StartedTurn> {
    this.assertValidContent(content);
    return this.db.transaction(async (em) => {
      const now = new Date();
      let conversation: Conversation;
      if (conversationId) {
        conversation = await ownedConversation(this.repo, em, actor, conversationId, true);
        await this.refuseIfBusy(em, conversation.id, now);
      } else {
        conversation = await this.repo.insertConversation(em, actor.id, titleFromMessage(content), now);
      }
      const question = await this.repo.appendMessage(em, conversation, { role: 'user', content }, now);
      const reply = await this.repo.appendMessage(
        em,
        conversation,
        { role: 'assistant', content: '', status: 'streaming', model, leaseUntil: this.leaseFrom(now) },
        now,
      );
      const history = await this.repo.recentHistory(em, conversation.id, question.seq, historyLimit);
      return { conversation, created: !conversationId, question, reply, history };
    });
  }

  /**
   * Re-answers the conversation's last question. The answer it replaces moves to the reply's
   * `versions`; the same reply row becomes `streaming` again.
   */
  startRegeneration(actor: Actor, conversationId: string, historyLimit: number, model: string): Promise<StartedTurn> {
    return this.db.transaction(async (em) => {
      const now = new Date();
      const conversation = await ownedConversation(this.repo, em, actor, conversationId, true);
      await this.refuseIfBusy(em, conversation.id, now);
      const last = await this.repo.lastMessage(em, conversation.id);
      const question =
        last?.role === 'user' ? last : last?.role === 'assistant' ? await this.repo.messageAt(em, conversation.id, last.seq - 1) : null;
      if (!question || question.role !== 'user') {
        throw new ConversationStateError('There is no question to answer again in this conversation');
      }
      let reply: Message;
      if (last && last.role === 'assistant') {
        reply = last;
        const changes = {
          versions: [...(last.versions ?? []), versionOf(last)],
          content: '',
          status: 'streaming' as const,
          model,
          promptTokens: null,
          completionTokens: null,
          errorStatus: null,
          errorMessage: null,
          cancelRequestedAt: null,
          leaseUntil: this.leaseFrom(now),
          createdAt: now,
        };
        await this.repo.updateMessage(em, reply.id, changes);
        Object.assign(reply, changes);
        await this.repo.touchConversation(em, conversation.id, now);
      } else {
        reply = await this.repo.appendMessage(
          em,
          conversation,
          { role: 'assistant', content: '', status: 'streaming', model, leaseUntil: this.leaseFrom(now) },
          now,
        );
      }
      const history = await this.repo.recentHistory(em, conversation.id, question.seq, historyLimit);
      return { conversation, created: false, question, reply, history };
    });
  }

  /**
   * Saves the text generated so far (or only renews the lease) unless a stop was requested.
   * Returns false when the generator must stop.
   */
  saveProgress(replyId: string, content: string | undefined): Promise<boolean> {
    return this.db.transaction((em) =>
      this.repo.updateMessage(em, replyId, { ...(content === undefined ? {} : { content }), leaseUntil: this.leaseFrom(new Date()) }, true),
    );
  }

  /** A cheap read for a generator with nothing to save: has a stop been requested? */
  isCancelRequested(replyId: string): Promise<boolean> {
    return this.db.read((em) => this.repo.isCancelRequested(em, replyId));
  }

  /** Stores how the reply ended and bumps the conversation. */
  finishReply(conversationId: string, replyId: string, outcome: ReplyOutcome): Promise<void> {
    return this.db.transaction(async (em) => {
      const now = new Date();
      await this.repo.updateMessage(em, replyId, {
        status: outcome.status,
        content: outcome.content,
        model: outcome.model,
        promptTokens: outcome.usage?.promptTokens ?? null,
        completionTokens: outcome.usage?.completionTokens ?? null,
        errorStatus: outcome.error?.status ?? null,
        errorMessage: outcome.error?.message ?? null,
        leaseUntil: null,
      });
      await this.repo.touchConversation(em, conversationId, now);
    });
  }

  /**
   * One message of the actor's conversation, as stored. A `streaming` reply whose lease ran out
   * is closed as failed first, so a reader never waits on a dead generator.
   */
  readMessage(actor: Actor, conversationId: string, messageId: string): Promise<Message> {
    return this.db.transaction(async (em) => {
      await ownedConversation(this.repo, em, actor, conversationId);
      const message = await this.repo.findMessage(em, conversationId, messageId);
      if (!message) throw new MessageNotFoundError(messageId);
      await this.closeIfExpired(em, message, new Date());
      return message;
    });
  }

  /**
   * Asks the generator of a `streaming` reply to stop (it may run on another instance). A reply
   * whose generator is gone is closed as cancelled at once. Returns the message as it is now.
   */
  requestCancel(actor: Actor, conversationId: string, messageId: string): Promise<Message> {
    return this.db.transaction(async (em) => {
      await ownedConversation(this.repo, em, actor, conversationId);
      const message = await this.repo.findMessage(em, conversationId, messageId);
      if (!message) throw new MessageNotFoundError(messageId);
      if (message.status !== 'streaming') return message;
      const now = new Date();
      const changes =
        message.leaseUntil && message.leaseUntil < now
          ? { status: 'cancelled' as const, cancelRequestedAt: now, leaseUntil: null }
          : { cancelRequestedAt: now };
      await this.repo.updateMessage(em, message.id, changes);
      return Object.assign(message, changes);
    });
  }

  /** Closes replies whose generators died (their instance stopped). Returns how many. */
  sweepExpired(): Promise<number> {
    return this.db.transaction(async (em) => {
      const now = new Date();
      const expired = await this.repo.expiredReplies(em, now, 500);
      for (const message of expired) await this.closeIfExpired(em, message, now);
      return expired.length;
    });
  }

  private async refuseIfBusy(em: EntityManager, conversationId: string, now: Date): Promise<void> {
    const last = await this.repo.lastMessage(em, conversationId);
    if (!last || last.status !== 'streaming') return;
    if (!(await this.closeIfExpired(em, last, now))) throw new ConversationBusyError(conversationId, last.id);
  }

  /** Closes a `streaming` message whose lease has passed; true when it is (now) closed. */
  private async closeIfExpired(em: EntityManager, message: Message, now: Date): Promise<boolean> {
    if (message.status !== 'streaming') return true;
    if (message.leaseUntil && message.leaseUntil >= now) return false;
    const changes = message.cancelRequestedAt
      ? { status: 'cancelled' as const, leaseUntil: null }
      : { status: 'failed' as const, errorStatus: INTERRUPTED.status, errorMessage: INTERRUPTED.message, leaseUntil: null };
    await this.repo.updateMessage(em, message.id, changes);
    Object.assign(message, changes);
    return true;
  }

  private leaseFrom(now: Date): Date {
    return new Date(now.getTime() + this.config.replyLeaseMs);
  }

  private assertValidContent(content: string): void {
    if (typeof content !== 'string' || content.trim() === '') {
      throw new InvalidInputError('message must not be empty');
    }
    if (content.length > this.config.maxMessageChars) {
      throw new InvalidInputError(
        `message is ${content.length} characters long; the limit is ${this.config.maxMessageChars} (MAX_MESSAGE_CHARS)`,
      );
    }
  }
}

function versionOf(m: Message): MessageVersion {
  return {
    content: m.content,
    status: m.status,
    model: m.model,
    promptTokens: m.promptTokens,
    completionTokens: m.completionTokens,
    createdAt: m.createdAt.toISOString(),
  };
}
