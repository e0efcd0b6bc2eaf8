import { mkdirSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import {
  CuttableRelay,
  fillSqliteLimit,
  freeSqliteLimit,
  mountSmallDisk,
  rawConnection,
  SqliteDatabase,
  type SqliteFile,
} from '../../support/storage-faults.js';
import {
  ALICE_KEY,
  auth,
  databaseUrlFor,
  DIALECT,
  startTestApp,
  tempDir,
  type TestApp,
} from '../../support/test-app.js';
import { openEventStream } from '../../support/sse-client.js';
import { deferred, until } from '../../support/until.js';

const onSqlite = DIALECT === 'sqlite' ? describe : describe.skip;
const onPostgres = DIALECT === 'postgres' ? describe : describe.skip;

/** A question of about 1 KB, so that a few turns need fresh pages. */
const question = (i: number) => `question ${i} ${'lorem ipsum '.repeat(90)}`;

interface Sent {
  readonly status: number;
  readonly conversationId?: string;
  readonly question: string;
  readonly retryAfter?: string;
  readonly body: Record<string, unknown>;
}

async function send(app: TestApp, i: number, conversationId?: string): Promise<Sent> {
  const q = question(i);
  const res = await app
    .http()
    .post('/api/chat')
    .set(auth(ALICE_KEY))
    .send({ message: q, ...(conversationId ? { conversationId } : {}) });
  return {
    status: res.status,
    conversationId: res.body.conversationId,
    question: q,
    retryAfter: res.headers['retry-after'],
    body: res.body,
  };
}

/** Every turn answered 200 is in the file, exactly once, as another process reads it; the file is intact. */
function expectStoredExactlyOnce(file: string, answered: readonly Sent[]): void {
  const other = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    for (const turn of answered) {
      const rows = other
        .prepare('SELECT role, status FROM messages WHERE conversation_id = ? ORDER BY seq')
        .all(turn.conversationId) as Array<{ role: string; status: string }>;
      const questions = other.prepare('SELECT COUNT(*) AS n FROM messages WHERE content = ?').get(turn.question) as {
        n: number;
      };
      expect(questions.n).toBe(1);
      expect(rows.filter((r) => r.role === 'assistant' && r.status === 'complete').length).toBeGreaterThanOrEqual(1);
    }
    expect(other.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  } finally {
    other.close();
  }
  // FTS5's check is an INSERT: it needs a connection that may write (it writes nothing).
  const checker = new SqliteDatabase(file, { fileMustExist: true });
  try {
    checker.exec(`INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)`);
  } finally {
    checker.close();
  }
}

/**
 * A full database, then space again: turns answered 200 are stored, the others get 507 with
 * Retry-After, readiness says not writable, and writes work again without a restart.
 */
async function fullDiskScenario(
  app: TestApp,
  disk: { fill(): Promise<void> | void; free(): Promise<void> | void },
): Promise<void> {
  const answered: Sent[] = [];
  for (let i = 0; i < 3; i++) answered.push(await send(app, i));
  expect(answered.map((t) => t.status)).toEqual([200, 200, 200]);
  expect((await app.http().get('/health/ready')).status).toBe(200);

  await disk.fill();
  const refused: Sent[] = [];
  for (let i = 3; i < 33; i++) {
    const turn = await send(app, i);
    (turn.status === 200 ? answered : refused).push(turn);
  }
  expect(refused.length).toBeGreaterThan(0);
  for (const turn of refused) {
    expect(turn.status).toBe(507);
    // The question may still fit where the reply does not (it depends on where the page fills up):
    // then the answer says the reply was not stored, with the same status.
    expect(turn.body).toMatchObject({ statusCode: 507 });
    expect(['storage_full', 'reply_not_stored']).toContain(turn.body.code);
    expect(Number(turn.retryAfter)).toBeGreaterThan(0);
  }
  // The service answered: nothing hangs in a transaction, and every 200 is really stored.
  expect(rawConnection(app.app.get(DataSource)).inTransaction).toBe(false);
  expectStoredExactlyOnce(app.dbPath, answered);
  const ready = await app.http().get('/health/ready');
  expect(ready.status).toBe(503);
  expect(ready.body).toMatchObject({ database: 'not_writable', writable: false });
  const live = await app.http().get('/health');
  expect(live.status).toBe(200);
  expect(live.body).toMatchObject({ status: 'degraded', database: 'not_writable' });
  // Reads still work while nothing can be written.
  expect((await app.http().get('/api/conversations').set(auth(ALICE_KEY))).status).toBe(200);

  await disk.free();
  await until(async () => (await app.http().get('/health/ready')).status === 200, 15_000, 200);
  const after = await send(app, 100);
  expect(after.status).toBe(200);
  answered.push(after);
  expectStoredExactlyOnce(app.dbPath, answered);
}

onSqlite('a full SQLite database', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.remove());

  it('at its page limit (PRAGMA max_page_count): 507 with Retry-After, nothing answered 200 is lost, writes resume when it grows', async () => {
    const app = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite` });
    const ds = app.app.get(DataSource);
    try {
      await fullDiskScenario(app, { fill: () => fillSqliteLimit(ds), free: () => freeSqliteLimit(ds) });
    } finally {
      await app.close();
    }
  }, 60_000);

  const disk = process.getuid?.() === 0 ? it : it.skip;
  disk(
    'on a real file system that fills up (a small tmpfs, as root): the same, and the file is never left locked',
    async () => {
      const dir = `${tmp.dir}/disk`;
      mkdirSync(dir);
      const small = mountSmallDisk(dir);
      if (!small) return console.warn('tmpfs could not be mounted here: the real-disk case was not run');
      try {
        const app = await startTestApp({ dbPath: `${dir}/chat.sqlite` });
        try {
          await fullDiskScenario(app, small);
          // Another process can write: the service holds no lock while idle.
          const other = new SqliteDatabase(`${dir}/chat.sqlite`);
          try {
            other.exec('BEGIN IMMEDIATE; COMMIT');
          } finally {
            other.close();
          }
        } finally {
          await app.close();
        }
      } finally {
        small.unmount();
      }
    },
    60_000,
  );

  it('a reply that cannot be stored is reported (an error event with 507 and the ids), and stored once space is back', async () => {
    const fake = await FakeOpenAiServer.start();
    const app = await startTestApp({
      dbPath: `${tmp.dir}/chat.sqlite`,
      llmBaseUrl: fake.url,
      env: { REPLY_LEASE_MS: '20000', STREAM_FLUSH_MS: '5000' },
    });
    const ds = app.app.get(DataSource);
    try {
      const release = deferred();
      // The question and the empty reply are stored; the model's answer comes once the database is full.
      fake.enqueue({ kind: 'stream', chunks: ['a long answer '.repeat(2_000)], hold: release.promise });
      const stream = await openEventStream(`${await app.url()}/api/chat/stream`, {
        method: 'POST',
        headers: auth(ALICE_KEY),
        body: { message: 'tell me everything' },
      });
      const opened = await stream.next();
      expect(opened?.event).toBe('conversation');
      await fillSqliteLimit(ds);
      release.resolve();
      const events = await stream.collect();
      const last = events.at(-1)!;
      expect(last.event).toBe('error');
      expect(last.data).toMatchObject({ statusCode: 507, messageId: opened!.data.messageId });
      const { conversationId, messageId } = opened!.data as { conversationId: string; messageId: string };
      // The next turn is refused for the full disk (the reply still waits to be stored), not as busy.
      const next = await app
        .http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ message: 'and then?', conversationId });
      expect(next.status).toBe(507);
      expect(next.body).toMatchObject({ code: 'storage_full' });
      expect(next.headers['retry-after']).toBeDefined();
      await freeSqliteLimit(ds);
      await until(
        async () => {
          const c = await app.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY));
          const reply = c.body.messages?.find((m: { id: string }) => m.id === messageId);
          return reply?.status === 'complete' && reply.content.startsWith('a long answer');
        },
        15_000,
        100,
      );
    } finally {
      await app.close();
      await fake.close();
    }
  }, 60_000);
});

onSqlite('the search index', () => {
  it("passes FTS5's integrity-check after an empty failed reply and a reply still being generated", async () => {
    const tmp = tempDir();
    const fake = await FakeOpenAiServer.start();
    const app = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, llmBaseUrl: fake.url });
    try {
      fake.enqueue({ kind: 'status', status: 500 });
      const failed = await app.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'this one fails' });
      expect(failed.status).toBe(502);
      fake.enqueue({ kind: 'hang' });
      const stream = await openEventStream(`${await app.url()}/api/chat/stream`, {
        method: 'POST',
        headers: auth(ALICE_KEY),
        body: { message: 'this one waits' },
      });
      expect((await stream.next())?.event).toBe('conversation');
      const checker = new SqliteDatabase(`${tmp.dir}/chat.sqlite`, { fileMustExist: true });
      try {
        expect(checker.prepare(`SELECT COUNT(*) AS n FROM messages WHERE content = ''`).get()).toEqual({ n: 2 });
        checker.exec(`INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)`);
      } finally {
        checker.close();
      }
      stream.abort();
    } finally {
      fake.reset();
      await app.close();
      await fake.close();
      tmp.remove();
    }
  });
});

onSqlite('a SQLite write lock held by another process', () => {
  let tmp: ReturnType<typeof tempDir>;
  let app: TestApp | undefined;
  let other: SqliteFile | undefined;
  /** The service, and another process's connection to its file. */
  const open = async (env: Record<string, string> = {}) => {
    app = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, env });
    other = new SqliteDatabase(`${tmp.dir}/chat.sqlite`);
    return { app, other };
  };
  beforeEach(() => (tmp = tempDir()));
  afterEach(async () => {
    if (other?.inTransaction) other.exec('ROLLBACK');
    other?.close();
    await app?.close();
    app = other = undefined;
    tmp.remove();
  });

  it('is waited for without blocking other requests, and the turn is stored once it is released', async () => {
    const { app, other } = await open();
    other.exec('BEGIN IMMEDIATE');
    let turnDone = false;
    const turn = send(app, 1).then((t) => ((turnDone = true), t));
    // The wait is asynchronous: the service keeps answering meanwhile.
    const health = await app.http().get('/health');
    expect(health.status).toBe(200);
    expect(turnDone).toBe(false);
    other.exec('COMMIT');
    const sent = await turn;
    expect(sent.status).toBe(200);
    expectStoredExactlyOnce(app.dbPath, [sent]);
  });

  it('held past the wait (SQLITE_BUSY_TIMEOUT_MS): 503 with Retry-After, nothing stored, and the next turn works', async () => {
    const { app, other } = await open({ SQLITE_BUSY_TIMEOUT_MS: '300' });
    other.exec('BEGIN IMMEDIATE');
    const refused = await send(app, 1);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ statusCode: 503, code: 'storage_busy' });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    other.exec('ROLLBACK');
    const sent = await send(app, 2);
    expect(sent.status).toBe(200);
    const reader = new SqliteDatabase(app.dbPath, { readonly: true });
    try {
      expect(reader.prepare('SELECT COUNT(*) AS n FROM messages WHERE content = ?').get(refused.question)).toEqual({
        n: 0,
      });
    } finally {
      reader.close();
    }
  }, 30_000);
});

onPostgres('PostgreSQL faults', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.remove());

  it('a disk-full error (SQLSTATE 53100) answers 507 with Retry-After and stores nothing; writes resume when it clears', async () => {
    const app = await startTestApp({ dbPath: `${tmp.dir}/pg-full` });
    const ds = app.app.get(DataSource);
    try {
      expect((await send(app, 1)).status).toBe(200);
      // A real PostgreSQL error with the disk-full code, raised where a full disk would raise it.
      await ds.query(
        `CREATE FUNCTION fail_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`,
      );
      for (const table of ['messages', 'storage_probe']) {
        await ds.query(
          `CREATE TRIGGER fail_disk_full BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION fail_disk_full()`,
        );
      }
      const refused = await send(app, 2);
      expect(refused.status).toBe(507);
      expect(refused.body).toMatchObject({ code: 'storage_full' });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect((await app.http().get('/health/ready')).status).toBe(503);
      for (const table of ['messages', 'storage_probe']) await ds.query(`DROP TRIGGER fail_disk_full ON ${table}`);
      await until(async () => (await app.http().get('/health/ready')).status === 200, 15_000, 200);
      expect((await send(app, 3)).status).toBe(200);
      const [{ n }] = await ds.query('SELECT COUNT(*)::int AS n FROM messages WHERE content = $1', [refused.question]);
      expect(n).toBe(0);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('a database outage answers 503 with Retry-After (never 500), /health says unreachable, and the service serves again when it is back', async () => {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    const relay = new CuttableRelay(target.hostname, Number(target.port || 5432));
    await relay.up();
    const url = new URL(databaseUrlFor(`${tmp.dir}/pg-outage`));
    url.host = `127.0.0.1:${relay.port}`;
    const app = await startTestApp({ dbPath: `${tmp.dir}/pg-outage`, env: { DATABASE_URL: url.toString() } });
    try {
      const first = await send(app, 1);
      expect(first.status).toBe(200);
      await relay.down();
      const refused = await send(app, 2, first.conversationId);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ statusCode: 503, code: 'storage_unavailable' });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      const list = await app.http().get('/api/conversations').set(auth(ALICE_KEY));
      expect(list.status).toBe(503);
      expect((await app.http().get('/health')).body).toMatchObject({ database: 'unreachable' });
      await relay.up();
      await until(async () => (await app.http().get('/health/ready')).status === 200, 15_000, 200);
      const after = await send(app, 3, first.conversationId);
      expect(after.status).toBe(200);
      const messages = await app.http().get(`/api/conversations/${first.conversationId}`).set(auth(ALICE_KEY));
      expect(
        messages.body.messages
          .map((m: { content: string }) => m.content)
          .filter((c: string) => c.startsWith('question')),
      ).toEqual([first.question, after.question]);
    } finally {
      await app.close();
      await relay.down();
    }
  }, 60_000);
});
