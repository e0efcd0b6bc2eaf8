import type { EntityManager } from 'typeorm';
import type {
  CallerTotals,
  RecallAsk,
  MessageFilters,
  MessageHitDetails,
  MessageSearchDialect,
  RecallMatches,
  SearchQuery,
  SearchTerm,
  TermMatches,
  TitleMatch,
} from './message-search.repository.js';
import type { MessageRole } from './message.entity.js';
import { recallMatchesOf, type RecallRow } from './recall-matches.js';

/** Placeholders numbered as parameters are added. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * A term as a tsquery of the `english` configuration, its text a parameter: never parsed as
 * tsquery syntax but by PostgreSQL's own word parser (a prefix's word is letters and digits only, quoted).
 */
function tsTerm(term: SearchTerm, p: Params): string {
  if (term.kind === 'prefix') return `to_tsquery('english', ${p.add(`'${term.words[0]}':*`)})`;
  if (term.kind === 'phrase') return `phraseto_tsquery('english', ${p.add(term.words.join(' '))})`;
  return `plainto_tsquery('english', ${p.add(term.words[0])})`;
}

const anyOf = (terms: readonly SearchTerm[], p: Params) => `(${terms.map((t) => tsTerm(t, p)).join(' || ')})`;

/** The lexeme standing for the actor in `messages_search.search_vector` (migration 1764610000000). */
const actorQuery = (actor: string, p: Params) => `quote_literal(' a' || md5(${p.add(actor)}))::tsquery`;

/** `s` (messages_search) rows of the actor holding `terms` (any), less those holding an excluded term. */
function matchSql(actor: string, terms: readonly SearchTerm[], excluded: readonly SearchTerm[], p: Params): string {
  const not = excluded.length ? ` AND NOT s.search_vector @@ ${anyOf(excluded, p)}` : '';
  // The actor's lexeme lets the GIN index find the rows; the column names the actor for a database distributed by it.
  return `s.search_vector @@ (${anyOf(terms, p)} && ${actorQuery(actor, p)}) AND s.actor = ${p.add(actor)}${not}`;
}

function filterSql(actor: string, f: MessageFilters, p: Params): { join: string; where: string } {
  const where: string[] = [];
  if (f.role !== undefined) where.push(`m.role = ${p.add(f.role)}`);
  if (f.before !== undefined) where.push(`s.created_at < ${p.add(f.before)}`);
  if (f.after !== undefined) where.push(`s.created_at > ${p.add(f.after)}`);
  if (f.conversationId !== undefined) where.push(`s.conversation_id = ${p.add(f.conversationId)}`);
  if (f.excludeConversationIds?.length) where.push(`NOT (s.conversation_id = ANY(${p.add(f.excludeConversationIds)}))`);
  if (f.agentId !== undefined) {
    const agent = f.agentId === null ? 'IS NULL' : `= ${p.add(f.agentId)}`;
    where.push(
      `s.conversation_id IN (SELECT id FROM conversations WHERE actor = ${p.add(actor)} AND agent_id ${agent})`,
    );
  }
  return {
    join: f.role === undefined ? '' : 'JOIN messages m ON m.id = s.message_id AND m.actor = s.actor',
    where: where.length ? ` AND ${where.join(' AND ')}` : '',
  };
}

/** How often a word term's lexemes occur in the row (positions in the stored vector); 1 for a phrase or prefix. */
function tfSql(term: SearchTerm, p: Params): string {
  if (term.kind !== 'word') return '1';
  return `greatest(1, (SELECT coalesce(sum(cardinality(u.positions)), 0) FROM unnest(s.search_vector) u
                        WHERE u.lexeme = ANY(tsvector_to_array(to_tsvector('english', ${p.add(term.words[0])})))))`;
}

/**
 * PostgreSQL statements over `messages_search` (the `english` configuration, migration
 * 1764810000000). A row's length is its number of distinct lexemes (the actor's aside).
 */
export class PostgresMessageSearch implements MessageSearchDialect {
  async termMatches(
    em: EntityManager,
    actor: string,
    query: SearchQuery,
    term: number,
    filters: MessageFilters,
    cap: number,
  ): Promise<TermMatches> {
    const p = new Params();
    const tf = tfSql(query.terms[term], p);
    const match = matchSql(actor, [query.terms[term]], query.excluded, p);
    const f = filterSql(actor, filters, p);
    const rows: Array<{ k: string; conversationId: string; tf: number; size: number; newness: number }> =
      await em.query(
        `SELECT s.message_id AS k, s.conversation_id AS "conversationId", ${tf} AS tf, length(s.search_vector) - 1 AS size, extract(epoch FROM s.created_at) * 1000 + s.seq / 1e6 AS newness
         FROM messages_search s ${f.join}
        WHERE ${match}${f.where}
        ORDER BY s.created_at DESC, s.seq DESC LIMIT ${Number(cap)}`,
        p.values,
      );
    return {
      rows: rows.map((r) => ({
        key: r.k,
        conversationId: r.conversationId,
        tf: Number(r.tf),
        length: Math.max(1, Number(r.size)),
        newness: Number(r.newness),
      })),
      complete: rows.length < cap,
    };
  }

  async recallMatches(em: EntityManager, { actor, terms, count, cap, within }: RecallAsk): Promise<RecallMatches> {
    const p = new Params();
    // A constant condition (an InitPlan, run once): the turn's conversation keeps memories.
    const gate = () =>
      within === undefined
        ? ''
        : ` AND EXISTS (SELECT 1 FROM conversations g WHERE g.id = ${p.add(within)} AND g.actor = ${p.add(actor)} AND g.memory)`;
    const arms = terms.map(
      (
        term,
        t,
      ) => `(SELECT ${t} AS t, m.id AS id, m.conversation_id AS "conversationId", coalesce(m.tokens, length(m.content) / 4 + 1) AS length,
                            extract(epoch FROM s.created_at) * 1000 + s.seq / 1e6 AS newness, NULL::bigint AS n
                       FROM messages_search s JOIN messages m ON m.id = s.message_id AND m.actor = s.actor
                       JOIN conversations c ON c.id = m.conversation_id AND c.actor = m.actor
                      WHERE ${matchSql(actor, [term], [], p)} AND m.on_path = 1 AND m.role IN ('user', 'assistant') AND c.memory${gate()}
                      ORDER BY s.created_at DESC, s.seq DESC LIMIT ${Number(cap)})`,
    );
    const counted = [...count].map(
      (t) =>
        `(SELECT ${Number(t)}, NULL, NULL, NULL::integer, NULL::numeric, (SELECT count(*) FROM messages_search s WHERE ${matchSql(actor, [terms[t]], [], p)}) WHERE true${gate()})`,
    );
    const rows: RecallRow[] = await em.query([...arms, ...counted].join('\nUNION ALL\n'), p.values);
    return recallMatchesOf(rows);
  }

  async recallTotals(em: EntityManager, actor: string): Promise<CallerTotals> {
    const [row] = (await em.query(
      `SELECT count(*) AS docs, coalesce(sum(coalesce(m.tokens, length(m.content) / 4 + 1)), 0) AS length
         FROM conversations c JOIN messages m ON m.conversation_id = c.id AND m.actor = c.actor
        WHERE c.actor = $1 AND m.role IN ('user', 'assistant')`,
      [actor],
    )) as Array<{ docs: string; length: string }>;
    return { docs: Number(row?.docs ?? 0), length: Number(row?.length ?? 0) };
  }

  async termCount(em: EntityManager, actor: string, term: SearchTerm): Promise<number> {
    const p = new Params();
    const [row] = (await em.query(
      `SELECT count(*) AS n FROM messages_search s WHERE ${matchSql(actor, [term], [], p)}`,
      p.values,
    )) as Array<{ n: string }>;
    return Number(row?.n ?? 0);
  }

  async totals(em: EntityManager, actor: string): Promise<CallerTotals> {
    const p = new Params();
    const [row] = (await em.query(
      `SELECT count(*) AS docs, coalesce(sum(length(s.search_vector) - 1), 0) AS length FROM messages_search s WHERE s.search_vector @@ ${actorQuery(actor, p)} AND s.actor = ${p.add(actor)}`,
      p.values,
    )) as Array<{ docs: string; length: string }>;
    return { docs: Number(row?.docs ?? 0), length: Number(row?.length ?? 0) };
  }

  async details(
    em: EntityManager,
    actor: string,
    query: SearchQuery,
    keys: readonly string[],
  ): Promise<Map<string, MessageHitDetails>> {
    const p = new Params();
    const snippet = `ts_headline('english', m.content, ${anyOf(query.terms, p)}, 'StartSel=[, StopSel=], MaxWords=20, MinWords=6, ShortWord=1')`;
    const rows: Array<{
      id: string;
      conversationId: string;
      title: string;
      seq: number;
      thread: string;
      role: MessageRole;
      createdAt: Date;
      onPath: number;
      snippet: string;
    }> = await em.query(
      `SELECT m.id, m.conversation_id AS "conversationId", c.title, m.seq, m.thread, m.role, m.created_at AS "createdAt", m.on_path AS "onPath",
                ${snippet} AS snippet
           FROM messages m JOIN conversations c ON c.id = m.conversation_id AND c.actor = m.actor
          WHERE m.actor = ${p.add(actor)} AND m.id = ANY(${p.add(keys)})`,
      p.values,
    );
    return new Map(
      rows.map((r) => [
        r.id,
        {
          messageId: r.id,
          conversationId: r.conversationId,
          conversationTitle: r.title,
          seq: Number(r.seq),
          thread: r.thread,
          role: r.role,
          createdAt: new Date(r.createdAt),
          snippet: r.snippet,
          onPath: Number(r.onPath) === 1,
        },
      ]),
    );
  }

  async titleMatches(em: EntityManager, actor: string, query: SearchQuery, limit: number): Promise<TitleMatch[]> {
    const p = new Params();
    const terms = query.terms.map((t) => `(to_tsvector('english', c.title) @@ ${tsTerm(t, p)})::int`).join(' + ');
    const q = anyOf(query.terms, p);
    const not = query.excluded.length ? ` AND NOT to_tsvector('english', c.title) @@ ${anyOf(query.excluded, p)}` : '';
    const rows: Array<{ conversationId: string; weight: number; snippet: string }> = await em.query(
      `SELECT c.id AS "conversationId", ${terms} AS weight, ts_headline('english', c.title, ${q}, 'StartSel=[, StopSel=]') AS snippet
         FROM conversations c
        WHERE c.actor = ${p.add(actor)} AND to_tsvector('english', c.title) @@ ${q}${not}
        ORDER BY c.updated_at DESC LIMIT ${Number(limit)}`,
      p.values,
    );
    return rows.map((r) => ({ conversationId: r.conversationId, weight: Number(r.weight), snippet: r.snippet }));
  }
}
