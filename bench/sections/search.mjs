// Full-text search at scale: 1,000,000 stored messages on SQLite, searched over HTTP through the
// built server. Runs alone (`node bench/sections/search.mjs [--messages=N]`) or from run.mjs.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { DIST_MAIN, request, ROOT, round, sleep, startServer, summarize, tempDir } from '../lib/common.mjs';

export const SEARCH_WORDS = (
  'release schedule budget travel lisbon kyoto recipe pasta tomato garden python rust database index ' +
  'weather meeting invoice contract summary error deploy server client model token window memory ' +
  'holiday flight hotel museum coffee tea bread cheese salad soup music guitar piano novel poem ' +
  'football tennis running cycling swimming doctor lesson homework exam grammar vocabulary history'
).split(' ');
const WORDS = SEARCH_WORDS;
const sqlDate = (ms) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/** A sentence of 12 words drawn with a skewed (roughly Zipf) distribution, plus a rare marker sometimes. */
function sentence(rand, i, count = 12) {
  const words = [];
  for (let w = 0; w < count; w++) words.push(WORDS[Math.floor(WORDS.length * rand() ** 2)]);
  // Twice every 50,000 messages: once in a conversation of the measured actor, once in another actor's.
  if (i % 50_000 === 0 || i % 50_000 === 1) words.push('zanzibar');
  return words.join(' ');
}

function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Seeds `messages` messages in conversations of 100 messages, 10% of them the measured actor's
 * (`api:owner`, single-user mode) and the rest other actors', through the migrated schema, so the
 * FTS triggers index everything exactly as in use.
 */
export async function seedSqlite(file, messages, wordsPerMessage = 12) {
  // The service's own statement (an older build has none: it indexes each row as it is written).
  const { INDEX_NOTED_SQL } = await import(
    pathToFileURL(join(ROOT, 'dist', 'src', 'conversations', 'message-index-backlog.js')).href
  ).catch(() => ({}));
  const server = await startServer({
    script: DIST_MAIN,
    env: { DATABASE_URL: `sqlite:${file}` },
    label: 'search-migrate',
  });
  await server.stop();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF'); // seeding only; the timed server uses its own pragmas
  const rand = mulberry32(42);
  const insertConversation = db.prepare(
    `INSERT INTO conversations (id, actor, title, last_seq, created_at, updated_at, agent_id, state, archived, pinned) VALUES (?, ?, ?, ?, ?, ?, NULL, '{}', 0, 0)`,
  );
  const insertMessage = db.prepare(
    `INSERT INTO messages (id, conversation_id, actor, seq, role, content, status, model, created_at, thread, tokens) VALUES (?, ?, ?, ?, ?, ?, 'complete', 'echo', ?, 'main', 20)`,
  );
  const perConversation = 100;
  const started = Date.now();
  const t0 = Date.now() - messages * 1000;
  db.transaction(() => {
    for (let c = 0; c < messages / perConversation; c++) {
      const id = randomUUID();
      const actor = c % 10 === 0 ? 'api:owner' : `api:user${c % 97}`;
      insertConversation.run(
        id,
        actor,
        `Conversation ${c} about ${WORDS[c % WORDS.length]}`,
        perConversation,
        sqlDate(t0),
        sqlDate(t0 + c),
      );
      for (let s = 1; s <= perConversation; s++) {
        const n = c * perConversation + s;
        insertMessage.run(
          randomUUID(),
          id,
          actor,
          s,
          s % 2 ? 'user' : 'assistant',
          sentence(rand, n, wordsPerMessage),
          sqlDate(t0 + n),
        );
      }
    }
    // The service indexes messages for search in batches, as they wait in messages_fts_pending:
    // the seed's are indexed now, in its transaction, as an index long caught up holds them.
    if (INDEX_NOTED_SQL) {
      db.prepare(INDEX_NOTED_SQL).run();
      db.exec(`DELETE FROM messages_fts_pending`);
    }
  })();
  db.close();
  return (Date.now() - started) / 1000;
}

export async function searchAtScale({ messages = 1_000_000, requests = 200 } = {}) {
  const tmp = tempDir('search');
  try {
    const file = join(tmp.dir, 'search.sqlite');
    const seedS = await seedSqlite(file, messages);
    const server = await startServer({ script: DIST_MAIN, env: { DATABASE_URL: `sqlite:${file}` }, label: 'search' });
    try {
      const queries = {
        rare: 'zanzibar', // in 2 messages of 50,000, half of them the measured actor's
        common: 'release', // in most messages
        twoWords: 'kyoto museum',
        noMatch: 'quokka',
      };
      const results = {};
      for (const [name, q] of Object.entries(queries)) {
        const path = `/api/conversations?q=${encodeURIComponent(q)}&limit=20`;
        for (let i = 0; i < 10; i++) await request(server.port, 'GET', path); // warm-up
        const samples = [];
        let hits = 0;
        for (let i = 0; i < requests; i++) {
          const t = process.hrtime.bigint();
          const res = await request(server.port, 'GET', path);
          samples.push(Number(process.hrtime.bigint() - t) / 1e6);
          if (res.status !== 200) throw new Error(`search ${q}: HTTP ${res.status}`);
          hits = res.body.items.length;
        }
        const s = summarize(samples);
        results[name] = { q, hits, p50Ms: round(s.p50, 2), p99Ms: round(s.p99, 2), n: s.n };
        await sleep(50);
      }
      return { messages, actorMessages: messages / 10, seedS: round(seedS, 1), queries: results };
    } finally {
      await server.stop();
    }
  } finally {
    tmp.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = process.argv.find((a) => a.startsWith('--messages='));
  const result = await searchAtScale({ messages: arg ? Number(arg.split('=')[1]) : 1_000_000 });
  console.log(JSON.stringify(result, null, 2));
}
