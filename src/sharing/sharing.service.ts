import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { IsNull, MoreThan, type EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DatabaseService } from '../database/database.service.js';
import { ConversationTreeService } from '../conversations/conversation-tree.service.js';
import { InvalidInputError, LimitReachedError } from '../conversations/conversation.errors.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { Share, type SharedMessage } from './share.entity.js';
import { ShareNotFoundError } from './share.errors.js';
import { hashShareToken, newShareToken, SHARE_TOKEN_PATTERN } from './share-token.js';

/** Shares one conversation may have at once: a link is cheap to make, its snapshot is not small. */
const MAX_SHARES_PER_CONVERSATION = 100;

/** A share as its owner sees it: never its token (only its hash is kept) nor its snapshot. */
export type ShareInfo = Pick<
  Share,
  'id' | 'conversationId' | 'title' | 'upToMessageId' | 'messageCount' | 'createdAt' | 'expiresAt'
>;

/** A share as JSON (the API's listing and the account export write the same fields). */
interface ShareRecord {
  readonly id: string;
  readonly conversationId: string;
  readonly title: string;
  readonly upToMessageId: string;
  readonly messageCount: number;
  readonly createdAt: string;
  readonly expiresAt: string | null;
}

export function shareRecord(s: ShareInfo): ShareRecord {
  return {
    id: s.id,
    conversationId: s.conversationId,
    title: s.title,
    upToMessageId: s.upToMessageId,
    messageCount: s.messageCount,
    createdAt: s.createdAt.toISOString(),
    expiresAt: s.expiresAt?.toISOString() ?? null,
  };
}

/** What a reader of a link gets: the title and the snapshot's messages, nothing of the owner. */
export interface SharedConversation {
  readonly title: string;
  readonly messages: readonly SharedMessage[];
  readonly createdAt: Date;
}

const INFO_COLUMNS = {
  id: true,
  conversationId: true,
  title: true,
  upToMessageId: true,
  messageCount: true,
  createdAt: true,
  expiresAt: true,
} as const;

/**
 * Read-only links to a snapshot of one branch of a conversation (this module owns `shares`).
 * Promises: the snapshot is copied when the share is made, so later turns and edits never
 * show through it; the token is answered once and only its hash is stored; an unknown,
 * expired or revoked token, and another actor's share id, are all ShareNotFoundError. Every
 * read goes to the database (no cache), so a revoked link answers 404 on every instance at once.
 */
@Injectable()
export class SharingService {
  constructor(
    private readonly db: DatabaseService,
    private readonly tree: ConversationTreeService,
    private readonly conversations: ConversationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Gives every share of `from` to `to`, in the caller's unit of work; the links keep working. */
  async moveActorIn(em: EntityManager, from: Actor, to: Actor): Promise<number> {
    return (await em.update(Share, { actor: from.id }, { actor: to.id })).affected ?? 0;
  }

  /** The link of a token: under PUBLIC_BASE_URL when set, else relative to the service (the web page serves /s/<token>). */
  urlOf(token: string): string {
    return `${this.config.publicBaseUrl ?? ''}/s/${token}`;
  }

  /**
   * Shares the actor's conversation as it is now: its main active path, or the branch up to
   * `messageId`. `expiresAt` (in the future) ends the link by itself. Answers the share and
   * its token and link (the only time either is known).
   */
  create(
    actor: Actor,
    conversationId: string,
    options: { messageId?: string; expiresAt?: Date } = {},
  ): Promise<{ share: ShareInfo; token: string; url: string }> {
    const now = new Date();
    if (options.expiresAt && options.expiresAt.getTime() <= now.getTime())
      throw new InvalidInputError('expiresAt must be in the future');
    return this.db.transaction(async (em) => {
      const { conversation, leaf, messages } = await this.tree.branchIn(em, actor, conversationId, options.messageId);
      const existing = await em.count(Share, { where: { actor: actor.id, conversationId } });
      if (existing >= MAX_SHARES_PER_CONVERSATION) {
        throw new LimitReachedError(
          `The conversation has ${existing} shares; revoke one first (at most ${MAX_SHARES_PER_CONVERSATION})`,
        );
      }
      const token = newShareToken();
      const share = Object.assign(new Share(), {
        id: randomUUID(),
        actor: actor.id,
        conversationId,
        tokenHash: hashShareToken(token),
        title: conversation.title,
        upToMessageId: leaf.id,
        messageCount: messages.length,
        messages: messages.map((m) => ({
          role: m.role,
          content: m.content,
          model: m.model,
          status: m.status,
          createdAt: m.createdAt.toISOString(),
        })),
        createdAt: now,
        expiresAt: options.expiresAt ?? null,
      });
      await em.insert(Share, share);
      return { share: infoOf(share), token, url: this.urlOf(token) };
    });
  }

  /** The shares of the actor's conversation, newest first (expired ones included, until revoked). */
  async list(actor: Actor, conversationId: string): Promise<ShareInfo[]> {
    await this.conversations.get(actor, conversationId);
    return this.db.read((em) =>
      em.find(Share, {
        select: INFO_COLUMNS,
        where: { actor: actor.id, conversationId },
        order: { createdAt: 'DESC', id: 'DESC' },
      }),
    );
  }

  /** Every share of the actor, oldest first (the account export). */
  exportFor(actor: Actor): Promise<ShareInfo[]> {
    return this.db.read((em) =>
      em.find(Share, { select: INFO_COLUMNS, where: { actor: actor.id }, order: { createdAt: 'ASC', id: 'ASC' } }),
    );
  }

  /** Revokes the actor's share: its link answers like an unknown one from now on, everywhere. */
  async revoke(actor: Actor, shareId: string): Promise<void> {
    const { affected } = await this.db.transaction((em) => em.delete(Share, { id: shareId, actor: actor.id }));
    if (!affected) throw new ShareNotFoundError();
  }

  /** Revokes every share of the actor's conversation; answers how many. */
  async revokeAll(actor: Actor, conversationId: string): Promise<number> {
    await this.conversations.get(actor, conversationId);
    const { affected } = await this.db.transaction((em) => em.delete(Share, { actor: actor.id, conversationId }));
    return affected ?? 0;
  }

  /** The snapshot a link shows, for anyone holding its token; ShareNotFoundError when unknown, expired or revoked. */
  async read(token: string): Promise<SharedConversation> {
    if (!SHARE_TOKEN_PATTERN.test(token)) throw new ShareNotFoundError();
    const tokenHash = hashShareToken(token);
    const now = new Date();
    const share = await this.db.read((em) =>
      em.findOne(Share, {
        select: { title: true, messages: true, createdAt: true },
        where: [
          { tokenHash, expiresAt: IsNull() },
          { tokenHash, expiresAt: MoreThan(now) },
        ],
      }),
    );
    if (!share) throw new ShareNotFoundError();
    return { title: share.title, messages: share.messages, createdAt: share.createdAt };
  }
}

function infoOf(share: Share): ShareInfo {
  const { id, conversationId, title, upToMessageId, messageCount, createdAt, expiresAt } = share;
  return { id, conversationId, title, upToMessageId, messageCount, createdAt, expiresAt };
}
