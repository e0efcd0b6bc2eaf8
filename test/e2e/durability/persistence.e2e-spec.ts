import { once } from 'node:events';
import { connect } from 'node:net';
import { DataSource } from 'typeorm';
import { USAGE_TOTALS_SQL } from '../../../src/conversations/messages.repository.js';
import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useFakeModelAndTempDir } from '../../support/app-fixture.js';
import { openEventStream } from '../../support/sse-client.js';
import { ALICE_KEY, auth, DIALECT, startTestApp, type TestApp } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';

const onSqlite = DIALECT === 'sqlite' ? it : it.skip;
const onPostgres = DIALECT === 'postgres' ? it : it.skip;

describe('persistence on a real SQLite file', () => {
  const fixture = useFakeModelAndTempDir();
  let fake: FakeOpenAiServer;
  beforeAll(() => ({ fake } = fixture));

  const chat = (t: TestApp, message: string, conversationId?: string) =>
    t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message, conversationId });

  it('survives a restart: close the app, reopen the same file, resume with memory', async () => {
    const dbPath = `${fixture.dir}/nested/folder/chat.sqlite`;
    const first = await startTestApp({ dbPath, llmBaseUrl: fake.url });
    const id = (await chat(first, 'Remember the number 42.').expect(200)).body.conversationId;
    await chat(first, 'And the colour teal.', id).expect(200);
    await first.close();

    const second = await startTestApp({ dbPath, llmBaseUrl: fake.url });
    try {
      await chat(second, 'What did I ask you to remember?', id).expect(200);
      expect(fake.lastCompletion.body.messages!.map((m) => m.content)).toEqual([
        'Remember the number 42.',
        'reply to: Remember the number 42.',
        'And the colour teal.',
        'reply to: And the colour teal.',
        'What did I ask you to remember?',
      ]);
      const list = await second.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200);
      expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([id]);
    } finally {
      await second.close();
    }
  });

  it('runs its migrations at start, and the schema matches the entities (no drift)', async () => {
    const t = await startTestApp({ dbPath: `${fixture.dir}/fresh.sqlite`, migrate: true });
    try {
      const ds = t.app.get(DataSource);
      expect(await ds.showMigrations()).toBe(false);
      const pending = await ds.driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
      expect(ds.options.synchronize).toBe(false);
    } finally {
      await t.close();
    }
  });

  // NORMAL once the migrations ran: the write queue flushes the WAL itself, off the event loop, before it answers (wal-durability.ts).
  onSqlite(
    'opens SQLite in WAL mode with foreign keys on, 1 KiB pages and full-text leaves that fit them, and commits with synchronous=NORMAL plus its own WAL flush',
    async () => {
      const t = await startTestApp({ dbPath: `${fixture.dir}/chat.sqlite` });
      try {
        const ds = t.app.get(DataSource);
        expect(await ds.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
        expect(await ds.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
        expect(await ds.query('PRAGMA synchronous')).toEqual([{ synchronous: 1 }]);
        // Pages of 1 KiB: a turn's WAL is the pages it changes, written whole (data-source-options.ts).
        expect(await ds.query('PRAGMA page_size')).toEqual([{ page_size: 1024 }]);
        // Full-text leaves that fit a page with their row's header (migration 1764970000000).
        for (const table of ['messages_fts', 'memories_fts', 'conversations_fts'])
          expect(await ds.query(`SELECT v FROM ${table}_config WHERE k = 'pgsz'`)).toEqual([{ v: 924 }]);
      } finally {
        await t.close();
      }
    },
  );

  // The history query of a turn (ConversationsRepository.recentHistory).
  const HISTORY_QUERY =
    "SELECT seq, role, content, tokens FROM messages WHERE conversation_id = 'x' AND thread = 'main' AND on_path = 1 AND seq < 100 AND status = 'complete' AND content <> '' ORDER BY seq DESC LIMIT 20";

  onSqlite(
    'reads the active path through its own partial (conversation_id, thread, seq) index, newest first with a limit (SQLite)',
    async () => {
      const t = await startTestApp({ dbPath: `${fixture.dir}/chat.sqlite` });
      try {
        const plan = await t.app.get(DataSource).query(`EXPLAIN QUERY PLAN ${HISTORY_QUERY}`);
        const details = plan.map((row: { detail: string }) => row.detail).join(' | ');
        expect(details).toContain('idx_messages_path_thread');
        expect(details).not.toContain('TEMP B-TREE');
      } finally {
        await t.close();
      }
    },
  );

  // Opening a conversation sums the token usage of all its replies: from an index that holds it,
  // not from the rows (a row read in random order, its content possibly on overflow pages, made
  // opening 100,000 messages 7 times slower: `npm run bench -- --only=reads`).
  onSqlite("sums a conversation's token usage from its covering index, not the rows (SQLite)", async () => {
    const t = await startTestApp({ dbPath: `${fixture.dir}/chat.sqlite` });
    try {
      const plan = await t.app.get(DataSource).query(`EXPLAIN QUERY PLAN ${USAGE_TOTALS_SQL}`, ['x', 'api:alice']);
      const details = plan.map((row: { detail: string }) => row.detail).join(' | ');
      expect(details).toBe('SEARCH messages USING COVERING INDEX idx_messages_usage (conversation_id=? AND actor=?)');
    } finally {
      await t.close();
    }
  });

  onPostgres('reads history through an index in seq order, newest first with a limit (PostgreSQL)', async () => {
    const t = await startTestApp({ dbPath: `${fixture.dir}/chat.sqlite` });
    try {
      const plan = await t.app.get(DataSource).transaction(async (em) => {
        // Tables are empty here, so tell the planner not to prefer a scan; the question is whether the index serves the query.
        await em.query('SET LOCAL enable_seqscan = off');
        return em.query(`EXPLAIN ${HISTORY_QUERY}`);
      });
      const text = plan.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join(' | ');
      expect(text).toMatch(
        /Index Scan Backward using (idx_messages_path_thread|idx_messages_path|uq_messages_conversation_seq) /,
      );
      expect(text).not.toContain('Sort');
    } finally {
      await t.close();
    }
  });

  it('never interleaves concurrent turns on one conversation: each gets its reply or 409, seq without gaps', async () => {
    const t = await startTestApp({ dbPath: `${fixture.dir}/chat.sqlite`, llmBaseUrl: fake.url });
    try {
      const id = (await chat(t, 'start').expect(200)).body.conversationId;
      const turns = 30;
      fake.enqueue(
        ...Array.from({ length: turns }, (_, i) => ({ kind: 'reply' as const, text: `answer`, delayMs: 5 + (i % 3) })),
      );
      const results = await Promise.all(Array.from({ length: turns }, (_, i) => chat(t, `parallel ${i}`, id)));
      const statuses = results.map((r) => r.status);
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      expect(statuses).toContain(409);
      const answered = results.filter((r) => r.status === 200).map((r) => r.body.userMessageId);

      const messages = (await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body.messages;
      expect(messages.map((m: { seq: number }) => m.seq)).toEqual(
        Array.from({ length: messages.length }, (_, i) => i + 1),
      );
      // Strictly question, answer, question, answer: a 409 stored nothing, nothing interleaved.
      expect(messages.map((m: { role: string }) => m.role)).toEqual(
        messages.map((_: unknown, i: number) => (i % 2 ? 'assistant' : 'user')),
      );
      expect(
        messages
          .filter((m: { role: string }) => m.role === 'user')
          .map((m: { id: string }) => m.id)
          .slice(1)
          .sort(),
      ).toEqual(answered.sort());
      expect(messages.every((m: { status: string }) => m.status === 'complete')).toBe(true);

      const fresh = await Promise.all(Array.from({ length: 20 }, (_, i) => chat(t, `new ${i}`)));
      expect(fresh.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(new Set(fresh.map((r) => r.body.conversationId)).size).toBe(20);
    } finally {
      await t.close();
    }
  });

  it('on shutdown, finishes and stores a reply whose client has already left', async () => {
    // No request is open here, so closing the HTTP server waits for nothing: only the chat
    // service's own drain keeps the database open until the reply is stored.
    const dbPath = `${fixture.dir}/chat.sqlite`;
    const t = await startTestApp({ dbPath, llmBaseUrl: fake.url });
    const gate = deferred();
    fake.enqueue({ kind: 'stream', chunks: ['still ', 'stored'], hold: gate.promise });
    const client = await openEventStream(`${await t.url()}/api/chat/stream`, {
      method: 'POST',
      headers: auth(ALICE_KEY),
      body: { message: 'do not lose me' },
    });
    const events = await client.collect((e) => e.event === 'delta');
    const { conversationId } = events[0].data;
    client.abort();
    const closing = t.close();
    await new Promise((r) => setTimeout(r, 100));
    gate.resolve();
    await closing;

    const reopened = await startTestApp({ dbPath });
    try {
      const stored = await reopened.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200);
      expect(stored.body.messages.map((m: { content: string; status: string }) => [m.content, m.status])).toEqual([
        ['do not lose me', 'complete'],
        ['still stored', 'complete'],
      ]);
    } finally {
      await reopened.close();
    }
  });

  it('shuts down without waiting for connections that send nothing: before the drain, during it, and after an answer', async () => {
    const t = await startTestApp({ dbPath: `${fixture.dir}/chat.sqlite`, llmBaseUrl: fake.url });
    const { port } = new URL(await t.url());
    /** A connection that sends nothing; resolves when the server has closed it. */
    const quiet = async () => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      await once(socket, 'connect');
      return { socket, closed: once(socket, 'close') };
    };
    // A browser opens connections before it has a request for them; this one never sends one.
    const before = await quiet();
    fake.enqueue({ kind: 'reply', text: 'answered while closing', delayMs: 400 });
    // supertest sends on then(): start it now, so the drain finds the turn in flight.
    const pending = chat(t, 'still answered').then((r) => r);
    await until(() => fake.completions.length === 1);
    const closing = t.close();
    await before.closed;
    const during = await quiet();
    await during.closed;
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.reply).toBe('answered while closing');
    // Resolves although no client closed a connection of its own.
    await closing;
  });

  it('finishes a turn in flight on shutdown before closing the database', async () => {
    const dbPath = `${fixture.dir}/chat.sqlite`;
    const t = await startTestApp({ dbPath, llmBaseUrl: fake.url });
    fake.enqueue({ kind: 'reply', text: 'slow but stored', delayMs: 400 });
    // supertest sends on then(); start it now and close while the model is still answering.
    const pending = chat(t, 'take your time').then((r) => r);
    const started = Date.now();
    while (fake.completions.length === 0 && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 10));
    expect(fake.completions).toHaveLength(1);
    const closing = t.close();
    await new Promise((r) => setTimeout(r, 50));
    // A request arriving while the turn drains is turned away with a JSON 503.
    const late = await t.http().get('/api/conversations').set(auth(ALICE_KEY));
    expect(late.status).toBe(503);
    expect(late.body).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'unavailable',
      message: expect.stringMatching(/shutting down/),
    });
    const [res] = await Promise.all([pending, closing]);
    expect(res.status).toBe(200);
    expect(res.body.reply).toBe('slow but stored');

    const reopened = await startTestApp({ dbPath });
    try {
      const stored = await reopened
        .http()
        .get(`/api/conversations/${res.body.conversationId}`)
        .set(auth(ALICE_KEY))
        .expect(200);
      expect(stored.body.messages.map((m: { content: string }) => m.content)).toEqual([
        'take your time',
        'slow but stored',
      ]);
    } finally {
      await reopened.close();
    }
  });
});
