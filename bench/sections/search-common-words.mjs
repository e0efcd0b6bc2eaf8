// Search for common words at scale, on SQLite and on PostgreSQL, in-process: the built
// repository (dist/) against the query it replaced (kept below as the reference), on the same
// seeded data, with a check that both return the same hits in the same order.
// `node bench/sections/search-common-words.mjs [--messages=N] [--words=N] [--reference-calls=N] [--postgres=postgres://…/db]`
// (PostgreSQL is measured only with --postgres or BENCH_DATABASE_URL; it seeds schema `bench_search`).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ROOT, round, spread, summarize, tempDir } from '../lib/common.mjs';
import { seedSqlite, SEARCH_WORDS } from './search.mjs';

const { ConversationSearchRepository } = await import(join(ROOT, 'dist/src/conversations/conversation-search.repository.js'));
const { POSTGRES_MIGRATIONS } = await import(join(ROOT, 'dist/src/database/migrations/postgres/index.js'));

const ACTOR = 'api:owner';
const QUERIES = {
  common: 'release', // in about 83 % of the messages
  twoCommon: 'release schedule', // both in about 40 %
  twoMid: 'kyoto museum', // both in about 3.9 %: too many matches to rank all, too few to find by walking the newest
  rare: 'zanzibar', // in 2 messages of 50,000, one of them the caller's
};

/** An EntityManager as far as the repository uses one: `query` and the dialect. */
export function sqliteEm(db) {
  const statements = new Map();
  return {
    dataSource: { options: { type: 'better-sqlite3' } },
    async query(sql, params = []) {
      let s = statements.get(sql);
      if (!s) statements.set(sql, (s = db.prepare(sql)));
      return s.reader ? s.all(...params) : s.run(...params);
    },
  };
}
function pgEm(client) {
  return { dataSource: { options: { type: 'postgres' } }, query: async (sql, params = []) => (await client.query(sql, params)).rows };
}

/** The SQL before the change (commit 6c798f4), one hit per conversation, best first. */
export async function referenceSearch(em, actor, text, limit) {
  const postgres = em.dataSource.options.type === 'postgres';
  const words = (text.match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 32).map((w) => `"${w}"`).join(' ');
  const titles = postgres
    ? (await em.query(
        `SELECT c.id AS "conversationId", ts_rank(to_tsvector('simple', c.title), q) AS rank, ts_headline('simple', c.title, q, 'StartSel=[, StopSel=]') AS snippet
           FROM conversations c, plainto_tsquery('simple', $1) q WHERE c.actor = $2 AND to_tsvector('simple', c.title) @@ q ORDER BY rank DESC LIMIT ${limit}`,
        [text, actor],
      )).map((r) => ({ conversationId: r.conversationId, messageId: null, snippet: r.snippet, score: 1000 + Number(r.rank) }))
    : (await em.query(
        `SELECT c.id AS conversationId, snippet(conversations_fts, 0, '[', ']', '…', 12) AS snippet, bm25(conversations_fts) AS rank
           FROM conversations_fts JOIN conversations c ON c.rowid = conversations_fts.rowid WHERE conversations_fts MATCH ? AND c.actor = ? ORDER BY rank LIMIT ${limit}`,
        [words, actor],
      )).map((r) => ({ conversationId: r.conversationId, messageId: null, snippet: r.snippet, score: 1000 - r.rank }));
  const messages = postgres
    ? (await em.query(
        `WITH q AS (SELECT plainto_tsquery('simple', $1) AS q),
         ranked AS (SELECT m.conversation_id, m.id, m.seq, m.thread, m.content, ts_rank(to_tsvector('simple', m.content), q.q) AS rank
             FROM messages m JOIN conversations c ON c.id = m.conversation_id, q
            WHERE c.actor = $2 AND to_tsvector('simple', m.content) @@ q.q ORDER BY m.created_at DESC, m.seq DESC LIMIT 2000),
         best AS (SELECT DISTINCT ON (conversation_id) * FROM ranked ORDER BY conversation_id, rank DESC)
         SELECT best.conversation_id AS "conversationId", best.id AS "messageId", best.rank::float AS rank,
                ts_headline('simple', best.content, q.q, 'StartSel=[, StopSel=], MaxWords=20, MinWords=6, ShortWord=1') AS snippet
           FROM best, q ORDER BY rank DESC`,
        [text, actor],
      )).map((r) => ({ conversationId: r.conversationId, messageId: r.messageId, snippet: r.snippet, score: Number(r.rank) }))
    : (await em.query(
        `SELECT m.conversation_id AS conversationId, m.id AS messageId, snippet(messages_fts, 0, '[', ']', '…', 12) AS snippet, bm25(messages_fts) AS rank
           FROM messages_fts JOIN messages m ON m.rowid = messages_fts.rowid JOIN conversations c ON c.id = m.conversation_id
          WHERE messages_fts MATCH ? AND c.actor = ? ORDER BY messages_fts.rowid DESC LIMIT 2000`,
        [words, actor],
      )).map((r) => ({ conversationId: r.conversationId, messageId: r.messageId, snippet: r.snippet, score: -r.rank }))
        .sort((a, b) => b.score - a.score);
  const best = new Map();
  for (const hit of [...titles, ...messages]) {
    const seen = best.get(hit.conversationId);
    if (!seen) best.set(hit.conversationId, hit);
    else if (seen.messageId === null && hit.messageId !== null) best.set(hit.conversationId, { ...hit, score: seen.score });
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit);
}

const key = (hits) => hits.map((h) => `${h.conversationId}/${h.messageId}/${h.snippet}`).join('\n');

/** p50/p99 of `calls` sequential searches, one repetition of each in turn, so both see the same load. */
async function measurePair(searches, text, { repetitions, calls, referenceCalls }) {
  const figures = Object.fromEntries(Object.keys(searches).map((name) => [name, { p50: [], p99: [] }]));
  for (const search of Object.values(searches)) for (let i = 0; i < 3; i++) await search(text); // warm-up
  for (let r = 0; r < repetitions; r++) {
    for (const [name, search] of Object.entries(searches)) {
      const samples = [];
      for (let i = 0; i < (name === 'reference' ? referenceCalls : calls); i++) {
        const t = process.hrtime.bigint();
        await search(text);
        samples.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      const s = summarize(samples);
      figures[name].p50.push(round(s.p50, 2));
      figures[name].p99.push(round(s.p99, 2));
    }
  }
  return Object.fromEntries(Object.entries(figures).map(([name, f]) => [name, { p50Ms: spread(f.p50), p99Ms: spread(f.p99) }]));
}

/** p50/p99 of searches each by a new repository, so nothing is kept from an earlier one (word counts). */
async function firstSearch(em, text, calls) {
  const samples = [];
  for (let i = 0; i < calls; i++) {
    const repo = new ConversationSearchRepository();
    const t = process.hrtime.bigint();
    await repo.search(em, ACTOR, text, 20);
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const s = summarize(samples);
  return { p50Ms: round(s.p50, 2), p99Ms: round(s.p99, 2), n: s.n };
}

async function compare(em, settings, log) {
  const repo = new ConversationSearchRepository();
  const out = {};
  for (const [name, text] of Object.entries(QUERIES)) {
    const now = await repo.search(em, ACTOR, text, 20);
    const before = await referenceSearch(em, ACTOR, text, 20);
    const sameHits = key(now) === key(before);
    const { after, reference } = await measurePair(
      { after: (t) => repo.search(em, ACTOR, t, 20), reference: (t) => referenceSearch(em, ACTOR, t, 20) },
      text,
      settings,
    );
    out[name] = { q: text, hits: now.length, sameHitsAsReference: sameHits, after, reference };
    if (em.dataSource.options.type !== 'postgres') {
      // Every candidate's score, computed by the repository (from kept word counts, for common
      // words) against bm25() itself on the same rows: equal to the last bit, in the same order.
      const own = await repo.sqliteMessages(em, ACTOR, text);
      const bm25 = await repo.sqliteMessages(em, ACTOR, text, false);
      out[name].candidates = own.length;
      out[name].sameScoresAsBm25 = own.length === bm25.length && own.every((c, i) => c.messageId === bm25[i].messageId && c.score === bm25[i].score);
      // A word's first search (or the first after its count expired) counts its rows, as bm25() did.
      out[name].firstSearch = await firstSearch(em, text, settings.calls / 5);
    }
    log?.(`  ${name} "${text}": ${now.length} hits, same as reference: ${sameHits}${out[name].sameScoresAsBm25 === undefined ? '' : `, scores same as bm25(): ${out[name].sameScoresAsBm25}, first search p50 ${out[name].firstSearch.p50Ms} ms`}; p50 ${after.p50Ms.median} ms (reference ${reference.p50Ms.median} ms), p99 ${after.p99Ms.median} ms (reference ${reference.p99Ms.median} ms)`);
  }
  return out;
}

/** Conversations of 100 messages, 1 in 10 the caller's, contents as in search.mjs, in set-based SQL. */
async function seedPostgres(client, messages, wordsPerMessage) {
  const started = Date.now();
  await client.query('SET synchronous_commit = off');
  const words = `ARRAY[${SEARCH_WORDS.map((w) => `'${w}'`).join(',')}]`;
  await client.query(
    `INSERT INTO conversations (id, actor, title, last_seq, created_at, updated_at, agent_id, state, archived, pinned)
     SELECT md5('c' || c)::uuid::text, CASE WHEN c % 10 = 0 THEN '${ACTOR}' ELSE 'api:user' || (c % 97) END,
            'Conversation ' || c || ' about ' || (${words})[1 + c % ${SEARCH_WORDS.length}], 100,
            now() - interval '1 day', now() - interval '1 day' + c * interval '1 ms', NULL, '{}', false, false
       FROM generate_series(0, $1::int / 100 - 1) c`,
    [messages],
  );
  await client.query(
    `INSERT INTO messages (id, conversation_id, actor, seq, role, content, status, model, created_at, thread, tokens)
     SELECT md5('m' || n)::uuid::text, md5('c' || ((n - 1) / 100))::uuid::text,
            CASE WHEN ((n - 1) / 100) % 10 = 0 THEN '${ACTOR}' ELSE 'api:user' || (((n - 1) / 100) % 97) END, (n - 1) % 100 + 1,
            CASE WHEN n % 2 = 1 THEN 'user' ELSE 'assistant' END,
            (SELECT string_agg((${words})[1 + floor(${SEARCH_WORDS.length} * random() ^ 2)::int], ' ') FROM generate_series(1, ${Number(wordsPerMessage)} + 0 * n))
              || CASE WHEN n % 50000 IN (0, 1) THEN ' zanzibar' ELSE '' END,
            'complete', 'echo', now() - interval '1 day' + n * interval '1 ms', 'main', 20
       FROM generate_series(1, $1::int) n`,
    [messages],
  );
  // The reference query's index, which migration 1764610000000 replaced by messages_search.
  await client.query(`CREATE INDEX IF NOT EXISTS idx_messages_fts_reference ON messages USING GIN (to_tsvector('simple', content))`);
  await client.query('ANALYZE conversations; ANALYZE messages; ANALYZE messages_search');
  return (Date.now() - started) / 1000;
}

async function migratePostgres(url, schema) {
  const { DataSource } = await import('typeorm');
  const ds = new DataSource({ type: 'postgres', url, schema, extra: { options: `-c search_path=${schema}` }, migrations: POSTGRES_MIGRATIONS, migrationsRun: false, logging: false });
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  await ds.destroy();
}

/**
 * Callers with few messages searching a common word (SQLite): one with none, one with 10
 * conversations (1,000 messages, taken from another actor), one with 30 (3,000). The walk over
 * every actor's matches used to read most of them looking for theirs; their messages are now
 * looked up one by one (ConversationSearchRepository.driveFromCallerRows).
 */
async function smallCallers(db, settings, log) {
  const em = sqliteEm(db);
  // Conversations handed to another actor, with their messages (the actor is part of their keys).
  const take = db.transaction((actor, count) => {
    db.pragma('defer_foreign_keys = ON');
    const ids = db.prepare(`SELECT id FROM conversations WHERE actor = 'api:user5' LIMIT ?`).pluck().all(count);
    const list = ids.map(() => '?').join(', ');
    db.prepare(`UPDATE conversations SET actor = ? WHERE id IN (${list})`).run(actor, ...ids);
    db.prepare(`UPDATE messages SET actor = ? WHERE conversation_id IN (${list})`).run(actor, ...ids);
  });
  take('api:small1000', 10);
  take('api:small3000', 30);
  const repo = new ConversationSearchRepository();
  // The same search walking every actor's matches for the caller's, as for a large caller.
  const walk = new ConversationSearchRepository();
  walk.driveFromCallerRows = -1;
  const out = {};
  for (const actor of ['api:nobody', 'api:small1000', 'api:small3000']) {
    for (const [name, text] of Object.entries({ common: QUERIES.common, twoCommon: QUERIES.twoCommon })) {
      const now = await repo.search(em, actor, text, 20);
      const before = await referenceSearch(em, actor, text, 20);
      const figures = await measurePair(
        { after: (t) => repo.search(em, actor, t, 20), walk: (t) => walk.search(em, actor, t, 20), reference: (t) => referenceSearch(em, actor, t, 20) },
        text,
        { ...settings, calls: 20, referenceCalls: 5 },
      );
      out[`${actor} ${name}`] = { q: text, hits: now.length, sameHitsAsReference: key(now) === key(before), ...figures };
      log?.(`  ${actor} "${text}": ${now.length} hits, same as reference: ${key(now) === key(before)}; p50 ${figures.after.p50Ms.median} ms (walk ${figures.walk.p50Ms.median} ms, reference ${figures.reference.p50Ms.median} ms), p99 ${figures.after.p99Ms.median} ms (walk ${figures.walk.p99Ms.median} ms)`);
    }
  }
  return out;
}

export async function searchCommonWords({ messages = 1_000_000, wordsPerMessage = 12, postgresUrl, repetitions = 3, calls = 50, referenceCalls = 20 } = {}, log) {
  const settings = { repetitions, calls, referenceCalls };
  const result = { messages, actorMessages: messages / 10, wordsPerMessage, settings };
  const tmp = tempDir('search-common');
  try {
    const file = join(tmp.dir, 'search.sqlite');
    result.sqlite = { seedS: round(await seedSqlite(file, messages, wordsPerMessage), 1) };
    log?.(`SQLite: ${messages} messages seeded in ${result.sqlite.seedS} s`);
    const db = new Database(file, { readonly: false });
    try {
      result.sqlite.queries = await compare(sqliteEm(db), settings, log);
      result.sqlite.smallCallers = await smallCallers(db, settings, log);
    } finally {
      db.close();
    }
  } finally {
    tmp.remove();
  }
  if (postgresUrl) {
    const schema = 'bench_search';
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
      await migratePostgres(postgresUrl, schema);
      await admin.query(`SET search_path = ${schema}`);
      result.postgres = { seedS: round(await seedPostgres(admin, messages, wordsPerMessage), 1) };
      log?.(`PostgreSQL: ${messages} messages seeded in ${result.postgres.seedS} s`);
      result.postgres.queries = await compare(pgEm(admin), settings, log);
    } finally {
      if (!process.env.BENCH_KEEP_SCHEMA) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await admin.end();
    }
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=');
  const result = await searchCommonWords(
    {
      messages: Number(arg('messages') ?? 1_000_000),
      // --words=800: long messages (about 5,000 characters), where making a snippet costs most.
      wordsPerMessage: Number(arg('words') ?? 12),
      referenceCalls: Number(arg('reference-calls') ?? 20),
      postgresUrl: arg('postgres') ?? process.env.BENCH_DATABASE_URL,
    },
    console.log,
  );
  console.log(JSON.stringify(result, null, 2));
}
