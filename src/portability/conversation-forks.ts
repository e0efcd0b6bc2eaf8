import { timeOrderedId } from '../common/time-ordered-id.js';
import { Injectable } from '@nestjs/common';
import type { Actor } from '../actor-auth/actor.js';
import type { ReplyError } from '../common/domain-error.js';
import { DatabaseService } from '../database/database.service.js';
import { ConversationLimits } from '../conversations/conversation-limits.js';
import { LimitReachedError, MessageNotFoundError } from '../conversations/conversation.errors.js';
import { ConversationsRepository } from '../conversations/conversations.repository.js';
import { ThreadsRepository } from '../conversations/threads.repository.js';
import { MessagesRepository } from '../conversations/messages.repository.js';
import { ownedConversation } from '../conversations/ownership.js';
import { TITLE_MAX_CHARS } from '../conversations/title.js';
import { ReplyLease } from '../conversations/reply-lease.js';
import { WholeConversationsRepository, type MessageRow } from '../conversations/whole-conversations.repository.js';
import { MAIN_THREAD } from '../conversations/thread.entity.js';
import { SharingService } from '../sharing/sharing.service.js';
import { copyTree } from './linear-to-tree.js';

/** What a forked reply still being generated elsewhere in the conversation becomes in the fork. */
const FORKED_WHILE_STREAMING: ReplyError = {
  code: 'interrupted',
  message: 'The reply was still being generated when the conversation was forked',
};

/**
 * New conversations of the actor that continue another one: one of its own up to a message, or
 * a share's snapshot. Each fork is one transaction with new ids, and counts against the actor's
 * quotas.
 */
@Injectable()
export class ConversationForks {
  constructor(
    private readonly db: DatabaseService,
    private readonly conversations: ConversationsRepository,
    private readonly threadRows: ThreadsRepository,
    private readonly messageRows: MessagesRepository,
    private readonly whole: WholeConversationsRepository,
    private readonly lease: ReplyLease,
    private readonly limits: ConversationLimits,
    private readonly sharing: SharingService,
  ) {}

  /**
   * A new conversation of the actor holding the history up to `fromMessageId` included: every
   * message of every thread with a `seq` up to that message's (the same numbers), the threads
   * they belong to, and the summaries that cover no later message. It has the same agent,
   * state and tags, is neither archived nor pinned, and is titled "<title> (fork)". A message
   * still being generated cannot be forked from (ConversationBusyError); another thread's
   * reply still being generated is copied as failed. Counts against MAX_CONVERSATIONS_PER_ACTOR.
   */
  async fork(actor: Actor, id: string, fromMessageId: string): Promise<string> {
    return this.db.transaction(async (em) => {
      const source = await ownedConversation(this.conversations, em, actor, id);
      const from = await this.messageRows.findMessage(em, source, fromMessageId);
      if (!from) throw new MessageNotFoundError(fromMessageId);
      await this.lease.assertIdle(em, id, from, new Date());
      await this.limits.assertRoomForConversation(em, actor);
      const messages = await this.whole.messagesUpTo(em, id, from.seq);
      const used = new Set(messages.map((m) => m.thread));
      const threads = (await this.threadRows.listThreads(em, id)).filter((t) => used.has(t.name));
      const summaries = (await this.whole.summariesOf(em, id)).filter(
        (s) => used.has(s.thread) && s.coversSeq <= from.seq,
      );
      const tags = await this.whole.tagsOf(em, id);
      const now = new Date();
      const forkId = timeOrderedId();
      await this.whole.insertConversation(em, {
        id: forkId,
        actor: actor.id,
        title: forkTitle(source.title),
        agentId: source.agentId,
        state: source.state ?? {},
        archived: false,
        pinned: false,
        lastSeq: from.seq,
        createdAt: now,
        updatedAt: now,
      });
      await this.whole.insertThreads(
        em,
        actor.id,
        threads.map((t) => ({
          conversationId: forkId,
          name: t.name,
          systemPrompt: t.systemPrompt,
          createdAt: t.createdAt,
          updatedAt: t.updatedAt,
        })),
      );
      await this.whole.insertMessages(
        em,
        actor.id,
        copyTree(messages, from, (m) => forkedMessage(m, forkId)),
      );
      await this.whole.insertSummaries(
        em,
        actor.id,
        summaries.map((s) => ({ ...s, conversationId: forkId })),
      );
      await this.whole.insertTags(em, actor.id, forkId, tags);
      return forkId;
    });
  }

  /**
   * A new conversation of the actor holding a share's snapshot (anyone's share, by its token:
   * ShareNotFoundError when unknown, expired or revoked), to continue from: its messages in
   * order on the main thread, titled "<title> (fork)", with no agent, state or tags of the
   * owner. Counts against MAX_CONVERSATIONS_PER_ACTOR and MAX_MESSAGES_PER_CONVERSATION.
   */
  async forkShared(actor: Actor, token: string): Promise<string> {
    const shared = await this.sharing.read(token);
    const tooMany = this.limits.messagesOverLimit(shared.messages.length);
    if (tooMany) throw new LimitReachedError(`The share has ${tooMany}`);
    return this.db.transaction(async (em) => {
      await this.limits.assertRoomForConversation(em, actor);
      const now = new Date();
      const conversationId = timeOrderedId();
      let parentId: string | null = null;
      const rows = shared.messages.map((m, i): MessageRow => {
        const row: MessageRow = {
          id: timeOrderedId(),
          conversationId,
          seq: i + 1,
          thread: MAIN_THREAD,
          role: m.role,
          content: m.content,
          tokens: null,
          status: m.status === 'streaming' ? 'failed' : m.status,
          model: m.model,
          promptTokens: null,
          completionTokens: null,
          versions: null,
          toolCalls: null,
          errorCode: null,
          errorMessage: null,
          createdAt: new Date(m.createdAt),
          parentId,
          onPath: true,
        };
        parentId = row.id;
        return row;
      });
      const row = {
        id: conversationId,
        actor: actor.id,
        title: forkTitle(shared.title),
        agentId: null,
        state: {},
        archived: false,
        pinned: false,
        lastSeq: rows.length,
        createdAt: now,
        updatedAt: now,
      };
      await this.whole.insertConversation(em, row);
      await this.whole.insertThreads(em, actor.id, [
        { conversationId, name: MAIN_THREAD, systemPrompt: null, createdAt: now, updatedAt: now },
      ]);
      await this.whole.insertMessages(em, actor.id, rows);
      return conversationId;
    });
  }
}

/** "<title> (fork)", the title shortened so that the whole fits in a title's 60 characters. */
export function forkTitle(title: string): string {
  const suffix = ' (fork)';
  const room = TITLE_MAX_CHARS - suffix.length;
  return `${Array.from(title).slice(0, room).join('').trimEnd()}${suffix}`;
}

function forkedMessage(m: MessageRow, conversationId: string): MessageRow {
  const interrupted = m.status === 'streaming';
  return {
    id: timeOrderedId(),
    conversationId,
    seq: m.seq,
    thread: m.thread,
    role: m.role,
    content: m.content,
    tokens: m.tokens,
    status: interrupted ? 'failed' : m.status,
    model: m.model,
    promptTokens: m.promptTokens,
    completionTokens: m.completionTokens,
    versions: m.versions,
    toolCalls: m.toolCalls,
    reasoning: m.reasoning ?? null,
    reasoningMs: m.reasoningMs ?? null,
    errorCode: interrupted ? FORKED_WHILE_STREAMING.code : m.errorCode,
    errorMessage: interrupted ? FORKED_WHILE_STREAMING.message : m.errorMessage,
    createdAt: m.createdAt,
    parentId: m.parentId,
    onPath: m.onPath,
  };
}
