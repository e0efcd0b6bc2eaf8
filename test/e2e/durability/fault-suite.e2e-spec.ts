import { DataSource } from 'typeorm';
import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { openEventStream } from '../../support/sse-client.js';
import {
  CuttableRelay,
  failNextCommits,
  fillSqliteLimit,
  freeSqliteLimit,
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
import { until } from '../../support/until.js';

/**
 * Faults under concurrent load: workers send JSON and streamed turns in several conversations
 * while a fault comes and goes. After each: every turn answered 200 (or `done`) is stored
 * exactly once with the reply the client got, every refusal was a clear status with
 * Retry-After (never a 500), the file (or database) is intact, and the service serves every
 * conversation again without a restart.
 */
const WORKERS = 4;
const TURNS_PER_WORKER = 12;

interface Outcome {
  readonly question: string;
  readonly status: number;
  readonly reply?: string;
  readonly code?: string;
  readonly retryAfter?: string | null;
}

interface Fault {
  on(): Promise<void> | void;
  off(): Promise<void> | void;
}

async function jsonTurn(app: TestApp, conversationId: string, question: string): Promise<Outcome> {
  const res = await app.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: question, conversationId });
  return {
    question,
    status: res.status,
    reply: res.status === 200 ? res.body.reply : undefined,
    code: res.body.code,
    retryAfter: res.headers['retry-after'] ?? null,
  };
}

async function streamTurn(base: string, conversationId: string, question: string): Promise<Outcome> {
  const stream = await openEventStream(`${base}/api/chat/stream`, {
    method: 'POST',
    headers: auth(ALICE_KEY),
    body: { message: question, conversationId },
  });
  if (stream.status !== 200) return { question, status: stream.status, code: stream.json?.code, retryAfter: 'json' };
  const events = await stream.collect();
  const last = events.at(-1);
  if (last?.event === 'done') return { question, status: 200, reply: last.data.reply };
  return { question, status: last?.event === 'error' ? last.data.statusCode : 0, code: 'stream' };
}

/** Runs the workers; the fault is switched on once `onAfter` turns are answered, off after `offAfter` more ended. */
async function underLoad(
  app: TestApp,
  fault: Fault,
  { onAfter = 8, offAfter = 12 } = {},
): Promise<{ outcomes: Outcome[]; conversations: string[] }> {
  const base = await app.url();
  const conversations: string[] = [];
  for (let w = 0; w < WORKERS; w++) {
    const res = await app
      .http()
      .post('/api/conversations')
      .set(auth(ALICE_KEY))
      .send({ title: `worker ${w}` })
      .expect(201);
    conversations.push(res.body.id);
  }
  const outcomes: Outcome[] = [];
  let phase = 'before' as 'before' | 'during' | 'after';
  let endedDuring = 0;
  const worker = async (w: number) => {
    for (let i = 0; i < TURNS_PER_WORKER; i++) {
      const question = `worker ${w} turn ${i} ${'filler text '.repeat(40)}`;
      const outcome =
        i % 2 ? await streamTurn(base, conversations[w], question) : await jsonTurn(app, conversations[w], question);
      outcomes.push(outcome);
      if (phase === 'before' && outcomes.filter((o) => o.status === 200).length >= onAfter) {
        phase = 'during';
        await fault.on();
      } else if (phase === 'during' && ++endedDuring >= offAfter) {
        phase = 'after';
        await fault.off();
      }
      // A reply the database refused holds its thread until it is stored or its lease ends.
      if (outcome.status === 409) await new Promise((r) => setTimeout(r, 200));
    }
  };
  await Promise.all(conversations.map((_, w) => worker(w)));
  if (phase !== 'after') await fault.off();
  return { outcomes, conversations };
}

/** What every fault must leave behind. */
async function expectRecovered(
  app: TestApp,
  outcomes: Outcome[],
  conversations: string[],
  refusals: number[],
): Promise<void> {
  expect(outcomes.filter((o) => o.status !== 200).length).toBeGreaterThan(0);
  for (const o of outcomes) {
    expect({
      question: o.question.slice(0, 20),
      allowed: [200, 409, ...refusals].includes(o.status),
      status: o.status,
    }).toMatchObject({ allowed: true });
    if (o.status !== 200 && o.status !== 409 && o.code !== 'stream') expect(o.retryAfter).toBeTruthy();
  }
  // No reply stays streaming, and every conversation takes a turn again.
  await until(
    async () => {
      for (const id of conversations) {
        const c = await app.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY));
        if (c.status !== 200 || c.body.messages.some((m: { status: string }) => m.status === 'streaming')) return false;
      }
      return true;
    },
    30_000,
    200,
  );
  for (const id of conversations) expect((await jsonTurn(app, id, `after the fault in ${id}`)).status).toBe(200);
  // Each answered turn exactly once, with the reply the client got, and nothing twice.
  const stored = new Map<string, { count: number; reply?: string; replyStatus?: string }>();
  for (const id of conversations) {
    const c = await app.http().get(`/api/conversations/${id}?limit=200`).set(auth(ALICE_KEY));
    const messages = c.body.messages as Array<{ role: string; content: string; status: string }>;
    messages.forEach((m, i) => {
      if (m.role !== 'user') return;
      const entry = stored.get(m.content) ?? { count: 0 };
      entry.count++;
      entry.reply = messages[i + 1]?.content;
      entry.replyStatus = messages[i + 1]?.status;
      stored.set(m.content, entry);
    });
  }
  for (const [question, entry] of stored)
    expect({ question: question.slice(0, 20), count: entry.count }).toEqual({
      question: question.slice(0, 20),
      count: 1,
    });
  for (const o of outcomes.filter((x) => x.status === 200)) {
    expect(stored.get(o.question)).toMatchObject({ count: 1, reply: o.reply, replyStatus: 'complete' });
  }
}

/** After the service has closed: the file is intact and holds every answered turn, once (as another process reads it). */
function expectSqliteIntact(file: string, outcomes: readonly Outcome[]): void {
  const db: SqliteFile = new SqliteDatabase(file, { fileMustExist: true });
  try {
    for (const o of outcomes.filter((x) => x.status === 200)) {
      expect({
        question: o.question.slice(0, 20),
        rows: db.prepare('SELECT COUNT(*) AS n FROM messages WHERE content = ?').get(o.question),
      }).toEqual({
        question: o.question.slice(0, 20),
        rows: { n: 1 },
      });
    }
    expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.exec(`INSERT INTO messages_fts(messages_fts, rank) VALUES('integrity-check', 1)`);
    expect(db.inTransaction).toBe(false);
  } finally {
    db.close();
  }
}

describe('faults under concurrent load', () => {
  let fake: FakeOpenAiServer;
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(async () => (fake = await FakeOpenAiServer.start()));
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.reset();
    tmp = tempDir();
  });
  afterEach(() => tmp.remove());

  const start = (env: Record<string, string> = {}) =>
    startTestApp({
      dbPath: `${tmp.dir}/chat.sqlite`,
      llmBaseUrl: fake.url,
      env: { REPLY_LEASE_MS: '2000', STREAM_FLUSH_MS: '50', ...env },
    });
  const onSqlite = DIALECT === 'sqlite' ? it : it.skip;
  const onPostgres = DIALECT === 'postgres' ? it : it.skip;

  onSqlite(
    'a full disk (page limit)',
    async () => {
      const app = await start();
      const ds = app.app.get(DataSource);
      let outcomes: Outcome[] = [];
      try {
        const run = await underLoad(app, { on: () => fillSqliteLimit(ds), off: () => freeSqliteLimit(ds) });
        outcomes = run.outcomes;
        await expectRecovered(app, outcomes, run.conversations, [507, 503]);
      } finally {
        await app.close();
      }
      expectSqliteIntact(`${tmp.dir}/chat.sqlite`, outcomes);
    },
    120_000,
  );

  onSqlite(
    'I/O errors on COMMIT (rolled back by SQLite, then kept open)',
    async () => {
      const app = await start();
      const ds = app.app.get(DataSource);
      let outcomes: Outcome[] = [];
      try {
        const fault = {
          on: () => failNextCommits(ds, 'SQLITE_IOERR_WRITE', ['rolled back', 'kept open', 'rolled back', 'kept open']),
          off: () => undefined,
        };
        const run = await underLoad(app, fault);
        outcomes = run.outcomes;
        await expectRecovered(app, outcomes, run.conversations, [503]);
      } finally {
        await app.close();
      }
      expectSqliteIntact(`${tmp.dir}/chat.sqlite`, outcomes);
    },
    120_000,
  );

  onSqlite(
    'another process holding the write lock past the wait',
    async () => {
      const app = await start({ SQLITE_BUSY_TIMEOUT_MS: '500' });
      const other = new SqliteDatabase(`${tmp.dir}/chat.sqlite`);
      let outcomes: Outcome[] = [];
      try {
        const fault = {
          on: () => void other.exec('BEGIN IMMEDIATE'),
          off: () => void (other.inTransaction && other.exec('ROLLBACK')),
        };
        const run = await underLoad(app, fault, { offAfter: 4 });
        outcomes = run.outcomes;
        await expectRecovered(app, outcomes, run.conversations, [503]);
      } finally {
        if (other.inTransaction) other.exec('ROLLBACK');
        other.close();
        await app.close();
      }
      expectSqliteIntact(`${tmp.dir}/chat.sqlite`, outcomes);
    },
    120_000,
  );

  onPostgres(
    'a database outage',
    async () => {
      const target = new URL(process.env.TEST_DATABASE_URL!);
      const relay = new CuttableRelay(target.hostname, Number(target.port || 5432));
      await relay.up();
      const url = new URL(databaseUrlFor(`${tmp.dir}/chat.sqlite`));
      url.host = `127.0.0.1:${relay.port}`;
      const app = await start({ DATABASE_URL: url.toString() });
      try {
        const { outcomes, conversations } = await underLoad(app, { on: () => relay.down(), off: () => relay.up() });
        await until(async () => (await app.http().get('/health/ready')).status === 200, 15_000, 200);
        await expectRecovered(app, outcomes, conversations, [503]);
      } finally {
        await app.close();
        await relay.down();
      }
    },
    120_000,
  );
});
