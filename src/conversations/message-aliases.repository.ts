import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EntityRows, sql } from '../database/sql.js';
import { MessageAlias } from './message-alias.entity.js';

/** The table of message aliases (a client's own ids for messages); the actor and the conversation are in every query. */
@Injectable()
export class MessageAliasesRepository {
  /** The message the client calls `alias` in the conversation, or null. */
  async find(em: EntityManager, actor: string, conversationId: string, alias: string): Promise<string | null> {
    const row = await EntityRows.of(em, MessageAlias).findOne(
      em,
      '"actor" = ? AND "conversation_id" = ? AND "alias" = ?',
      [actor, conversationId, alias],
    );
    return row?.messageId ?? null;
  }

  /** Gives a message the client's id; an id already in use moves to it (an edit keeps the edited message's id). */
  async name(
    em: EntityManager,
    actor: string,
    conversationId: string,
    alias: string,
    messageId: string,
    now: Date,
  ): Promise<void> {
    const { text, params } = EntityRows.of(em, MessageAlias).insertStatement([
      Object.assign(new MessageAlias(), { actor, conversationId, alias, messageId, createdAt: now }),
    ]);
    await sql(
      em,
      `${text} ON CONFLICT ("actor", "conversation_id", "alias") DO UPDATE SET "message_id" = excluded."message_id", "created_at" = excluded."created_at"`,
      params,
    );
  }

  /** The client's ids of these messages of the conversation (message id -> alias), in one query. */
  async aliasesOf(
    em: EntityManager,
    actor: string,
    conversationId: string,
    messageIds: readonly string[],
  ): Promise<Map<string, string>> {
    if (messageIds.length === 0) return new Map();
    const marks = messageIds.map(() => '?').join(', ');
    const rows = await EntityRows.of(em, MessageAlias).find(
      em,
      `"conversation_id" = ? AND "actor" = ? AND "message_id" IN (${marks})`,
      [conversationId, actor, ...messageIds],
    );
    return new Map(rows.map((r) => [r.messageId, r.alias]));
  }
}
