import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Agent } from '../agents/agent.entity.js';
import { AgentsService } from '../agents/agents.service.js';
import { DatabaseService } from '../database/database.service.js';
import type { Conversation } from '../conversations/conversation.entity.js';
import { ConversationLimits } from '../conversations/conversation-limits.js';
import {
  ConversationBusyError,
  ConversationStateError,
  InvalidInputError,
  MessageNotFoundError,
  ModelNotOfferedError,
} from '../conversations/conversation.errors.js';
import { ConversationAliasesRepository } from '../conversations/conversation-aliases.repository.js';
import { ConversationsRepository } from '../conversations/conversations.repository.js';
import { ThreadsRepository } from '../conversations/threads.repository.js';
import { MessagesRepository, type NewMessage } from '../conversations/messages.repository.js';
import { MessageAliasesRepository } from '../conversations/message-aliases.repository.js';
import { notOwnedError, ownedConversation } from '../conversations/ownership.js';
import { ReplyLease } from '../conversations/reply-lease.js';
import { RepliesAwaitingStorage } from './replies-awaiting-storage.js';
import type { Message } from '../conversations/message.entity.js';
import { MessageTreeRepository } from '../conversations/message-tree.repository.js';
import { TurnReadsRepository, type ThreadHead } from '../conversations/turn-reads.repository.js';
import { MAIN_THREAD } from '../conversations/thread.entity.js';
import { titleFromFirstMessage, UNTITLED } from '../conversations/title.js';
import { assertRoundsKept, pendingCalls } from './function-rounds.js';
import { leaseFrom } from './reply-store.js';
import { chained, turnInputs } from './turn-inputs.js';
import type { PlanTurn, StartedTurn, TurnPlan, TurnRequest } from './turn.js';
import { timeOrderedId } from '../common/time-ordered-id.js';
import { TurnHistory } from './turn-history.js';

/**
 * The start of a chat turn in the database (and what reads a turn's plan: a regeneration, a
 * replan, a preview, a pin). Promises: a question and its reply are adjacent (`seq` n and
 * n+1); while a reply is `streaming` its conversation takes no other turn
 * (ConversationBusyError), on any instance, because the lock is the reply row itself. What
 * happens to the reply after it starts is ReplyStore's.
 */
@Injectable()
export class TurnStore {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: ConversationsRepository,
    private readonly threadRows: ThreadsRepository,
    private readonly lease: ReplyLease,
    private readonly messageRows: MessagesRepository,
    private readonly tree: MessageTreeRepository,
    private readonly agents: AgentsService,
    private readonly limits: ConversationLimits,
    private readonly aliases: ConversationAliasesRepository,
    private readonly messageAliases: MessageAliasesRepository,
    private readonly reads: TurnReadsRepository,
    private readonly awaitingStorage: RepliesAwaitingStorage,
    private readonly history: TurnHistory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Stores the question and an empty `streaming` reply in the request's thread, creating the
   * conversation (bound to the agent, if one is named) when no id is given. The question
   * follows the thread's active leaf, or the message the request names (`parentMessageId`, a
   * new branch when it is not the leaf), or takes the place of an edited one (`editMessageId`:
   * a sibling of it); the new branch becomes the active path. `plan` decides the model and the
   * context within the same transaction, before anything is written: a question that cannot
   * fit is refused with nothing stored. With an `alias` and no id, the turn goes to the
   * conversation the actor named so, or to a new one that takes the name in the same transaction.
   */
  startTurn(actor: Actor, request: TurnRequest, plan: PlanTurn): Promise<StartedTurn> {
    const inputs = turnInputs(request, this.config.maxMessageChars);
    const firstText = inputs.find((i) => i.role === 'user')?.content ?? '';
    return this.db.transaction(async (em) => {
      const now = new Date();
      let conversation: Conversation;
      let agent: Agent | null;
      let threadName = request.thread ?? MAIN_THREAD;
      // The message the question follows: undefined for the thread's leaf, null for none (a new first message).
      let parent: Message | null | undefined;
      // The thread's active leaf as the busy check read it (a new conversation has none).
      let leaf: Message | null = null;
      // The thread's row and summary as read with the leaf (null for a new conversation: it has neither).
      let head: Pick<ThreadHead, 'thread' | 'summary'> = { thread: null, summary: null };
      const conversationId =
        request.conversationId ?? (request.alias ? await this.aliases.find(em, actor.id, request.alias) : null);
      if (conversationId) {
        const requested = threadName;
        const owned = await this.reads.ownedWithHead(em, actor.id, conversationId, threadName);
        if (!owned) throw await notOwnedError(this.repo, em, conversationId);
        conversation = owned.conversation;
        if (request.agentId && request.agentId !== conversation.agentId) {
          throw new InvalidInputError(
            'agentId does not match the agent of this conversation (a conversation keeps its agent)',
          );
        }
        if (request.model && request.model !== conversation.model) {
          throw new ModelNotOfferedError(
            "model does not match this conversation's model (PATCH the conversation to change it)",
          );
        }
        ({ parent, threadName } = await this.branchPoint(em, conversation, request, threadName));
        // A question after a message of another thread: that thread's head (after the row lock, so it reads what the turn before this one committed).
        const read = threadName === requested ? owned.head : await this.reads.threadHead(em, conversation, threadName);
        head = read;
        agent = conversation.agentId ? await this.agents.usableIn(em, actor, conversation.agentId) : null;
        leaf = await this.refuseIfBusy(em, conversation.id, threadName, now, read.leaf);
        this.limits.assertRoomForMessages(conversation.lastSeq, inputs.length + 1);
        // A conversation created empty and untitled takes its title from its first message.
        if (conversation.lastSeq === 0 && conversation.title === UNTITLED && firstText !== '') {
          conversation.title = titleFromFirstMessage(firstText);
          await this.repo.retitle(em, conversation.id, conversation.title);
        }
      } else {
        if (request.parentMessageId || request.editMessageId)
          throw new InvalidInputError('parentMessageId needs the conversationId it belongs to');
        agent = request.agentId ? await this.agents.usableIn(em, actor, request.agentId) : null;
        await this.limits.assertRoomForConversation(em, actor);
        conversation = await this.repo.insertConversation(em, actor.id, titleFromFirstMessage(firstText), now, {
          agentId: agent?.id ?? null,
          model: request.model ?? null,
        });
        if (request.alias) await this.claimAlias(em, actor, request.alias, conversation.id, threadName, now);
      }
      // A branch: the path below where it starts leaves the active path, so the plan reads the new one.
      if (parent === null) await this.tree.leavePathBelow(em, conversation.id, threadName, 0);
      else if (parent) {
        await this.tree.activate(em, parent, false);
        await this.tree.leavePathBelow(em, conversation.id, threadName, parent.seq);
      }
      const follows = parent === undefined ? leaf : parent;
      if (request.items)
        assertRoundsKept(
          await pendingCalls(follows, (id) => this.messageRows.findMessage(em, conversation, id)),
          inputs,
        );
      const thread = await this.threadRows.upsertThread(
        em,
        conversation,
        threadName,
        request.threadSystem,
        now,
        head.thread,
      );
      // A last user message is the question; the inputs before it (or all, after function outputs) are history.
      const last = inputs[inputs.length - 1];
      const asked = last.role === 'user' ? last : null;
      const earlier = asked ? inputs.slice(0, -1) : inputs;
      let parentId = follows?.id ?? null;
      const stored = earlier.length
        ? await this.messageRows.appendMessages(em, conversation, chained(earlier, threadName, parentId), now)
        : [];
      parentId = stored.at(-1)?.id ?? parentId;
      const question = asked ? { content: asked.content, tokens: null } : null;
      const draft = {
        conversation,
        agent,
        thread,
        beforeSeq: conversation.lastSeq + 1,
        question,
        override: request.override,
        recalled: request.recalled,
      };
      // A branch moved the active path since the head was read: its summary may no longer stand for it.
      const known = parent === undefined ? { thread: threadName, summary: head.summary } : undefined;
      const planned = await plan(draft, this.history.of(em, conversation, known));
      const questionId = asked ? timeOrderedId() : parentId!;
      const rows = await this.messageRows.appendMessages(
        em,
        conversation,
        [
          ...(asked
            ? [
                {
                  id: questionId,
                  parentId,
                  role: 'user' as const,
                  thread: threadName,
                  content: asked.content,
                  tokens: planned.questionTokens,
                },
              ]
            : []),
          this.placeholder(threadName, planned, now, questionId),
        ],
        now,
      );
      const reply = rows[rows.length - 1];
      const questionRow = asked ? rows[0] : stored[stored.length - 1];
      if (asked && request.clientMessageId)
        await this.messageAliases.name(em, actor.id, conversation.id, request.clientMessageId, questionId, now);
      return {
        conversation,
        created: !conversationId,
        agent,
        thread,
        question: questionRow,
        reply,
        ...this.planned(planned),
        override: request.override,
        recalled: request.recalled,
      };
    });
  }

  /**
   * Gives the new conversation its alias. Another first turn under the same name, racing this
   * one (on any instance), may have claimed it first: that turn is the one running, so this one
   * is refused as busy and its new conversation rolled back.
   */
  private async claimAlias(
    em: EntityManager,
    actor: Actor,
    alias: string,
    conversationId: string,
    thread: string,
    now: Date,
  ): Promise<void> {
    if (await this.aliases.claim(em, actor.id, alias, conversationId, now)) return;
    const winner = await this.aliases.find(em, actor.id, alias);
    const running = winner ? await this.messageRows.lastMessage(em, winner, thread) : null;
    throw new ConversationBusyError(winner ?? conversationId, running?.id ?? '');
  }

  /** Where a turn's question goes in the tree: after the named message, beside the edited one, or (undefined) after the leaf. */
  private async branchPoint(
    em: EntityManager,
    conversation: Conversation,
    request: TurnRequest,
    threadName: string,
  ): Promise<{ parent: Message | null | undefined; threadName: string }> {
    const namedId = request.editMessageId ?? request.parentMessageId;
    if (!namedId) return { parent: undefined, threadName };
    const named = await this.messageRows.findMessage(em, conversation, namedId);
    if (!named) throw new MessageNotFoundError(namedId);
    if (request.thread && request.thread !== named.thread) {
      throw new InvalidInputError(`message ${namedId} is in thread "${named.thread}", not "${request.thread}"`);
    }
    if (!request.editMessageId) return { parent: named, threadName: named.thread };
    if (named.role !== 'user')
      throw new ConversationStateError('Only a user message can be edited; regenerate a reply instead');
    const parent = named.parentId ? await this.messageRows.findMessage(em, conversation, named.parentId) : null;
    return { parent, threadName: named.thread };
  }

  /**
   * Answers the last question of a thread again: a new reply beside the one it replaces (a
   * sibling), which becomes the active path; the earlier answer stays, readable and selectable.
   */
  startRegeneration(
    actor: Actor,
    conversationId: string,
    threadName: string,
    plan: PlanTurn,
    messageId?: string,
  ): Promise<StartedTurn> {
    return this.db.transaction(async (em) => {
      const now = new Date();
      const conversation = await ownedConversation(this.repo, em, actor, conversationId, true);
      const last = await this.refuseIfBusy(em, conversation.id, threadName, now);
      // A named message of the active path: its question (or itself, a question) is answered again.
      const named = messageId ? await this.messageRows.findMessage(em, conversation, messageId) : last;
      if (messageId && !named) throw new MessageNotFoundError(messageId);
      if (messageId && (named!.thread !== threadName || !named!.onPath)) {
        throw new ConversationStateError(`message ${messageId} is not on the active path of thread "${threadName}"`);
      }
      const question =
        named?.role === 'user'
          ? named
          : named?.role === 'assistant' && named.parentId
            ? await this.messageRows.findMessage(em, conversation, named.parentId)
            : null;
      if (!question || question.role !== 'user') {
        throw new ConversationStateError('There is no question to answer again in this thread');
      }
      this.limits.assertRoomForMessages(conversation.lastSeq, 1);
      const agent = conversation.agentId ? await this.agents.usableIn(em, actor, conversation.agentId) : null;
      const thread = await this.threadRows.upsertThread(em, conversation, threadName, undefined, now);
      const planned = await plan(
        { conversation, agent, thread, beforeSeq: question.seq, question },
        this.history.of(em, conversation),
      );
      // The answer replaced leaves the active path; the new one takes its place.
      if (last?.id !== question.id) await this.tree.leavePathBelow(em, conversation.id, threadName, question.seq);
      const reply = await this.messageRows.appendMessage(
        em,
        conversation,
        this.placeholder(threadName, planned, now, question.id),
        now,
      );
      return { conversation, created: false, agent, thread, question, reply, ...this.planned(planned) };
    });
  }

  /**
   * A started turn planned again, read-only (the question and reply rows are not touched): once
   * its thread's summary has caught up, it can be sent more than the plan made at its start.
   */
  replan(turn: StartedTurn, plan: PlanTurn): Promise<StartedTurn> {
    const { conversation, agent, thread, question } = turn;
    // After function outputs there is no question: the history up to the reply is sent.
    const asked = question.role === 'user';
    return this.db.read(async (em) => {
      const draft = {
        conversation,
        agent,
        thread,
        beforeSeq: asked ? question.seq : question.seq + 1,
        question: asked ? question : null,
        override: turn.override,
        recalled: turn.recalled,
      };
      const planned = await plan(draft, this.history.of(em, conversation));
      return { ...turn, ...this.planned(planned) };
    });
  }

  private planned(plan: TurnPlan): Pick<StartedTurn, 'model' | 'context' | 'summaryCoversSeq'> {
    return { model: plan.model, context: plan.context, summaryCoversSeq: plan.summaryCoversSeq ?? 0 };
  }

  private placeholder(thread: string, planned: TurnPlan, now: Date, questionId: string): NewMessage {
    const { model, context } = planned;
    return {
      role: 'assistant',
      thread,
      parentId: questionId,
      content: '',
      status: 'streaming',
      model,
      leaseUntil: leaseFrom(this.config, now),
      memoryIds: context.memoryIds,
      recalledMessageIds: context.recalledMessageIds,
    };
  }

  /**
   * One reply at a time per thread: its active leaf tells whether one is running. Returns the
   * leaf (null: an empty thread). `leaf`: the leaf already read in this transaction.
   */
  private async refuseIfBusy(
    em: EntityManager,
    conversationId: string,
    thread: string,
    now: Date,
    leaf?: Message | null,
  ): Promise<Message | null> {
    const last = leaf === undefined ? await this.messageRows.lastMessage(em, conversationId, thread) : leaf;
    await this.lease.assertIdle(em, conversationId, last, now, (id) => this.awaitingStorage.causeFor(id));
    return last;
  }
}
