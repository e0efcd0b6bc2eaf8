import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EntityRows } from '../database/sql.js';
import { ConversationAlias } from './conversation-alias.entity.js';

/** The table of conversation aliases (a client's own names for its conversations); the actor is in every query. */
@Injectable()
export class ConversationAliasesRepository {
  /** The conversation the actor named `alias`, or null. */
  async find(em: EntityManager, actor: string, alias: string): Promise<string | null> {
    const row = await EntityRows.of(em, ConversationAlias).findOne(em, '"actor" = ? AND "alias" = ?', [actor, alias]);
    return row?.conversationId ?? null;
  }

  /** Gives every alias of `from` to `to` (their conversations move with them: WholeConversationsRepository.moveActor). */
  async moveActor(em: EntityManager, from: string, to: string): Promise<number> {
    return (await em.update(ConversationAlias, { actor: from }, { actor: to })).affected ?? 0;
  }

  /** Names a conversation; false when the actor already uses the name (for another conversation, or a turn racing this one). */
  async claim(em: EntityManager, actor: string, alias: string, conversationId: string, now: Date): Promise<boolean> {
    const row = Object.assign(new ConversationAlias(), { actor, alias, conversationId, createdAt: now });
    return (await EntityRows.of(em, ConversationAlias).insert(em, [row], { ifAbsent: true })) === 1;
  }
}
