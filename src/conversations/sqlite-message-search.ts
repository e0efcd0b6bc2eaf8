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
import { storedDate } from '../database/dialect.js';
import type { MessageRole } from './message.entity.js';
import { BEHIND_ROW, recallMatchesOf, type RecallRow } from './recall-matches.js';

/**
 * The token standing for an actor in `messages_fts`'s `owner` column (migration 1764810000000):
 * the hex of its UTF-8 bytes, which no two actors share, ending in a digit, which the porter
 * stemmer leaves alone. The migration's triggers write `hex(actor) || '0'`, the same text.
 */
function ownerToken(actor: string): string {
  return `${Buffer.from(actor, 'utf8').toString('hex').toUpperCase()}0`;
}

/** A term as FTS5 syntax: always a quoted string (its words are letters and digits only), `*` after a prefix. */
function ftsTerm(term: SearchTerm): string {
  return `"${term.words.join(' ')}"${term.kind === 'prefix' ? ' *' : ''}`;
}

const anyOf = (terms: readonly SearchTerm[]) => terms.map(ftsTerm).join(' OR ');

/** Matches of `terms` (any) in the content, less messages holding an excluded term, of one owner (or any). */
function contentMatch(terms: readonly SearchTerm[], excluded: readonly SearchTerm[], actor?: string): string {
  const owner = actor === undefined ? '' : `owner : "${ownerToken(actor)}" AND `;
  const not = excluded.length ? ` NOT content : (${anyOf(excluded)})` : '';
  return `${owner}content : (${anyOf(terms)})${not}`;
}

/** SQLite's datetime text, as TypeORM stores it (UTC). */
const sqliteDate = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');

/** SQLite's varint (sqlite3GetVarint): big-endian 7-bit groups, the ninth byte whole. */
function readVarint(bytes: Uint8Array, offset = 0): number {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    const byte = bytes[offset + i] ?? 0;
    if (i === 8) return value * 256 + byte;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  return value;
}

/** The content column's length in tokens, from a `messages_fts_docsize` blob (one varint per column). */
const contentTokens = (size: unknown) => (size instanceof Uint8Array ? readVarint(size) : 0);

/** The filters as conditions on `m` (messages, joined by rowid), with their parameters. */
function filterSql(actor: string, f: MessageFilters): { join: string; where: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.role !== undefined) (where.push('m.role = ?'), params.push(f.role));
  if (f.before !== undefined) (where.push('m.created_at < ?'), params.push(sqliteDate(f.before)));
  if (f.after !== undefined) (where.push('m.created_at > ?'), params.push(sqliteDate(f.after)));
  if (f.conversationId !== undefined) (where.push('m.conversation_id = ?'), params.push(f.conversationId));
  if (f.excludeConversationIds?.length) {
    where.push(`m.conversation_id NOT IN (${f.excludeConversationIds.map(() => '?').join(', ')})`);
    params.push(...f.excludeConversationIds);
  }
  if (f.agentId !== undefined) {
    where.push(
      `m.conversation_id IN (SELECT id FROM conversations WHERE actor = ? AND agent_id ${f.agentId === null ? 'IS NULL' : '= ?'})`,
    );
    params.push(actor, ...(f.agentId === null ? [] : [f.agentId]));
  }
  if (where.length === 0) return { join: '', where: '', params };
  return {
    join: 'CROSS JOIN messages m ON m.rowid = messages_fts.rowid',
    where: ` AND m.actor = ? AND ${where.join(' AND ')}`,
    params: [actor, ...params],
  };
}

/**
 * FTS5 statements. The owner token keeps a term's walk to the caller's rows inside the index
 * (no row of `messages` read per match of another actor), newest rowid first, stopping at the cap.
 * A term's frequency in a row is the number of its marks in highlight(); a row's length comes
 * from `messages_fts_docsize`. bm25() is never called: it counts every actor's rows.
 */
export class SqliteMessageSearch implements MessageSearchDialect {
  async termMatches(
    em: EntityManager,
    actor: string,
    query: SearchQuery,
    term: number,
    filters: MessageFilters,
    cap: number,
  ): Promise<TermMatches> {
    const f = filterSql(actor, filters);
    const rows: Array<{ k: number; conversationId: string; tf: number; size: Uint8Array }> = await em.query(
      `WITH f AS MATERIALIZED (
         SELECT messages_fts.rowid AS k, highlight(messages_fts, 0, char(1), '') AS h
           FROM messages_fts ${f.join}
          WHERE messages_fts MATCH ?${f.where}
          ORDER BY messages_fts.rowid DESC LIMIT ${Number(cap)})
       SELECT f.k AS k, m.conversation_id AS conversationId, length(f.h) - length(replace(f.h, char(1), '')) AS tf, d.sz AS size
         FROM f CROSS JOIN messages m ON m.rowid = f.k LEFT JOIN messages_fts_docsize d ON d.id = f.k
        WHERE m.actor = ?`,
      [contentMatch([query.terms[term]], query.excluded, actor), ...f.params, actor],
    );
    return {
      rows: rows.map((r) => ({
        key: String(r.k),
        conversationId: r.conversationId,
        tf: Math.max(1, Number(r.tf)),
        length: contentTokens(r.size),
        newness: Number(r.k),
      })),
      complete: rows.length < cap,
    };
  }

  async recallMatches(
    em: EntityManager,
    { actor, terms, count, cap, within, window }: RecallAsk,
  ): Promise<RecallMatches> {
    // A constant condition, checked once before the walks: the turn's conversation keeps memories.
    const gate =
      within === undefined
        ? ''
        : ' AND EXISTS (SELECT 1 FROM conversations g WHERE g.id = ? AND g.actor = ? AND g.memory = 1)';
    const gateParams = within === undefined ? [] : [within, actor];
    // Each term's arm walks the index newest first within the caller's rows and stops at the
    // cap; a recallable row is checked on the row itself and its conversation's key, never by
    // listing the caller's conversations. Lengths are the stored token counts, read with the row.
    const arms = terms.map(
      (_, t) => `SELECT * FROM (
         SELECT ${t} AS t, m.id AS id, m.conversation_id AS conversationId, coalesce(m.tokens, length(m.content) / 4 + 1) AS length, messages_fts.rowid AS newness, NULL AS n
           FROM messages_fts CROSS JOIN messages m ON m.rowid = messages_fts.rowid
           CROSS JOIN conversations c ON c.id = m.conversation_id AND c.actor = m.actor
          WHERE messages_fts MATCH ? AND m.actor = ? AND m.on_path = 1 AND m.role IN ('user', 'assistant') AND c.memory = 1${gate}
          ORDER BY messages_fts.rowid DESC LIMIT ${Number(cap)})`,
    );
    const counted = [...count].map(
      (t) =>
        `SELECT ${Number(t)}, NULL, NULL, NULL, NULL, (SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?) WHERE 1${gate}`,
    );
    // Whether a message the turn could be given waits for the index: any of the caller's, but
    // for this conversation's newest `window` (the context holds those). The backlog is a
    // second's writes at most.
    const inWindow =
      within === undefined || window === 0
        ? ''
        : ` AND (m.conversation_id IS NOT ? OR m.seq < coalesce((SELECT w.seq FROM messages w
             WHERE w.conversation_id = ? AND w.on_path = 1 ORDER BY w.seq DESC LIMIT 1 OFFSET ${Number(window) - 1}), -1))`;
    const behind = `SELECT ${BEHIND_ROW}, NULL, NULL, NULL, NULL, EXISTS (
        SELECT 1 FROM messages_fts_pending p CROSS JOIN messages m ON m.rowid = p.message_rowid
         WHERE p.actor = ?${inWindow}) WHERE 1${gate}`;
    const params = [
      ...terms.flatMap((term) => [contentMatch([term], [], actor), actor, ...gateParams]),
      ...[...count].flatMap((t) => [contentMatch([terms[t]], [], actor), ...gateParams]),
      actor,
      ...(inWindow ? [within, within] : []),
      ...gateParams,
    ];
    const rows: RecallRow[] = await em.query([...arms, ...counted, behind].join('\nUNION ALL\n'), params);
    return recallMatchesOf(rows);
  }

  async recallTotals(em: EntityManager, actor: string): Promise<CallerTotals> {
    const [row] = (await em.query(
      `SELECT count(*) AS docs, coalesce(sum(coalesce(m.tokens, length(m.content) / 4 + 1)), 0) AS length
         FROM conversations c CROSS JOIN messages m ON m.conversation_id = c.id AND m.actor = c.actor
        WHERE c.actor = ? AND m.role IN ('user', 'assistant')`,
      [actor],
    )) as Array<{ docs: number; length: number }>;
    return { docs: Number(row?.docs ?? 0), length: Number(row?.length ?? 0) };
  }

  async termCount(em: EntityManager, actor: string, term: SearchTerm): Promise<number> {
    const [row] = (await em.query(`SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ?`, [
      contentMatch([term], [], actor),
    ])) as Array<{ n: number }>;
    return Number(row?.n ?? 0);
  }

  async totals(em: EntityManager, actor: string): Promise<CallerTotals> {
    const sizes = (await em.query(
      `SELECT d.sz AS size FROM messages_fts CROSS JOIN messages_fts_docsize d ON d.id = messages_fts.rowid WHERE messages_fts MATCH ?`,
      [`owner : "${ownerToken(actor)}"`],
    )) as Array<{ size: Uint8Array }>;
    let length = 0;
    for (const s of sizes) length += contentTokens(s.size);
    return { docs: sizes.length, length };
  }

  async details(
    em: EntityManager,
    actor: string,
    query: SearchQuery,
    keys: readonly string[],
  ): Promise<Map<string, MessageHitDetails>> {
    // By rowid on the FTS table itself, so that the MATCH runs once, for those rows only.
    type Row = {
      k: number;
      id: string;
      conversationId: string;
      title: string;
      seq: number;
      thread: string;
      role: MessageRole;
      createdAt: string;
      onPath: number;
      snippet: string;
    };
    const rows: Row[] = await em.query(
      `SELECT messages_fts.rowid AS k, m.id AS id, m.conversation_id AS conversationId, c.title AS title, m.seq AS seq, m.thread AS thread,
              m.role AS role, m.created_at AS createdAt, m.on_path AS onPath, snippet(messages_fts, 0, '[', ']', '…', 12) AS snippet
         FROM messages_fts
         CROSS JOIN messages m ON m.rowid = messages_fts.rowid
         CROSS JOIN conversations c ON c.id = m.conversation_id AND c.actor = m.actor
        WHERE messages_fts MATCH ? AND messages_fts.rowid IN (${keys.map(() => '?').join(', ')}) AND m.actor = ?`,
      [contentMatch(query.terms, []), ...keys.map(Number), actor],
    );
    return new Map(
      rows.map((r) => [
        String(r.k),
        {
          messageId: r.id,
          conversationId: r.conversationId,
          conversationTitle: r.title,
          seq: Number(r.seq),
          thread: r.thread,
          role: r.role,
          createdAt: storedDate(r.createdAt),
          snippet: r.snippet,
          onPath: Number(r.onPath) === 1,
        },
      ]),
    );
  }

  async titleMatches(em: EntityManager, actor: string, query: SearchQuery, limit: number): Promise<TitleMatch[]> {
    const not = query.excluded.length ? ` NOT (${anyOf(query.excluded)})` : '';
    const rows: Array<{ conversationId: string; snippet: string; marks: number }> = await em.query(
      `SELECT c.id AS conversationId, snippet(conversations_fts, 0, '[', ']', '…', 12) AS snippet,
              length(highlight(conversations_fts, 0, char(1), '')) - length(replace(highlight(conversations_fts, 0, char(1), ''), char(1), '')) AS marks
         FROM conversations_fts CROSS JOIN conversations c ON c.rowid = conversations_fts.rowid
        WHERE conversations_fts MATCH ? AND c.actor = ?
        ORDER BY conversations_fts.rowid DESC LIMIT ${Number(limit)}`,
      [`(${anyOf(query.terms)})${not}`, actor],
    );
    return rows.map((r) => ({ conversationId: r.conversationId, weight: Number(r.marks), snippet: r.snippet }));
  }
}
