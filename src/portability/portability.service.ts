import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import type { ReplyError } from '../common/domain-error.js';
import { AgentsService } from '../agents/agents.service.js';
import { MemoryService } from '../memory/memory.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DatabaseService } from '../database/database.service.js';
import { ConversationLimits } from '../conversations/conversation-limits.js';
import type { Conversation } from '../conversations/conversation.entity.js';
import type { Summary } from '../conversations/summary.entity.js';
import { LimitReachedError, MessageNotFoundError } from '../conversations/conversation.errors.js';
import { ConversationsRepository } from '../conversations/conversations.repository.js';
import { ThreadsRepository } from '../conversations/threads.repository.js';
import { MessagesRepository } from '../conversations/messages.repository.js';
import { exportAgent, exportConversation } from './export-build.js';
import {
  ACCOUNT_EXPORT_FORMAT,
  EXPORT_VERSION,
  type AccountExport,
  type ConversationExport,
  type ExportVersion,
} from './export-document.js';
import { parseConversationExport } from './export-parse.js';
import { treeToRows } from './export-tree.js';
import { SummariesRepository } from '../conversations/summaries.repository.js';
import { activeLeavesOf, copyTree, linearToTree, treeToLinear } from './linear-to-tree.js';
import { renderMarkdown } from './export-markdown.js';
import { ownedConversation } from '../conversations/ownership.js';
import { TITLE_MAX_CHARS } from '../conversations/title.js';
import { ReplyLease } from '../conversations/reply-lease.js';
import { WholeConversationsRepository, type MessageRow } from '../conversations/whole-conversations.repository.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import { shareRecord, SharingService } from '../sharing/sharing.service.js';
import { MAIN_THREAD } from '../conversations/thread.entity.js';
import { OAuthService } from '../oauth/oauth.service.js';

/** Conversations erased per transaction, so that erasing a large account never holds the database for long. */
const ERASE_BATCH = 500;

/** What erasing an actor's data removed. */
interface ErasedData {
  readonly conversations: number;
  readonly messages: number;
  readonly threads: number;
  readonly summaries: number;
  readonly tags: number;
  readonly agents: number;
  readonly idempotencyKeys: number;
  readonly memories: number;
}

/** What a forked reply still being generated elsewhere in the conversation becomes in the fork. */
const FORKED_WHILE_STREAMING: ReplyError = {
  code: 'interrupted',
  message: 'The reply was still being generated when the conversation was forked',
};

/**
 * Conversations leaving and entering the service, and an actor's data as a whole: export (JSON
 * or Markdown), import, fork, the account export and erasure. Promises: every read and write
 * is the caller's own (another actor's conversation is ForbiddenConversationError, another
 * actor's agent AgentNotFoundError); an import or a fork is one transaction (all or nothing)
 * and always gets new ids.
 */
@Injectable()
export class PortabilityService {
  constructor(
    private readonly db: DatabaseService,
    private readonly conversations: ConversationsRepository,
    private readonly threadRows: ThreadsRepository,
    private readonly messageRows: MessagesRepository,
    private readonly whole: WholeConversationsRepository,
    private readonly summaries: SummariesRepository,
    private readonly agents: AgentsService,
    private readonly idempotency: IdempotencyService,
    private readonly lease: ReplyLease,
    private readonly limits: ConversationLimits,
    private readonly memories: MemoryService,
    private readonly sharing: SharingService,
    private readonly oauth: OAuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** One conversation of the actor in the export format (version 2, the whole tree, unless asked for 1). */
  exportConversation(actor: Actor, id: string, version: ExportVersion = EXPORT_VERSION): Promise<ConversationExport> {
    return this.db.replicaRead(actor.id, async (em) =>
      this.exportIn(em, actor, await ownedConversation(this.conversations, em, actor, id), new Date(), version),
    );
  }

  /** The same, as a Markdown transcript of the active paths. */
  async exportMarkdown(actor: Actor, id: string): Promise<{ title: string; text: string }> {
    const doc = await this.exportConversation(actor, id, 1);
    return { title: doc.conversation.title, text: renderMarkdown(doc) };
  }

  /**
   * Everything of the actor: its agents and every conversation (archived included), one unit
   * of work per conversation so a large account does not hold the database. A conversation
   * deleted meanwhile is left out. Idempotency keys (stored answers of retried requests) are
   * not part of it.
   */
  async exportAccount(actor: Actor, version: ExportVersion = EXPORT_VERSION): Promise<AccountExport> {
    const exportedAt = new Date();
    const agents = await this.agents.list(actor);
    const ids = await this.db.replicaRead(actor.id, (em) => this.whole.conversationIdsOf(em, actor.id));
    const conversations: ConversationExport[] = [];
    for (const id of ids) {
      const doc = await this.db.replicaRead(actor.id, async (em) => {
        const conversation = await this.conversations.findOwned(em, actor.id, id);
        return conversation ? this.exportIn(em, actor, conversation, exportedAt, version) : null;
      });
      if (doc) conversations.push(doc);
    }
    return {
      format: ACCOUNT_EXPORT_FORMAT,
      version,
      exportedAt: exportedAt.toISOString(),
      actor: actor.id,
      agents: agents.map((a) => exportAgent(a, true)),
      conversations,
      memories: (await this.memories.exportFor(actor)).map((m) => ({
        id: m.id,
        text: m.text,
        pinned: m.pinned,
        agentId: m.agentId,
        createdAt: m.createdAt.toISOString(),
        updatedAt: m.updatedAt.toISOString(),
      })),
      shares: (await this.sharing.exportFor(actor)).map(shareRecord),
    };
  }

  /**
   * Creates a conversation of the actor from a conversation export (validated first:
   * ImportRejectedError lists what is wrong). The file's agent is not attached; `agentId`, one
   * of the actor's own agents, is. The conversation's `updatedAt` is the time of the import.
   * Counts against MAX_CONVERSATIONS_PER_ACTOR, and holds at most MAX_MESSAGES_PER_CONVERSATION
   * messages (LimitReachedError).
   */
  async importConversation(
    actor: Actor,
    document: unknown,
    agentId?: string,
    importSource?: string,
  ): Promise<Conversation> {
    const parsed = await parseConversationExport(document, { maxMessageChars: this.config.maxMessageChars });
    const tooMany = this.limits.messagesOverLimit(parsed.messages.length);
    if (tooMany) throw new LimitReachedError(`The conversation has ${tooMany}`);
    return this.db.transaction(async (em) => {
      const agent = agentId ? await this.agents.ownedIn(em, actor, agentId) : null;
      await this.limits.assertRoomForConversation(em, actor);
      const now = new Date();
      const conversationId = randomUUID();
      const tree = parsed.tree
        ? { rows: treeToRows(parsed.messages, parsed.tree, conversationId), lastSeq: parsed.messages.length }
        : linearToTree(parsed.messages, conversationId);
      const row = {
        id: conversationId,
        actor: actor.id,
        title: parsed.title,
        agentId: agent?.id ?? null,
        state: parsed.state,
        archived: parsed.archived,
        pinned: parsed.pinned,
        lastSeq: tree.lastSeq,
        createdAt: parsed.createdAt,
        updatedAt: now,
        importSource: importSource ?? null,
      };
      const conversation = await this.whole.insertConversation(em, row);
      await this.whole.insertThreads(
        em,
        actor.id,
        parsed.threads.map((t) => ({ conversationId, ...t })),
      );
      await this.whole.insertMessages(em, actor.id, tree.rows);
      await this.whole.insertSummaries(
        em,
        actor.id,
        parsed.summaries.map((s) => ({ conversationId, ...s })),
      );
      await this.whole.insertTags(em, actor.id, conversationId, parsed.tags);
      return Object.assign(conversation, { tags: parsed.tags });
    });
  }

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
      const forkId = randomUUID();
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
      const conversationId = randomUUID();
      let parentId: string | null = null;
      const rows = shared.messages.map((m, i): MessageRow => {
        const row: MessageRow = {
          id: randomUUID(),
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

  /**
   * Erases everything of the actor: its MCP hosts' OAuth tokens, its idempotency keys, its conversations with their
   * messages, threads, summaries and tags (ERASE_BATCH per transaction), then its agents (a
   * conversation of another actor that used one of them is kept, without an agent). Answers
   * what was removed. Nothing of another actor is deleted.
   */
  async eraseAccount(actor: Actor): Promise<ErasedData> {
    const totals = {
      conversations: 0,
      messages: 0,
      threads: 0,
      summaries: 0,
      tags: 0,
      agents: 0,
      idempotencyKeys: 0,
      memories: 0,
    };
    totals.memories += await this.memories.eraseFor(actor);
    // The MCP hosts it connected lose their access first.
    await this.oauth.eraseFor(actor);
    totals.idempotencyKeys += await this.db.transaction((em) => this.idempotency.eraseFor(em, actor));
    for (;;) {
      const batch = await this.db.transaction(async (em) => {
        const ids = await this.whole.someConversationIdsOf(em, actor.id, ERASE_BATCH);
        if (ids.length === 0) return null;
        const contents = await this.whole.contentsOf(em, ids);
        return { ...contents, conversations: await this.whole.deleteConversations(em, actor.id, ids) };
      });
      if (!batch) break;
      totals.conversations += batch.conversations;
      totals.messages += batch.messages;
      totals.threads += batch.threads;
      totals.summaries += batch.summaries;
      totals.tags += batch.tags;
    }
    await this.db.transaction(async (em) => {
      // Other actors' conversations with these agents (offered ones) go on without one: no
      // foreign key does it (an offered agent is another actor's row, docs/operations.md).
      await this.whole.detachAgents(em, await this.agents.idsIn(em, actor));
      totals.agents += await this.agents.eraseFor(em, actor);
      // Memories the model wrote while the conversations were being erased.
      totals.memories += await this.memories.eraseIn(em, actor);
      // Keys claimed by requests that ran while the conversations were being erased.
      totals.idempotencyKeys += await this.idempotency.eraseFor(em, actor);
    });
    return totals;
  }

  private async exportIn(
    em: EntityManager,
    actor: Actor,
    conversation: Conversation,
    exportedAt: Date,
    version: ExportVersion,
  ): Promise<ConversationExport> {
    const id = conversation.id;
    const agent = conversation.agentId ? await this.agents.attachedIn(em, conversation.agentId) : null;
    const all = await this.messageRows.allMessages(em, id);
    const common = {
      conversation,
      tags: await this.whole.tagsOf(em, id),
      agent: agent ? exportAgent(agent, agent.actor === actor.id) : null,
      threads: await this.threadRows.listThreads(em, id),
    };
    if (version === 2) {
      // The whole tree as stored, and every summary: one of a branch left aside stands again when that branch is selected.
      return exportConversation(
        {
          ...common,
          summaries: await this.whole.summariesOf(em, id),
          messages: all,
          activeLeaves: activeLeavesOf(all),
        },
        exportedAt,
        2,
      );
    }
    const { messages, renumber } = treeToLinear(all);
    // A summary of a branch the thread has left stands for nothing on its path: not exported.
    const summaries = [];
    for (const s of await this.whole.summariesOf(em, id)) {
      if (await this.summaries.findSummary(em, id, s.thread))
        summaries.push(
          Object.assign(Object.create(Object.getPrototypeOf(s) as object) as Summary, s, {
            coversSeq: renumber(s.coversSeq),
          }),
        );
    }
    return exportConversation({ ...common, summaries, messages }, exportedAt, 1);
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
    id: randomUUID(),
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
