import { timeOrderedId } from '../common/time-ordered-id.js';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { AgentsService } from '../agents/agents.service.js';
import { MemoryService } from '../memory/memory.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DatabaseService } from '../database/database.service.js';
import { ConversationLimits } from '../conversations/conversation-limits.js';
import type { Conversation } from '../conversations/conversation.entity.js';
import type { Summary } from '../conversations/summary.entity.js';
import { LimitReachedError } from '../conversations/conversation.errors.js';
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
import { activeLeavesOf, linearToTree, treeToLinear } from './linear-to-tree.js';
import { renderMarkdown } from './export-markdown.js';
import { ownedConversation } from '../conversations/ownership.js';
import { WholeConversationsRepository } from '../conversations/whole-conversations.repository.js';
import { shareRecord, SharingService } from '../sharing/sharing.service.js';
import { AccountErasure, type ErasedData } from './account-erasure.js';
import { ConversationForks } from './conversation-forks.js';

/**
 * Conversations leaving and entering the service, and an actor's data as a whole: export (JSON
 * or Markdown), import, fork, the account export and erasure; forks are ConversationForks' and
 * erasure is AccountErasure's, answered here so that the surfaces know one service. Promises:
 * every read and write is the caller's own (another actor's conversation is
 * ForbiddenConversationError, another actor's agent AgentNotFoundError); an import or a fork is
 * one transaction (all or nothing) and always gets new ids.
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
    private readonly limits: ConversationLimits,
    private readonly memories: MemoryService,
    private readonly sharing: SharingService,
    private readonly forks: ConversationForks,
    private readonly erasure: AccountErasure,
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
      const conversationId = timeOrderedId();
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

  /** See ConversationForks.fork: a new conversation holding the history up to a message. */
  fork(actor: Actor, id: string, fromMessageId: string): Promise<string> {
    return this.forks.fork(actor, id, fromMessageId);
  }

  /** See ConversationForks.forkShared: a new conversation holding a share's snapshot. */
  forkShared(actor: Actor, token: string): Promise<string> {
    return this.forks.forkShared(actor, token);
  }

  /** See AccountErasure.eraseAccount: everything of the actor, and what was removed. */
  eraseAccount(actor: Actor): Promise<ErasedData> {
    return this.erasure.eraseAccount(actor);
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
