import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import type { Actor } from '../actor-auth/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DatabaseService } from '../database/database.service.js';
import { decodeAgentCursor, encodeAgentCursor } from './agent-cursor.js';
import { Agent, type AgentTool, type MemoryMode } from './agent.entity.js';
import { AgentLimitError, AgentNotFoundError, InvalidAgentCursorError } from './agent.errors.js';

export interface AgentFields {
  readonly name: string;
  readonly emoji?: string | null;
  readonly description?: string | null;
  readonly systemPrompt?: string | null;
  readonly model?: string | null;
  readonly temperature?: number | null;
  readonly maxTokens?: number | null;
  readonly contextTokenBudget?: number | null;
  readonly tools?: AgentTool[] | null;
  /** Narrows MEMORY_MODE for the agent's turns (null: as MEMORY_MODE says). */
  readonly memoryMode?: MemoryMode | null;
}

/** A page of the actor's agents, by name; `nextCursor` (null on the last page) asks for the next. */
interface AgentPage {
  readonly items: Agent[];
  readonly nextCursor: string | null;
}

/** What deleting an agent does to its conversations; without a choice, a used agent is not deleted. */
export type AgentConversationsOnDelete = 'refuse' | 'detach' | 'delete';

/**
 * Agents, always on behalf of their owner. Promises: another actor's agent is
 * AgentNotFoundError (never revealed); an actor has at most MAX_AGENTS_PER_ACTOR agents, however
 * they are made (the API, an import). Deleting one goes through ConversationsService.deleteAgent,
 * which decides what happens to its conversations.
 */
@Injectable()
export class AgentsService {
  constructor(
    private readonly db: DatabaseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  create(actor: Actor, fields: AgentFields): Promise<Agent> {
    return this.db.transaction(async (em) => {
      await this.assertRoom(em, actor);
      const now = new Date();
      const agent = em.create(Agent, {
        id: randomUUID(),
        actor: actor.id,
        name: fields.name,
        emoji: fields.emoji ?? null,
        description: fields.description ?? null,
        systemPrompt: fields.systemPrompt ?? null,
        model: fields.model ?? null,
        temperature: fields.temperature ?? null,
        maxTokens: fields.maxTokens ?? null,
        contextTokenBudget: fields.contextTokenBudget ?? null,
        tools: fields.tools ?? [],
        memoryMode: fields.memoryMode ?? null,
        createdAt: now,
        updatedAt: now,
      });
      await em.insert(Agent, agent);
      return agent;
    });
  }

  /** Refuses (AgentLimitError) one more agent past MAX_AGENTS_PER_ACTOR. */
  private async assertRoom(em: EntityManager, actor: Actor): Promise<void> {
    const max = this.config.maxAgentsPerActor;
    if (max <= 0) return;
    // Counting stops at the limit: the cost does not grow past it.
    if ((await em.count(Agent, { where: { actor: actor.id }, take: max })) >= max) throw new AgentLimitError(max);
  }

  /** Every agent of the actor, by name (at most MAX_AGENTS_PER_ACTOR, unless made before a lower limit). */
  list(actor: Actor): Promise<Agent[]> {
    return this.db.replicaRead(actor.id, (em) =>
      em.find(Agent, { where: { actor: actor.id }, order: { name: 'ASC', createdAt: 'ASC', id: 'ASC' } }),
    );
  }

  /** One page of the actor's agents in list order, after `cursor` (the nextCursor of the page before). */
  page(actor: Actor, query: { readonly limit: number; readonly cursor?: string }): Promise<AgentPage> {
    const after = query.cursor === undefined ? undefined : decodeAgentCursor(query.cursor);
    if (query.cursor !== undefined && !after) return Promise.reject(new InvalidAgentCursorError());
    return this.db.replicaRead(actor.id, async (em) => {
      const qb = em.createQueryBuilder(Agent, 'a').where('a.actor = :actor', { actor: actor.id });
      if (after) {
        qb.andWhere(
          '(a.name > :name OR (a.name = :name AND (a.created_at > :at OR (a.created_at = :at AND a.id > :id))))',
          {
            name: after.name,
            at: after.createdAt,
            id: after.id,
          },
        );
      }
      const rows = await qb
        .orderBy('a.name', 'ASC')
        .addOrderBy('a.created_at', 'ASC')
        .addOrderBy('a.id', 'ASC')
        .limit(query.limit + 1)
        .getMany();
      const items = rows.slice(0, query.limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > query.limit && last ? encodeAgentCursor(last) : null };
    });
  }

  get(actor: Actor, id: string): Promise<Agent> {
    return this.db.read((em) => this.ownedIn(em, actor, id));
  }

  /** The actor's agent within a unit of work of another domain (a chat turn). */
  async ownedIn(em: EntityManager, actor: Actor, id: string): Promise<Agent> {
    const agent = await em.findOne(Agent, { where: { id, actor: actor.id } });
    if (!agent) throw new AgentNotFoundError(id);
    return agent;
  }

  /** An agent the actor may talk with: its own, or one offered to it by a publisher. */
  async usableIn(em: EntityManager, actor: Actor, id: string): Promise<Agent> {
    const owners = [actor.id, ...(actor.agentPublishers ?? [])];
    const agent = await em.findOne(Agent, { where: { id, actor: In(owners) } });
    if (!agent) throw new AgentNotFoundError(id);
    return agent;
  }

  /**
   * The agent a conversation names, whoever owns it, or null: an export shows another actor's
   * agent by name only, so the caller compares `agent.actor` with its actor.
   */
  attachedIn(em: EntityManager, id: string): Promise<Agent | null> {
    return em.findOne(Agent, { where: { id } });
  }

  /** The ids of the actor's agents, within the caller's unit of work. */
  async idsIn(em: EntityManager, actor: Actor): Promise<string[]> {
    return (await em.find(Agent, { select: { id: true }, where: { actor: actor.id } })).map((a) => a.id);
  }

  /** Gives every agent of `from` to `to`, in the caller's unit of work; conversations keep their agent ids. */
  async moveActorIn(em: EntityManager, from: Actor, to: Actor): Promise<number> {
    return (await em.update(Agent, { actor: from.id }, { actor: to.id })).affected ?? 0;
  }

  /** Erases every agent of the actor, within the caller's unit of work (erasing an account); returns how many. */
  async eraseFor(em: EntityManager, actor: Actor): Promise<number> {
    return (await em.delete(Agent, { actor: actor.id })).affected ?? 0;
  }

  /** The agents offered to the actor by its publishers, by name. */
  listOffered(actor: Actor): Promise<Agent[]> {
    const owners = actor.agentPublishers ?? [];
    if (owners.length === 0) return Promise.resolve([]);
    return this.db.read((em) =>
      em.find(Agent, { where: { actor: In([...owners]) }, order: { name: 'ASC', createdAt: 'ASC' } }),
    );
  }

  update(actor: Actor, id: string, changes: Partial<AgentFields>): Promise<Agent> {
    return this.db.transaction(async (em) => {
      const agent = await this.ownedIn(em, actor, id);
      // `tools: null` clears the list; every other null clears a nullable field.
      const normalized = changes.tools === null ? { ...changes, tools: [] } : changes;
      const defined = Object.fromEntries(Object.entries(normalized).filter(([, v]) => v !== undefined));
      Object.assign(agent, defined, { updatedAt: new Date() });
      await em.update(Agent, { id, actor: actor.id }, { ...defined, updatedAt: agent.updatedAt });
      return agent;
    });
  }

  /**
   * Deletes the actor's agent within a unit of work of the conversations module, which first
   * deals with the agent's conversations (ConversationsService.deleteAgent: it owns them).
   */
  async deleteIn(em: EntityManager, actor: Actor, id: string): Promise<void> {
    await em.delete(Agent, { id, actor: actor.id });
  }
}
