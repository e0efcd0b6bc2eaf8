import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ConversationLimits } from '../conversations/conversation-limits.js';
import { WholeConversationsRepository } from '../conversations/whole-conversations.repository.js';
import { DatabaseService } from '../database/database.service.js';
import { archiveRows, importedMessageId } from './archives/archive-rows.js';
import type { ArchiveConversation } from './archives/archive.types.js';
import { outOfBounds } from './archive-bounds.js';

/** A conversation of an archive imported again: what its earlier import does not hold is added to it. */
@Injectable()
export class ArchiveReimport {
  constructor(
    private readonly db: DatabaseService,
    private readonly whole: WholeConversationsRepository,
    private readonly limits: ConversationLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The messages of the file's conversation that its earlier import (conversation `conversationId`)
   * does not hold, told apart by their ids in the file (importedMessageId), added to it: each under
   * its parent, on the active path when they continue the conversation's active leaf along the
   * file's active path, else as a branch beside it. Null when there is nothing new (or the
   * conversation holds none of the file's messages: it cannot be told what is new); a string is why
   * they are not added.
   */
  async appendNew(
    actor: Actor,
    conversationId: string,
    conversation: ArchiveConversation,
    dryRun: boolean,
  ): Promise<{ messages: number; branches: number } | string | null> {
    const importedAt = new Date();
    const rows = archiveRows(conversation, actor.id, importedAt, conversationId);
    const work = async (em: EntityManager) => {
      const target = await this.whole.importTarget(
        em,
        actor.id,
        conversationId,
        rows.messages.map((m) => m.id),
        !dryRun,
      );
      if (!target || target.held.size === 0) return null;
      const fresh = rows.messages.filter((m) => !target.held.has(m.id));
      if (fresh.length === 0) return null;
      if (target.streaming)
        return 'new messages, not added: a reply is being generated in the conversation; import again once it is done';
      const tooMany = this.limits.messagesOverLimit(target.messageCount + fresh.length);
      if (tooMany) return `${fresh.length} new messages would make ${tooMany}`;
      const problem = outOfBounds(
        {
          ...conversation,
          messages: conversation.messages.filter((m) => !target.held.has(importedMessageId(conversationId, m.id))),
        },
        this.limits,
        this.config.maxMessageChars,
      );
      if (problem) return problem;
      // The file's active path, from the root: its new part stays on our active path only where it goes on from our leaf.
      const byId = new Map(rows.messages.map((m) => [m.id, m] as const));
      const path: string[] = [];
      for (
        let at = rows.messages.find((m) => m.onPath && !rows.messages.some((c) => c.parentId === m.id && c.onPath));
        at;
        at = at.parentId ? byId.get(at.parentId) : undefined
      )
        path.unshift(at.id);
      const firstNew = path.findIndex((id) => !target.held.has(id));
      const continues = firstNew > 0 && path[firstNew - 1] === target.activeLeaf;
      const onPath = new Set(continues ? path.slice(firstNew) : []);
      const added = fresh.map((m, i) => ({ ...m, seq: target.lastSeq + i + 1, onPath: onPath.has(m.id) }));
      const children = new Map<string, number>();
      for (const m of added) if (m.parentId) children.set(m.parentId, (children.get(m.parentId) ?? 0) + 1);
      const branches = [...children.values()].filter((n) => n > 1).length;
      if (!dryRun) {
        await this.whole.insertMessages(em, actor.id, added);
        await this.whole.advanceImported(
          em,
          actor.id,
          conversationId,
          target.lastSeq + added.length,
          rows.conversation.updatedAt,
        );
      }
      return { messages: added.length, branches };
    };
    return dryRun ? this.db.read(work) : this.db.transaction(work);
  }
}
