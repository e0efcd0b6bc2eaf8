import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import type { ReplyError } from '../common/domain-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Agent } from '../agents/agent.entity.js';
import { AgentsService } from '../agents/agents.service.js';
import { ContextAssembler, type ContextSources } from '../context/context-assembler.js';
import { STRETCH_MAX, type PlannedContext } from '../context/context-planner.js';
import { DatabaseService } from '../database/database.service.js';
import type { Conversation } from '../conversations/conversation.entity.js';
import { ConversationLimits } from '../conversations/conversation-limits.js';
import {
  LimitReachedError,
  ConversationBusyError,
  ConversationNotFoundError,
  ConversationStateError,
  InvalidInputError,
  MessageNotFoundError,
} from '../conversations/conversation.errors.js';
import { ConversationsRepository, type NewMessage } from '../conversations/conversations.repository.js';
import { ownedConversation } from '../conversations/ownership.js';
import { closeIfExpired } from '../conversations/reply-lease.js';
import { versionOf, type Message, type MessageStatus, type ToolCallRecord } from '../conversations/message.entity.js';
import type { Summary } from '../conversations/summary.entity.js';
import { MAIN_THREAD, type Thread } from '../conversations/thread.entity.js';
import { titleFromMessage, UNTITLED } from '../conversations/title.js';

/** What a surface asks for one turn. */
export interface TurnRequest {
  readonly content: string;
  readonly conversationId?: string;
  /** Binds a new conversation to this agent; on an existing one it must match its agent. */
  readonly agentId?: string;
  readonly thread?: string;
  /** Replaces the thread's own system prompt, for this and later turns. */
  readonly threadSystem?: string;
}

/** A turn ready for the model: the question is stored, the reply row exists as `streaming`. */
export interface StartedTurn {
  readonly conversation: Conversation;
  readonly created: boolean;
  readonly agent: Agent | null;
  readonly thread: Thread;
  readonly question: Message;
  readonly reply: Message;
  /** The model to call (the agent's, or the default). */
  readonly model: string;
  /** What the model is sent: planned within the token budget and the window. */
  readonly context: PlannedContext;
  /** The last seq the thread's running summary covered when the turn was planned (0: none). */
  readonly summaryCoversSeq: number;
}

export interface ContextPreview {
  readonly model: string;
  readonly encoding: string;
  readonly context: PlannedContext;
  readonly outsideWindow: number;
  readonly summaryCoversSeq: number | null;
}

/** How a reply ended. */
export interface ReplyOutcome {
  readonly status: Exclude<MessageStatus, 'streaming'>;
  readonly content: string;
  readonly model: string | null;
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number } | null;
  readonly error: ReplyError | null;
  /** Tools the model called on the way to this reply. */
  readonly toolCalls?: ToolCallRecord[];
  /** Tokens of `content`, for the budget of later turns. */
  readonly tokens?: number;
}

/**
 * The life of a chat turn in the database. Promises: a question and its reply are adjacent
 * (`seq` n and n+1); while a reply is `streaming` its conversation takes no other turn
 * (ConversationBusyError), on any instance, because the lock is the reply row itself; a reply
 * whose generator stops renewing its lease is closed as failed, never left hanging.
 */
@Injectable()
export class TurnStore {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: ConversationsRepository,
    private readonly agents: AgentsService,
    private readonly assembler: ContextAssembler,
    private readonly limits: ConversationLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Stores the question and an empty `streaming` reply in the request's thread, creating the
   * conversation (bound to the agent, if one is named) when no id is given.
   */
  startTurn(actor: Actor, request: TurnRequest, defaultModel: string): Promise<StartedTurn> {
    this.assertValidContent(request.content);
    const threadName = request.thread ?? MAIN_THREAD;
    return this.db.transaction(async (em) => {
      const now = new Date();
      let conversation: Conversation;
      let agent: Agent | null;
      if (request.conversationId) {
        conversation = await ownedConversation(this.repo, em, actor, request.conversationId, true);
        if (request.agentId && request.agentId !== conversation.agentId) {
          throw new InvalidInputError('agentId does not match the agent of this conversation (a conversation keeps its agent)');
        }
        agent = conversation.agentId ? await this.agents.usableIn(em, actor, conversation.agentId) : null;
        await this.refuseIfBusy(em, conversation.id, threadName, now);
        this.assertRoomForTurn(conversation);
        // A conversation created empty and untitled takes its title from its first message.
        if (conversation.lastSeq === 0 && conversation.title === UNTITLED) {
          conversation.title = titleFromMessage(request.content);
          await this.repo.retitle(em, conversation.id, conversation.title);
        }
      } else {
        agent = request.agentId ? await this.agents.usableIn(em, actor, request.agentId) : null;
        await this.limits.assertRoomForConversation(em, actor);
        conversation = await this.repo.insertConversation(em, actor.id, titleFromMessage(request.content), now, { agentId: agent?.id ?? null });
      }
      const model = agent?.model ?? defaultModel;
      const thread = await this.repo.upsertThread(em, conversation.id, threadName, request.threadSystem, now);
      const tokens = this.assembler.count(request.content, model);
      // Planned before anything is written: a message that cannot fit is refused with nothing stored.
      const { context, summary } = await this.plan(em, {
        conversation,
        agent,
        model,
        thread,
        beforeSeq: conversation.lastSeq + 1,
        newMessage: { content: request.content, tokens },
      });
      const [question, reply] = await this.repo.appendMessages(
        em,
        conversation,
        [{ role: 'user', thread: threadName, content: request.content, tokens }, this.placeholder(threadName, model, now)],
        now,
      );
      const summaryCoversSeq = summary?.coversSeq ?? 0;
      return { conversation, created: !request.conversationId, agent, thread, question, reply, model, context, summaryCoversSeq };
    });
  }

  /**
   * Re-answers the last question of a thread. The answer it replaces moves to the reply's
   * `versions`; the same reply row becomes `streaming` again.
   */
  startRegeneration(actor: Actor, conversationId: string, threadName: string, defaultModel: string): Promise<StartedTurn> {
    return this.db.transaction(async (em) => {
      const now = new Date();
      const conversation = await ownedConversation(this.repo, em, actor, conversationId, true);
      await this.refuseIfBusy(em, conversation.id, threadName, now);
      const last = await this.repo.lastMessage(em, conversation.id, threadName);
      const question =
        last?.role === 'user'
          ? last
          : last?.role === 'assistant'
            ? await this.repo.previousInThread(em, conversation.id, threadName, last.seq)
            : null;
      if (!question || question.role !== 'user') {
        throw new ConversationStateError('There is no question to answer again in this thread');
      }
      const agent = conversation.agentId ? await this.agents.usableIn(em, actor, conversation.agentId) : null;
      const model = agent?.model ?? defaultModel;
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
          errorCode: null,
          errorMessage: null,
          toolCalls: null,
          cancelRequestedAt: null,
          leaseUntil: this.leaseFrom(now),
          createdAt: now,
        };
        await this.repo.updateMessage(em, reply.id, changes);
        Object.assign(reply, changes);
        await this.repo.touchConversation(em, conversation.id, now);
      } else {
        reply = await this.repo.appendMessage(em, conversation, this.placeholder(threadName, model, now), now);
      }
      const thread = await this.repo.upsertThread(em, conversation.id, threadName, undefined, now);
      const { context, summary } = await this.plan(em, {
        conversation,
        agent,
        model,
        thread,
        beforeSeq: question.seq,
        newMessage: { content: question.content, tokens: question.tokens ?? this.assembler.count(question.content, model) },
      });
      return { conversation, created: false, agent, thread, question, reply, model, context, summaryCoversSeq: summary?.coversSeq ?? 0 };
    });
  }

  /**
   * A started turn planned again, read-only (the question and reply rows are not touched): once
   * its thread's summary has caught up, it can be sent more than the plan made at its start.
   */
  replan(turn: StartedTurn): Promise<StartedTurn> {
    const { conversation, agent, model, thread, question } = turn;
    return this.db.read(async (em) => {
      const newMessage = { content: question.content, tokens: question.tokens ?? this.assembler.count(question.content, model) };
      const { context, summary } = await this.plan(em, { conversation, agent, model, thread, beforeSeq: question.seq, newMessage });
      return { ...turn, context, summaryCoversSeq: summary?.coversSeq ?? 0 };
    });
  }

  /**
   * What the next turn of a thread would send the model, around the message still to come:
   * the same planning as a turn, read-only. `outsideWindow` counts the replayable messages
   * older than the window (those the summary stands for, or that are forgotten).
   */
  previewContext(actor: Actor, conversationId: string, threadName: string, defaultModel: string): Promise<ContextPreview> {
    return this.db.read(async (em) => {
      const conversation = await ownedConversation(this.repo, em, actor, conversationId);
      const agent = conversation.agentId ? await this.agents.usableIn(em, actor, conversation.agentId) : null;
      const model = agent?.model ?? defaultModel;
      const thread = (await this.repo.findThread(em, conversation.id, threadName)) ?? { name: threadName, systemPrompt: null };
      const { context, summary } = await this.plan(em, { conversation, agent, model, thread, beforeSeq: conversation.lastSeq + 1, newMessage: null });
      const oldest = context.oldestIncludedSeq ?? conversation.lastSeq + 1;
      // Older than what is sent, less those that were in the window but did not fit the budget.
      const outsideWindow = (await this.repo.countReplayableBefore(em, conversation.id, threadName, oldest)) - context.omittedForBudget;
      return { model, encoding: this.assembler.encodingName(model), context, outsideWindow, summaryCoversSeq: summary?.coversSeq ?? null };
    });
  }

  /**
   * What the model is sent for a turn of a thread: the instructions, the state, the thread's
   * running summary and its replayable history before `beforeSeq`, planned within the budget.
   */
  private async plan(
    em: EntityManager,
    turn: {
      conversation: Conversation;
      agent: Agent | null;
      model: string;
      /** The thread (one not created yet has no prompt of its own). */
      thread: Pick<Thread, 'name' | 'systemPrompt'>;
      beforeSeq: number;
      newMessage: ContextSources['newMessage'];
    },
  ): Promise<{ context: PlannedContext; summary: Summary | null }> {
    const { conversation, thread } = turn;
    const summary = await this.repo.findSummary(em, conversation.id, thread.name);
    const window = this.config.historyWindow;
    let history = await this.repo.recentHistory(em, conversation.id, thread.name, turn.beforeSeq, window);
    // A full window may have older messages behind it that no fold has reached yet: they are
    // sent too while they fit (the planner's stretch), so none falls between window and summary.
    if (this.config.summaryMode === 'rolling' && history.length === window) {
      const older = await this.repo.recentHistory(em, conversation.id, thread.name, history[0]?.seq ?? turn.beforeSeq, STRETCH_MAX, summary?.coversSeq ?? 0);
      history = [...older, ...history];
    }
    const { model, agent, newMessage } = turn;
    const context = this.assembler.assemble({ model, agent, thread, state: conversation.state, summary, history, newMessage });
    return { context, summary };
  }

  /** A turn adds two messages: refuse it when that would pass MAX_MESSAGES_PER_CONVERSATION. */
  private assertRoomForTurn(conversation: Conversation): void {
    const max = this.config.maxMessagesPerConversation;
    if (max > 0 && conversation.lastSeq + 2 > max) {
      throw new LimitReachedError(`This conversation has reached the limit of ${max} messages (MAX_MESSAGES_PER_CONVERSATION); start a new one`);
    }
  }

  private placeholder(thread: string, model: string, now: Date): NewMessage {
    return { role: 'assistant', thread, content: '', status: 'streaming', model, leaseUntil: this.leaseFrom(now) };
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

  /**
   * Stores how the reply ended. If the conversation was deleted
   * meanwhile there is nothing to store into: ConversationNotFoundError, so no surface reports
   * a reply as stored that is not.
   */
  finishReply(conversationId: string, replyId: string, outcome: ReplyOutcome): Promise<void> {
    return this.db.transaction(async (em) => {
      const stored = await this.repo.updateMessage(em, replyId, {
        status: outcome.status,
        content: outcome.content,
        model: outcome.model,
        promptTokens: outcome.usage?.promptTokens ?? null,
        completionTokens: outcome.usage?.completionTokens ?? null,
        errorCode: outcome.error?.code ?? null,
        errorMessage: outcome.error?.message ?? null,
        toolCalls: outcome.toolCalls?.length ? outcome.toolCalls : null,
        tokens: outcome.tokens ?? null,
        leaseUntil: null,
      });
      // The conversation's updated_at was bumped when the turn started; bumping it again would rewrite its index entry.
      if (!stored) throw new ConversationNotFoundError(conversationId);
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
      for (const message of expired) await closeIfExpired(this.repo, em, message, now);
      return expired.length;
    });
  }

  /** One reply at a time per thread: the thread's last message tells whether one is running. */
  private async refuseIfBusy(em: EntityManager, conversationId: string, thread: string, now: Date): Promise<void> {
    const last = await this.repo.lastMessage(em, conversationId, thread);
    if (!last || last.status !== 'streaming') return;
    if (!(await closeIfExpired(this.repo, em, last, now))) throw new ConversationBusyError(conversationId, last.id);
  }

  private leaseFrom(now: Date): Date {
    return new Date(now.getTime() + this.config.replyLeaseMs);
  }

  private assertValidContent(content: string): void {
    if (typeof content !== 'string' || content.trim() === '') {
      throw new InvalidInputError('message must not be empty');
    }
    if (content.includes('\u0000')) throw new InvalidInputError('message must not contain NUL characters');
    if (content.length > this.config.maxMessageChars) {
      throw new InvalidInputError(
        `message is ${content.length} characters long; the limit is ${this.config.maxMessageChars} (MAX_MESSAGE_CHARS)`,
      );
    }
  }
}
