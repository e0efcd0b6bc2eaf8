// Ranked message search at scale, on SQLite and on PostgreSQL, in-process: the built
// RecallService (dist/) on seeded data, for common, mid and rare words, for the large caller
// (10 % of the messages) and for callers of LoCoMo's size (about 6,000 messages) and smaller.
// `node bench/sections/search-common-words.mjs [--messages=N] [--words=N] [--postgres=postgres://…/db]`
// (PostgreSQL is measured only with --postgres or BENCH_DATABASE_URL; it seeds schema `bench_search`).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ROOT, round, spread, summarize, tempDir } from '../lib/common.mjs';
import { seedSqlite, SEARCH_WORDS } from './search.mjs';

const { RecallService } = await import(join(ROOT, 'dist/src/recall/recall.service.js'));
const { MessageSearchRepository } = await import(join(ROOT, 'dist/src/conversations/message-search.repository.js'));
const { POSTGRES_MIGRATIONS } = await import(join(ROOT, 'dist/src/database/migrations/postgres/index.js'));

const ACTOR = 'api:owner';
const QUERIES = {
  common: 'release', // in about 83 % of the messages
  twoCommon: 'release schedule', // both in about 40 %
  twoMid: 'kyoto museum', // both in about 3.9 %
  rare: 'zanzibar', // in 2 messages of 50,000, one of them the caller's
  question: 'When is the release of the kyoto museum schedule?',
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
  return {
    dataSource: { options: { type: 'postgres' } },
    query: async (sql, params = []) => (await client.query(sql, params)).rows,
  };
}

/** The service with its reads on `em` (no replicas). */
export function recallOn(em) {
  return new RecallService({ replicaRead: (_actor, work) => work(em) }, new MessageSearchRepository(), null);
}

/** p50/p99 of `calls` sequential message searches, in `repetitions` rounds; and the same with the caller's figures counted afresh each time. */
async function measure(recall, actor, text, { repetitions, calls }) {
  const p50 = [];
  const p99 = [];
  for (let i = 0; i < 3; i++) await recall.searchMessages({ id: actor }, text, { limit: 20 }); // warm-up
  for (let r = 0; r < repetitions; r++) {
    const samples = [];
    for (let i = 0; i < calls; i++) {
      const t = process.hrtime.bigint();
      await recall.searchMessages({ id: actor }, text, { limit: 20 });
      samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const s = summarize(samples);
    p50.push(round(s.p50, 2));
    p99.push(round(s.p99, 2));
  }
  const fresh = [];
  for (let i = 0; i < Math.max(5, calls / 5); i++) {
    recall.statistics.maxAgeMs = 0;
    const t = process.hrtime.bigint();
    await recall.searchMessages({ id: actor }, text, { limit: 20 });
    fresh.push(Number(process.hrtime.bigint() - t) / 1e6);
    recall.statistics.maxAgeMs = 60_000;
  }
  const f = summarize(fresh);
  return {
    p50Ms: spread(p50),
    p99Ms: spread(p99),
    figuresCountedP50Ms: round(f.p50, 2),
    figuresCountedP99Ms: round(f.p99, 2),
  };
}

async function measureCallers(em, actors, settings, log) {
  const recall = recallOn(em);
  const out = {};
  for (const actor of actors) {
    for (const [name, text] of Object.entries(QUERIES)) {
      const page = await recall.searchMessages({ id: actor }, text, { limit: 20 });
      const figures = await measure(recall, actor, text, settings);
      out[`${actor} ${name}`] = { q: text, hits: page.items.length, ...figures };
      log?.(
        `  ${actor} "${text}": ${page.items.length} hits; p50 ${figures.p50Ms.median} ms, p99 ${figures.p99Ms.median} ms (figures counted afresh: p50 ${figures.figuresCountedP50Ms} ms, p99 ${figures.figuresCountedP99Ms} ms)`,
      );
    }
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
  await client.query('ANALYZE conversations; ANALYZE messages; ANALYZE messages_search');
  return (Date.now() - started) / 1000;
}

async function migratePostgres(url, schema) {
  const { DataSource } = await import('typeorm');
  const ds = new DataSource({
    type: 'postgres',
    url,
    schema,
    extra: { options: `-c search_path=${schema}` },
    migrations: POSTGRES_MIGRATIONS,
    migrationsRun: false,
    logging: false,
  });
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  await ds.destroy();
}

/** Conversations handed from another actor to `actor`, with their messages (the actor is part of their keys). */
function handOver(db, actor, count) {
  db.transaction(() => {
    db.pragma('defer_foreign_keys = ON');
    const ids = db.prepare(`SELECT id FROM conversations WHERE actor = 'api:user5' LIMIT ?`).pluck().all(count);
    const list = ids.map(() => '?').join(', ');
    db.prepare(`UPDATE conversations SET actor = ? WHERE id IN (${list})`).run(actor, ...ids);
    db.prepare(`UPDATE messages SET actor = ? WHERE conversation_id IN (${list})`).run(actor, ...ids);
  })();
}

export async function searchCommonWords(
  { messages = 1_000_000, wordsPerMessage = 12, postgresUrl, repetitions = 3, calls = 50 } = {},
  log,
) {
  const settings = { repetitions, calls };
  const result = { messages, actorMessages: messages / 10, wordsPerMessage, settings };
  const tmp = tempDir('search-common');
  try {
    const file = join(tmp.dir, 'search.sqlite');
    result.sqlite = { seedS: round(await seedSqlite(file, messages, wordsPerMessage), 1) };
    log?.(`SQLite: ${messages} messages seeded in ${result.sqlite.seedS} s`);
    const db = new Database(file, { readonly: false });
    try {
      // A LoCoMo-size caller (60 conversations of 100 messages) and a small one.
      handOver(db, 'api:locomo', 60);
      handOver(db, 'api:small1000', 10);
      result.sqlite.queries = await measureCallers(
        sqliteEm(db),
        [ACTOR, 'api:locomo', 'api:small1000', 'api:nobody'],
        settings,
        log,
      );
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
      result.postgres.queries = await measureCallers(pgEm(admin), [ACTOR, 'api:nobody'], settings, log);
    } finally {
      if (!process.env.BENCH_KEEP_SCHEMA) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await admin.end();
    }
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name) =>
    process.argv
      .find((a) => a.startsWith(`--${name}=`))
      ?.split('=')
      .slice(1)
      .join('=');
  const result = await searchCommonWords(
    {
      messages: Number(arg('messages') ?? 1_000_000),
      // --words=800: long messages (about 5,000 characters), where making a snippet costs most.
      wordsPerMessage: Number(arg('words') ?? 12),
      calls: Number(arg('calls') ?? 50),
      repetitions: Number(arg('repetitions') ?? 3),
      postgresUrl: arg('postgres') ?? process.env.BENCH_DATABASE_URL,
    },
    console.log,
  );
  console.log(JSON.stringify(result, null, 2));
}
