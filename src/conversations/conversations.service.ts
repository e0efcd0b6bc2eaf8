import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { DatabaseService } from '../database/database.service.js';
import { AgentInUseError } from '../agents/agent.errors.js';
import { AgentsService, type AgentConversationsOnDelete } from '../agents/agents.service.js';
import type { Conversation, ConversationState } from './conversation.entity.js';
import { decodeCursor, encodeCursor } from './conversation-cursor.js';
import {
  ConversationNotFoundError,
  ForbiddenConversationError,
  InvalidInputError,
  MessageNotFoundError,
  ModelNotOfferedError,
} from './conversation.errors.js';
import { ConversationLimits } from './conversation-limits.js';
import { ConversationsRepository, type ListFilters } from './conversations.repository.js';
import { ThreadsRepository } from './threads.repository.js';
import { ReplyRowsRepository } from './reply-rows.repository.js';
import { MessagesRepository } from './messages.repository.js';
import type { Message } from './message.entity.js';
import { ownedConversation } from './ownership.js';
import { ReplyLease } from './reply-lease.js';
import { withBranches } from './branches.js';
import { MessageTreeRepository } from './message-tree.repository.js';
import { SummariesRepository } from './summaries.repository.js';
import { isJsonObject, mergePatch, validState } from './state.js';
import type { Summary } from './summary.entity.js';
import { MAIN_THREAD, type Thread } from './thread.entity.js';
import { normalizeTags } from './tags.js';
import { titleFromMessage, UNTITLED } from './title.js';
import { ModelCatalog } from '../llm/model-catalog.js';

/** How many of the newest messages a conversation is read with, unless asked otherwise. */
export const DETAIL_MESSAGES = 100;
/** The most messages one read returns (a conversation, or a page of its messages). */
export const MAX_MESSAGES_PER_READ = 200;

interface ConversationDetail {
  readonly conversation: Conversation;
  readonly threads: Thread[];
  /** The newest messages, oldest first (at most the limit asked for). */
  readonly messages: Message[];
  /** The `before` for the page of older messages; null when `messages` starts at the first one. */
  readonly nextBefore: number | null;
  readonly summary: Summary | null;
  readonly usage: { readonly promptTokens: number; readonly completionTokens: number };
}

interface ConversationChanges {
  readonly title?: string;
  readonly archived?: boolean;
  readonly pinned?: boolean;
  readonly tags?: readonly string[];
  /** One of the offered models (ModelCatalog); null: back to the agent's or the default. */
  readonly model?: string | null;
}

interface ConversationPage {
  readonly items: Conversation[];
  readonly nextCursor: string | null;
}

/**
 * Reading, listing and deleting conversations, always on behalf of an actor. Promises: an
 * actor never reads or changes another actor's conversation (ForbiddenConversationError), and
 * a missing id is ConversationNotFoundError. Turns are written by chat's TurnStore.
 */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: ConversationsRepository,
    private readonly threadRows: ThreadsRepository,
    private readonly replyRows: ReplyRowsRepository,
    private readonly lease: ReplyLease,
    private readonly messageRows: MessagesRepository,
    private readonly agents: AgentsService,
    private readonly limits: ConversationLimits,
    private readonly tree: MessageTreeRepository,
    private readonly summaries: SummariesRepository,
    private readonly models: ModelCatalog,
  ) {}

  /** Refuses a model that is not offered (ModelNotOfferedError), before anything is written. */
  async assertModelOffered(model: string | null | undefined): Promise<void> {
    if (model === undefined || model === null || (await this.models.offers(model))) return;
    throw new ModelNotOfferedError(
      `The model "${model}" is not offered here (GET /api/models lists the models offered)`,
    );
  }

  /**
   * Creates an empty conversation ("New conversation" unless titled), bound to one of the
   * actor's agents when `agentId` is given, with an initial state. `memory: false`: a temporary
   * chat, whose turns neither read nor write long-term memories.
   */
  async create(
    actor: Actor,
    input: { title?: string; agentId?: string; state?: unknown; memory?: boolean; model?: string } = {},
  ): Promise<Conversation> {
    const title = input.title === undefined ? undefined : titleFromMessage(input.title);
    const state = input.state === undefined ? {} : validState(input.state);
    await this.assertModelOffered(input.model);
    return this.db.transaction(async (em) => {
      const agent = input.agentId ? await this.agents.usableIn(em, actor, input.agentId) : null;
      await this.limits.assertRoomForConversation(em, actor);
      const extra = { agentId: agent?.id ?? null, state, memory: input.memory ?? true, model: input.model ?? null };
      return this.repo.insertConversation(em, actor.id, title ?? UNTITLED, new Date(), extra);
    });
  }

  /**
   * The actor's most recently updated conversation, if any: "the current one" for chat
   * surfaces. `agentId` narrows to one agent's (null: conversations without an agent).
   */
  mostRecent(actor: Actor, agentId?: string | null): Promise<Conversation | null> {
    return this.db.read(async (em) => {
      if (agentId) await this.agents.usableIn(em, actor, agentId);
      return (await this.repo.listByActor(em, actor.id, 1, undefined, agentId))[0] ?? null;
    });
  }

  /**
   * Deletes the actor's agent; never deletes or orphans a conversation by surprise: with
   * conversations it needs `detach` or `delete` (else AgentInUseError). Returns how many were
   * detached or deleted. An agent offered to other actors may have conversations of theirs:
   * `delete` deletes only the owner's, and detaches theirs, never deleting another actor's data.
   */
  deleteAgent(actor: Actor, agentId: string, conversations: AgentConversationsOnDelete): Promise<number> {
    return this.db.transaction(async (em) => {
      await this.agents.ownedIn(em, actor, agentId);
      const count = await this.repo.countWithAgent(em, agentId);
      if (count > 0 && conversations === 'refuse') throw new AgentInUseError(agentId, count);
      if (count > 0) await this.repo.deleteOrDetachAgent(em, actor.id, agentId, conversations === 'delete');
      await this.agents.deleteIn(em, actor, agentId);
      return count;
    });
  }

  /** Marks the conversation as just used, so it becomes the most recent. */
  touch(actor: Actor, id: string): Promise<Conversation> {
    return this.db.transaction(async (em) => {
      const conversation = await ownedConversation(this.repo, em, actor, id);
      conversation.updatedAt = new Date();
      await this.repo.touchConversation(em, id, conversation.updatedAt);
      return conversation;
    });
  }

  /**
   * A page of the active path from the newest backwards: the last `limit` messages with `seq`
   * below `before` (all when omitted), returned oldest first. Walks the path's own index.
   */
  messagesPage(
    actor: Actor,
    id: string,
    page: { before?: number; limit: number; thread?: string },
  ): Promise<Message[]> {
    return this.db.replicaRead(actor.id, async (em) => {
      await ownedConversation(this.repo, em, actor, id);
      return withBranches(
        this.tree,
        em,
        id,
        await this.messageRows.messagesBefore(em, id, page.before, page.limit, page.thread),
      );
    });
  }

  /**
   * One message of the actor's conversation, as stored (without its place in the tree: what a
   * follower polls). A `streaming` reply whose lease ran out is closed first, so a reader never
   * waits on a dead generator.
   */
  async getMessage(actor: Actor, conversationId: string, messageId: string): Promise<Message> {
    // A read, unless the reply must be closed: a follower's or a cancel's read commits nothing.
    const message = await this.db.read(async (em) => {
      await ownedConversation(this.repo, em, actor, conversationId);
      return this.messageRows.findMessage(em, { id: conversationId, actor: actor.id }, messageId);
    });
    if (message && (message.status !== 'streaming' || (message.leaseUntil && message.leaseUntil >= new Date())))
      return message;
    return this.db.transaction((em) => this.readMessage(em, actor, conversationId, messageId));
  }

  /**
   * What many followers read at once, in one read: for each, the actor's message as stored, or
   * null when `getMessage` must answer instead (not the actor's, gone, or a `streaming` reply
   * whose lease ran out, which it closes). `asOf` (a performance.now() reading, after every
   * wake-up these reads answer): with read replicas, they run on one that holds every commit
   * before it, so no follower reads an older text than the save that woke it.
   */
  followedMessages(
    reads: ReadonlyArray<{ readonly actor: Actor; readonly conversationId: string; readonly messageId: string }>,
    asOf = performance.now(),
  ): Promise<Array<Message | null>> {
    return this.db.replicaReadAsOf(asOf, async (em) => {
      const ids = [...new Set(reads.map((r) => r.messageId))];
      const actors = [...new Set(reads.map((r) => r.actor.id))];
      const found = new Map((await this.replyRows.messagesOf(em, ids, actors)).map((m) => [m.id, m]));
      const now = new Date();
      return reads.map((read) => {
        const message = found.get(read.messageId);
        if (!message || message.actor !== read.actor.id || message.conversationId !== read.conversationId) return null;
        const expired = message.status === 'streaming' && !(message.leaseUntil && message.leaseUntil >= now);
        // Each reader gets its own copy: followers of one reply must not share an object.
        return expired ? null : { ...message };
      });
    });
  }

  /** The same, with its place in the tree (siblings, other answers), as the API shows a message. */
  getMessageInTree(actor: Actor, conversationId: string, messageId: string): Promise<Message> {
    return this.db.transaction(
      async (em) =>
        (
          await withBranches(this.tree, em, conversationId, [
            await this.readMessage(em, actor, conversationId, messageId),
          ])
        )[0],
    );
  }

  private async readMessage(
    em: EntityManager,
    actor: Actor,
    conversationId: string,
    messageId: string,
  ): Promise<Message> {
    await ownedConversation(this.repo, em, actor, conversationId);
    const message = await this.messageRows.findMessage(em, { id: conversationId, actor: actor.id }, messageId);
    if (!message) throw new MessageNotFoundError(messageId);
    await this.lease.closeIfExpired(em, message, new Date());
    return message;
  }

  /**
   * The conversation with its threads, its newest messages in order (one thread's when named),
   * the running summary of that thread (main by default) and its token totals. Bounded: a
   * conversation of any length costs the same to open; older messages come page by page.
   */
  getWithMessages(
    actor: Actor,
    id: string,
    options: { thread?: string; limit?: number } = {},
  ): Promise<ConversationDetail> {
    const { thread, limit = DETAIL_MESSAGES } = options;
    return this.db.replicaRead(actor.id, async (em) => {
      const [conversation] = await this.withTags(em, [await ownedConversation(this.repo, em, actor, id)]);
      // One extra message tells whether older ones exist.
      const newest = await this.messageRows.messagesBefore(em, id, undefined, limit + 1, thread);
      const messages = await withBranches(this.tree, em, id, newest.slice(-limit));
      return {
        conversation,
        threads: await this.threadRows.listThreads(em, id),
        messages,
        nextBefore: newest.length > limit ? messages[0].seq : null,
        summary: await this.summaries.findSummary(em, id, thread ?? MAIN_THREAD),
        usage: await this.messageRows.usageTotals(em, { id, actor: actor.id }),
      };
    });
  }

  async getState(actor: Actor, id: string): Promise<ConversationState> {
    return (await this.db.replicaRead(actor.id, (em) => ownedConversation(this.repo, em, actor, id))).state;
  }

  /** Replaces the state with `state` (a JSON object of at most 64 KB). */
  replaceState(actor: Actor, id: string, state: unknown): Promise<ConversationState> {
    const next = validState(state);
    return this.changeState(actor, id, () => next);
  }

  /** Applies `patch` to the state as a JSON merge patch (RFC 7396); the result must stay within 64 KB. */
  patchState(actor: Actor, id: string, patch: unknown): Promise<ConversationState> {
    if (!isJsonObject(patch)) throw new InvalidInputError('a state patch must be a JSON object');
    return this.changeState(actor, id, (current) => validState(mergePatch(current, patch)));
  }

  /** Read, change and write under the conversation's lock, so concurrent patches never lose one another. */
  private changeState(
    actor: Actor,
    id: string,
    change: (current: ConversationState) => ConversationState,
  ): Promise<ConversationState> {
    return this.db.transaction(async (em) => {
      const conversation = await ownedConversation(this.repo, em, actor, id, true);
      const next = change(conversation.state ?? {});
      await this.repo.updateState(em, id, next, new Date());
      return next;
    });
  }

  /** The actor's conversation alone (without messages): a cheap read for surfaces that page messages themselves. */
  get(actor: Actor, id: string): Promise<Conversation> {
    return this.db.read((em) => ownedConversation(this.repo, em, actor, id));
  }

  /**
   * The actor's most recently updated conversations (archived ones left out), at most `limit`,
   * updated strictly before `before` and strictly after `after` when given.
   */
  recent(actor: Actor, limit: number, window: { before?: Date; after?: Date } = {}): Promise<Conversation[]> {
    // The smallest id makes the keyset position "strictly before this instant".
    const start = window.before ? { updatedAt: window.before, id: '00000000-0000-0000-0000-000000000000' } : undefined;
    return this.db.replicaRead(actor.id, async (em) => {
      const rows = await this.repo.listByActor(em, actor.id, limit, start);
      // Newest first: those after `after` are a prefix.
      const after = window.after;
      const kept = after ? rows.filter((c) => c.updatedAt.getTime() > after.getTime()) : rows;
      return this.withTags(em, kept);
    });
  }

  /**
   * A page of the actor's conversations; `agentId` narrows to one agent's (null: without an
   * agent); archived ones only with `archived: true`.
   */
  list(
    actor: Actor,
    limit: number,
    cursor?: string,
    agentId?: string | null,
    filters: ListFilters = {},
  ): Promise<ConversationPage> {
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    if (cursor !== undefined && !after) throw new InvalidInputError('cursor is not one this service returned');
    // A cursor holds its place in one order: read in the other, it would skip or repeat rows.
    if (after && (after.pinned !== undefined) !== Boolean(filters.pinnedFirst)) {
      throw new InvalidInputError(
        `cursor is from a list ${filters.pinnedFirst ? 'without' : 'with'} pinnedFirst: keep the order the cursor was made in`,
      );
    }
    return this.db.replicaRead(actor.id, async (em) => {
      if (agentId) await this.agents.usableIn(em, actor, agentId);
      // One extra row tells whether another page exists without a COUNT.
      const rows = await this.repo.listByActor(em, actor.id, limit + 1, after, agentId, filters);
      const items = await this.withTags(em, rows.slice(0, limit));
      const last = items.at(-1);
      const position = last && {
        updatedAt: last.updatedAt,
        id: last.id,
        ...(filters.pinnedFirst ? { pinned: Boolean(last.pinned) } : {}),
      };
      return { items, nextCursor: rows.length > limit && position ? encodeCursor(position) : null };
    });
  }

  /** Renames, archives, pins or re-tags a conversation; answers it as it now is. */
  async update(actor: Actor, id: string, changes: ConversationChanges): Promise<Conversation> {
    await this.assertModelOffered(changes.model);
    return this.db.transaction(async (em) => {
      const conversation = await ownedConversation(this.repo, em, actor, id, true);
      const flags = {
        ...(changes.title !== undefined ? { title: titleFromMessage(changes.title) } : {}),
        ...(changes.archived !== undefined ? { archived: changes.archived } : {}),
        ...(changes.pinned !== undefined ? { pinned: changes.pinned } : {}),
        ...(changes.model !== undefined ? { model: changes.model } : {}),
      };
      await this.repo.updateFlags(em, id, flags);
      Object.assign(conversation, flags);
      if (changes.tags !== undefined) await this.repo.replaceTags(em, conversation, normalizeTags(changes.tags));
      return (await this.withTags(em, [conversation]))[0];
    });
  }

  /** Replaces a title given automatically with `to`, unless it is no longer `from` (the user renamed it); false then. */
  retitleIf(actor: Actor, id: string, from: string, to: string): Promise<boolean> {
    return this.db.transaction((em) => this.repo.retitleIf(em, actor.id, id, from, to));
  }

  private async withTags(em: EntityManager, conversations: Conversation[]): Promise<Conversation[]> {
    const tags = await this.repo.tagsOf(em, conversations);
    for (const c of conversations) c.tags = tags.get(c.id) ?? [];
    return conversations;
  }

  delete(actor: Actor, id: string): Promise<void> {
    return this.db.transaction(async (em) => {
      if (await this.repo.deleteOwned(em, actor.id, id)) return;
      throw (await this.repo.exists(em, id)) ? new ForbiddenConversationError(id) : new ConversationNotFoundError(id);
    });
  }
}
