import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { TokenCounter } from '../context/token-counter.js';
import { LLM_PORT, type LlmPort } from '../llm/llm.port.js';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { AgentsService } from '../agents/agents.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DatabaseService } from '../database/database.service.js';
import { MemoriesRepository, type AgentScope, type MemoryCandidate } from './memories.repository.js';
import { decodeMemoryCursor, encodeMemoryCursor } from './memory-cursor.js';
import { MAX_MEMORY_CHARS, Memory } from './memory.entity.js';
import { InvalidMemoryError, MemoryLimitError, MemoryNotFoundError } from './memory.errors.js';
import { queryWords } from './memory-query.js';

interface MemoryFields {
  readonly text: string;
  readonly pinned?: boolean;
  /** Read only in this agent's conversations (null or absent: in all of them). */
  readonly agentId?: string | null;
  readonly sourceConversationId?: string | null;
  readonly sourceMessageId?: string | null;
  /** Kept by an import; new memories are stamped now. */
  readonly createdAt?: Date;
  readonly updatedAt?: Date;
}

interface MemoryChanges {
  readonly text?: string;
  readonly pinned?: boolean;
  readonly agentId?: string | null;
}

interface MemoryQuery {
  /** Full-text search: memories holding every word, best first (one page, no cursor). */
  readonly q?: string;
  /** Only this agent's memories (null: only the global ones). */
  readonly agentId?: string | null;
  readonly limit: number;
  readonly cursor?: string;
}

interface MemoryPage {
  readonly items: Memory[];
  readonly nextCursor: string | null;
}

/** How many memories a turn considers at most, before the token budget picks among them. */
export const TURN_PINNED_LIMIT = 50;
export const TURN_MATCH_LIMIT = 12;
/** A memory as an account export holds it. */
export interface ImportedMemory {
  readonly text: string;
  readonly pinned?: boolean;
  readonly createdAt?: string;
  readonly updatedAt?: string;
}

/** The most memories one export holds (and one import takes). */
export const MAX_EXPORTED_MEMORIES = 100_000;

/**
 * Long-term memories, always on behalf of their owner. Promises: another actor's memory is
 * MemoryNotFoundError (never revealed); a turn's read is one indexed query, whatever the number
 * of memories; texts are 1 to 1,000 characters, without NUL.
 */
@Injectable()
export class MemoryService {
  constructor(
    private readonly db: DatabaseService,
    private readonly repo: MemoriesRepository,
    private readonly agents: AgentsService,
    private readonly tokens: TokenCounter,
    @Inject(LLM_PORT) private readonly llm: LlmPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Refuses (MemoryLimitError) `adding` more memories past MAX_MEMORIES_PER_ACTOR. */
  private async assertRoom(em: EntityManager, actor: Actor, adding: number): Promise<void> {
    const limit = this.config.maxMemoriesPerActor;
    if (limit > 0 && (await this.repo.count(em, actor.id)) + adding > limit) throw new MemoryLimitError(limit);
  }

  async list(actor: Actor, query: MemoryQuery): Promise<MemoryPage> {
    return this.db.replicaRead(actor.id, async (em) => {
      const scope: AgentScope = query.agentId;
      if (query.q !== undefined) {
        return {
          items: await this.repo.search(em, actor.id, queryWords(query.q, { all: true }), scope, query.limit),
          nextCursor: null,
        };
      }
      const before = query.cursor === undefined ? undefined : decodeMemoryCursor(query.cursor);
      if (query.cursor !== undefined && !before)
        throw new InvalidMemoryError('cursor is not one this service returned');
      const rows = await this.repo.page(em, actor.id, scope, query.limit, before);
      const items = rows.slice(0, query.limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > query.limit && last ? encodeMemoryCursor(last) : null };
    });
  }

  get(actor: Actor, id: string): Promise<Memory> {
    return this.db.read((em) => this.owned(em, actor, id));
  }

  create(actor: Actor, fields: MemoryFields): Promise<Memory> {
    return this.db.transaction((em) => this.createIn(em, actor, fields));
  }

  async createIn(em: EntityManager, actor: Actor, fields: MemoryFields): Promise<Memory> {
    await this.assertRoom(em, actor, 1);
    return this.insertIn(em, actor, fields);
  }

  /** A new memory, without the room check (an import checks the room for all of them at once). */
  private async insertIn(em: EntityManager, actor: Actor, fields: MemoryFields): Promise<Memory> {
    const text = validText(fields.text);
    if (fields.agentId) await this.agents.usableIn(em, actor, fields.agentId);
    const now = new Date();
    const memory = Object.assign(new Memory(), {
      id: randomUUID(),
      actor: actor.id,
      agentId: fields.agentId ?? null,
      text,
      tokens: this.count(text),
      pinned: fields.pinned ?? false,
      sourceConversationId: fields.sourceConversationId ?? null,
      sourceMessageId: fields.sourceMessageId ?? null,
      createdAt: fields.createdAt ?? now,
      updatedAt: fields.updatedAt ?? fields.createdAt ?? now,
    });
    await this.repo.insert(em, memory);
    return memory;
  }

  update(actor: Actor, id: string, changes: MemoryChanges): Promise<Memory> {
    return this.db.transaction(async (em) => {
      const memory = await this.owned(em, actor, id);
      const next: { text?: string; tokens?: number; pinned?: boolean; agentId?: string | null; updatedAt: Date } = {
        updatedAt: new Date(),
      };
      if (changes.text !== undefined) {
        next.text = validText(changes.text);
        next.tokens = this.count(next.text);
      }
      if (changes.pinned !== undefined) {
        if (typeof changes.pinned !== 'boolean') throw new InvalidMemoryError('pinned must be true or false');
        next.pinned = changes.pinned;
      }
      if (changes.agentId !== undefined) {
        if (changes.agentId !== null) await this.agents.usableIn(em, actor, changes.agentId);
        next.agentId = changes.agentId;
      }
      await this.repo.update(em, actor.id, id, next);
      return Object.assign(memory, next);
    });
  }

  delete(actor: Actor, id: string): Promise<void> {
    return this.db.transaction(async (em) => {
      if (!(await this.repo.delete(em, actor.id, id))) throw new MemoryNotFoundError(id);
    });
  }

  /**
   * The memories a turn may be given, within the turn's unit of work: pinned first, then those
   * that best match `question` (none without a question). One query.
   */
  forTurnIn(
    em: EntityManager,
    actor: Actor,
    agentId: string | null,
    question: string | null,
  ): Promise<MemoryCandidate[]> {
    const words = question ? queryWords(question) : [];
    return this.repo.forTurn(em, actor.id, agentId, words, TURN_PINNED_LIMIT, TURN_MATCH_LIMIT);
  }

  /** All of the actor's memories, oldest first (an export). */
  exportFor(actor: Actor): Promise<Memory[]> {
    return this.db.replicaRead(actor.id, (em) => this.repo.allFor(em, actor.id, MAX_EXPORTED_MEMORIES));
  }

  /**
   * Takes back memories of an account export (`memories`): each with new ids, global (an agent
   * scope is not carried over), its pin and dates kept. All or nothing, in one transaction.
   */
  importFor(actor: Actor, items: ReadonlyArray<ImportedMemory>): Promise<number> {
    this.checkImport(items);
    return this.db.transaction(async (em) => {
      await this.assertRoom(em, actor, items.length);
      for (const item of items) {
        const createdAt = item.createdAt ? new Date(item.createdAt) : undefined;
        await this.insertIn(em, actor, {
          text: item.text,
          pinned: item.pinned ?? false,
          createdAt,
          updatedAt: item.updatedAt ? new Date(item.updatedAt) : createdAt,
        });
      }
      return items.length;
    });
  }

  /** What importFor would take, checked without storing (a dry run): the count, or InvalidMemoryError. */
  checkImport(items: ReadonlyArray<ImportedMemory>): number {
    if (items.length > MAX_EXPORTED_MEMORIES)
      throw new InvalidMemoryError(`${items.length} memories; at most ${MAX_EXPORTED_MEMORIES} are taken at once`);
    for (const [i, item] of items.entries()) {
      validText(item.text);
      for (const date of [item.createdAt, item.updatedAt]) {
        if (date !== undefined && (typeof date !== 'string' || Number.isNaN(Date.parse(date))))
          throw new InvalidMemoryError(`memories[${i}] has a date that is not ISO 8601`);
      }
    }
    return items.length;
  }

  /** Erasure of everything the actor stored: returns how many memories were deleted. */
  eraseFor(actor: Actor): Promise<number> {
    return this.db.transaction((em) => this.eraseIn(em, actor));
  }

  /** Gives every memory of `from` to `to`, in the caller's unit of work (an account changing hands). */
  moveActorIn(em: EntityManager, from: Actor, to: Actor): Promise<number> {
    return this.repo.moveActor(em, from.id, to.id);
  }

  eraseIn(em: EntityManager, actor: Actor): Promise<number> {
    return this.repo.eraseFor(em, actor.id);
  }

  /** Retention: deletes up to `limit` memories (pinned ones too) not updated since `cutoff`. */
  deleteStale(cutoff: Date, limit: number): Promise<number> {
    return this.db.transaction((em) => this.repo.deleteStale(em, cutoff, limit));
  }

  /** With the default model's encoding: turns of other models count a little differently (as stored message counts do). */
  private count(text: string): number {
    return this.tokens.count(text, this.llm.defaultModel);
  }

  private async owned(em: EntityManager, actor: Actor, id: string): Promise<Memory> {
    const memory = await this.repo.find(em, actor.id, id);
    if (!memory) throw new MemoryNotFoundError(id);
    return memory;
  }
}

/** The text as stored: trimmed, 1 to MAX_MEMORY_CHARS characters, no NUL. */
function validText(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') throw new InvalidMemoryError('text must not be empty');
  const trimmed = text.trim();
  if (trimmed.includes('\u0000')) throw new InvalidMemoryError('text must not contain NUL characters');
  // Characters as the document and the validation pipe count them: code points, not UTF-16 units.
  const length = [...trimmed].length;
  if (length > MAX_MEMORY_CHARS)
    throw new InvalidMemoryError(`text is ${length} characters long; the limit is ${MAX_MEMORY_CHARS}`);
  return trimmed;
}
