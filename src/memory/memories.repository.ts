import { Injectable } from '@nestjs/common';
import { In, LessThan, type EntityManager } from 'typeorm';
import { isPostgres } from '../database/dialect.js';
import { sql } from '../database/sql.js';
import { Memory } from './memory.entity.js';
import { ftsMatch, tsQuery } from './memory-query.js';

/** Which memories a read sees: all of the actor's, or those of one scope (an agent's, or the global ones with `null`). */
export type AgentScope = string | null | undefined;

/** A memory a turn may be given: pinned ones first, then the best matches. */
export interface MemoryCandidate {
  readonly id: string;
  readonly text: string;
  readonly pinned: boolean;
  /** Tokens of the text as counted when it was written (null: never counted). */
  readonly tokens: number | null;
}

export interface MemoryPosition {
  readonly updatedAt: Date;
  readonly id: string;
}

/**
 * The indexed vector of a memory on PostgreSQL (migration 1764630000000): its words and a lexeme of
 * its owner, so that the GIN index finds only the caller's matches. Queries repeat the expression
 * exactly, or the planner does not use the index.
 */
const PG_VECTOR = (m: string) =>
  `(to_tsvector('simple', ${m}.text) || array_to_tsvector(ARRAY[' a' || md5(${m}.actor)]))`;
/** A query of `words` (a tsquery text) restricted to the owner's lexeme. */
const PG_QUERY = (words: string, actor: string) =>
  `(to_tsquery('simple', ${words}) && quote_literal(' a' || md5(${actor}::text))::tsquery)`;

/**
 * The SQL on `memories`, always filtered on the owner in the query itself. Search and
 * retrieval use the full-text index of each dialect: SQLite FTS5 (memories_fts, bm25) or a
 * PostgreSQL GIN index on to_tsvector('simple', text) (ts_rank).
 */
@Injectable()
export class MemoriesRepository {
  async insert(em: EntityManager, memory: Memory): Promise<void> {
    // A copy: on PostgreSQL TypeORM writes the returned defaults back onto the entity, untransformed.
    await em.insert(Memory, { ...memory });
  }

  find(em: EntityManager, actor: string, id: string): Promise<Memory | null> {
    return em.findOne(Memory, { where: { id, actor } });
  }

  /** Applies `changes` to the actor's memory; false when there is none. */
  async update(
    em: EntityManager,
    actor: string,
    id: string,
    changes: Partial<Pick<Memory, 'text' | 'tokens' | 'pinned' | 'agentId' | 'updatedAt'>>,
  ): Promise<boolean> {
    const result = await em.update(Memory, { id, actor }, changes);
    return (result.affected ?? 0) > 0;
  }

  async delete(em: EntityManager, actor: string, id: string): Promise<boolean> {
    const result = await em.delete(Memory, { id, actor });
    return (result.affected ?? 0) > 0;
  }

  /** One page, newest first (keyset: after `before`), with one row more than `limit` when a next page exists. */
  page(em: EntityManager, actor: string, scope: AgentScope, limit: number, before?: MemoryPosition): Promise<Memory[]> {
    const qb = em.createQueryBuilder(Memory, 'm').where('m.actor = :actor', { actor });
    if (scope !== undefined) qb.andWhere(scope === null ? 'm.agent_id IS NULL' : 'm.agent_id = :scope', { scope });
    if (before) {
      qb.andWhere('(m.updated_at < :at OR (m.updated_at = :at AND m.id < :id))', {
        at: before.updatedAt,
        id: before.id,
      });
    }
    return qb
      .orderBy('m.updated_at', 'DESC')
      .addOrderBy('m.id', 'DESC')
      .limit(limit + 1)
      .getMany();
  }

  /** The actor's memories holding every word, best match first (ranked ids, then the rows: a search is not the hot path). */
  async search(
    em: EntityManager,
    actor: string,
    words: readonly string[],
    scope: AgentScope,
    limit: number,
  ): Promise<Memory[]> {
    if (words.length === 0) return [];
    const postgres = isPostgres(em);
    const params: unknown[] = [postgres ? tsQuery(words, false) : ftsMatch(words, false), actor];
    let scoped = '';
    if (scope === null) scoped = 'AND m.agent_id IS NULL';
    else if (scope !== undefined) {
      params.push(scope);
      scoped = `AND m.agent_id = ${postgres ? '$3' : '?'}`;
    }
    const rows: Array<{ id: string }> = postgres
      ? await em.query(
          `SELECT m.id FROM memories m WHERE ${PG_VECTOR('m')} @@ ${PG_QUERY('$1', '$2')} AND m.actor = $2 ${scoped}
            ORDER BY ts_rank(to_tsvector('simple', m.text), to_tsquery('simple', $1)) DESC, m.updated_at DESC LIMIT ${Number(limit)}`,
          params,
        )
      : await em.query(
          `SELECT m.id AS id FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
            WHERE memories_fts MATCH ? AND m.actor = ? ${scoped} ORDER BY bm25(memories_fts), m.updated_at DESC LIMIT ${Number(limit)}`,
          params,
        );
    if (rows.length === 0) return [];
    const byId = new Map(
      (await em.find(Memory, { where: { id: In(rows.map((r) => r.id)), actor } })).map((m) => [m.id, m]),
    );
    return rows.flatMap((r) => byId.get(r.id) ?? []);
  }

  /**
   * What one turn may be given, in one query: the actor's pinned memories (newest first, at
   * most `pinnedLimit`), then the unpinned ones sharing a word with the question (best first,
   * at most `matchLimit`). `agentId`: the conversation's agent (its memories and the global
   * ones are read), or null (the global ones only).
   */
  async forTurn(
    em: EntityManager,
    actor: string,
    agentId: string | null,
    words: readonly string[],
    pinnedLimit: number,
    matchLimit: number,
  ): Promise<MemoryCandidate[]> {
    const postgres = isPostgres(em);
    const params: unknown[] = [];
    // Each value bound where it is used, in order: SQLite's `?` are positional.
    const bind = (value: unknown) => {
      params.push(value);
      return postgres ? `$${params.length}` : '?';
    };
    const scope = (alias: string) =>
      agentId === null
        ? `${alias}agent_id IS NULL`
        : `(${alias}agent_id IS NULL OR ${alias}agent_id = ${bind(agentId)})`;
    const pinned = `SELECT id, text, pinned, tokens, 0.0 AS rank FROM memories WHERE actor = ${bind(actor)} AND pinned = 1 AND ${scope('')} ORDER BY updated_at DESC, id LIMIT ${Number(pinnedLimit)}`;
    let text = pinned;
    if (words.length > 0 && matchLimit > 0) {
      const query = postgres ? tsQuery(words, true) : ftsMatch(words, true);
      const matches = postgres
        ? `SELECT m.id, m.text, m.pinned, m.tokens, ts_rank(to_tsvector('simple', m.text), q.query)::float AS rank FROM memories m, to_tsquery('simple', ${bind(query)}) q(query)
            WHERE ${PG_VECTOR('m')} @@ (q.query && quote_literal(' a' || md5(${bind(actor)}))::tsquery) AND m.actor = ${bind(actor)} AND m.pinned = 0 AND ${scope('m.')}
            ORDER BY rank DESC, m.updated_at DESC, m.id LIMIT ${Number(matchLimit)}`
        : // bm25() is lower for better matches: negated, so that both dialects rank higher first.
          `SELECT m.id, m.text, m.pinned, m.tokens, -bm25(memories_fts) AS rank FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
            WHERE memories_fts MATCH ${bind(query)} AND m.actor = ${bind(actor)} AND m.pinned = 0 AND ${scope('m.')}
            ORDER BY rank DESC, m.updated_at DESC, m.id LIMIT ${Number(matchLimit)}`;
      text = `SELECT * FROM (${pinned}) pinned_part UNION ALL SELECT * FROM (${matches}) matched_part`;
    }
    // Through sql(): on PostgreSQL a prepared statement, not parsed and planned again every turn.
    // Ties are broken by recency and id, so a generic plan returns the same memories as a custom one.
    const { rows } = await sql<{ id: string; text: string; pinned: number | boolean; tokens: number | null }>(
      em,
      text,
      params,
    );
    return rows.map((r) => ({
      id: r.id,
      text: r.text,
      pinned: r.pinned === 1 || r.pinned === true,
      tokens: r.tokens === null ? null : Number(r.tokens),
    }));
  }

  /** All of the actor's memories, oldest first, `limit` at most (an export). */
  allFor(em: EntityManager, actor: string, limit: number): Promise<Memory[]> {
    return em.find(Memory, { where: { actor }, order: { createdAt: 'ASC', id: 'ASC' }, take: limit });
  }

  count(em: EntityManager, actor: string): Promise<number> {
    return em.count(Memory, { where: { actor } });
  }

  async moveActor(em: EntityManager, from: string, to: string): Promise<number> {
    return (await em.update(Memory, { actor: from }, { actor: to })).affected ?? 0;
  }

  async eraseFor(em: EntityManager, actor: string): Promise<number> {
    const result = await em.delete(Memory, { actor });
    return result.affected ?? 0;
  }

  /** Deletes up to `limit` memories not updated since `cutoff` (any actor, pinned too); returns how many. */
  async deleteStale(em: EntityManager, cutoff: Date, limit: number): Promise<number> {
    const stale = await em.find(Memory, { select: { id: true }, where: { updatedAt: LessThan(cutoff) }, take: limit });
    if (stale.length === 0) return 0;
    await em.delete(
      Memory,
      stale.map((m) => m.id),
    );
    return stale.length;
  }
}
