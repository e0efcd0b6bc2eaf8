import { Injectable } from '@nestjs/common';
import { Brackets, type EntityManager } from 'typeorm';
import { Message } from './message.entity.js';

/** A stored message as recall quotes it. */
export interface ExcerptMessage {
  readonly id: string;
  readonly parentId: string | null;
  readonly role: string;
  readonly content: string;
  readonly onPath: boolean;
}

/**
 * What a turn quotes of the messages recall found: their text, and each one's neighbour turn
 * (the message it follows, and the one on the active path that follows it). One read, the
 * caller's rows only.
 */
@Injectable()
export class RecallExcerptsRepository {
  async withNeighbours(em: EntityManager, actor: string, ids: readonly string[]): Promise<Map<string, ExcerptMessage>> {
    if (ids.length === 0) return new Map();
    const rows = await em
      .createQueryBuilder(Message, 'm')
      .select(['m.id', 'm.parentId', 'm.role', 'm.content', 'm.onPath'])
      .where('m.actor = :actor', { actor, ids: [...ids] })
      .andWhere(
        new Brackets((w) =>
          w
            .where('m.id IN (:...ids)')
            .orWhere('m.id IN (SELECT p.parent_id FROM messages p WHERE p.actor = :actor AND p.id IN (:...ids))')
            .orWhere('(m.parentId IN (:...ids) AND m.onPath = 1)'),
        ),
      )
      .getMany();
    return new Map(rows.map((m) => [m.id, { id: m.id, parentId: m.parentId, role: m.role, content: m.content, onPath: m.onPath }]));
  }
}
