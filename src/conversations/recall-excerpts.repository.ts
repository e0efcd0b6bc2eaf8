import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Message } from './message.entity.js';

/** A stored message as recall quotes it. */
export interface ExcerptMessage {
  readonly id: string;
  readonly conversationId: string;
  readonly parentId: string | null;
  readonly role: string;
  readonly content: string;
  readonly onPath: boolean;
  /** The content's tokens as counted when it was stored (null: never counted). */
  readonly tokens: number | null;
}

const FIELDS = { id: true, conversationId: true, parentId: true, role: true, content: true, onPath: true, tokens: true } as const;

/**
 * What a turn quotes of the messages recall found: their text, and each one's neighbour turn
 * (the message it follows, and the one on the active path that follows it), the caller's rows
 * only. Three reads, each on an index (the key; the key again; conversation and parent): one
 * statement joining them with OR would scan every message.
 */
@Injectable()
export class RecallExcerptsRepository {
  async withNeighbours(em: EntityManager, actor: string, ids: readonly string[]): Promise<Map<string, ExcerptMessage>> {
    if (ids.length === 0) return new Map();
    const hits = await em.find(Message, { select: FIELDS, where: { actor, id: In([...ids]) } });
    const parents = [...new Set(hits.flatMap((m) => (m.parentId ? [m.parentId] : [])))];
    const questions = hits.filter((m) => m.role === 'user');
    const [before, after] = await Promise.all([
      parents.length ? em.find(Message, { select: FIELDS, where: { actor, id: In(parents) } }) : [],
      questions.length
        ? em.find(Message, {
            select: FIELDS,
            where: { actor, conversationId: In([...new Set(questions.map((m) => m.conversationId))]), parentId: In(questions.map((m) => m.id)), onPath: true },
          })
        : [],
    ]);
    return new Map([...hits, ...before, ...after].map((m) => [m.id, { id: m.id, conversationId: m.conversationId, parentId: m.parentId, role: m.role, content: m.content, onPath: m.onPath, tokens: m.tokens }]));
  }
}
