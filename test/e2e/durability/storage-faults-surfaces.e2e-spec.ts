import { DataSource } from 'typeorm';
import { TEXTS } from '../../../src/surfaces/telegram/texts.js';
import { callTool, connectMcp, textOf } from '../../support/mcp-client.js';
import {
  CuttableRelay,
  fillSqliteLimit,
  freeSqliteLimit,
  SqliteDatabase,
  type SqliteFile,
} from '../../support/storage-faults.js';
import { useTelegramApp, userMaker } from '../../support/telegram-fixture.js';
import {
  ALICE_KEY,
  auth,
  databaseUrlFor,
  DIALECT,
  startTestApp,
  tempDir,
  type TestApp,
} from '../../support/test-app.js';
import { userMessage } from '../../support/ui-chat-client.js';

const onSqlite = DIALECT === 'sqlite' ? describe : describe.skip;
const onPostgres = DIALECT === 'postgres' ? describe : describe.skip;

/** Larger than a page many times over: storing it needs fresh pages. */
const bigQuestion = (tag: string) => `${tag} ${'a question that takes room '.repeat(800)}`;

interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: unknown;
}

/** The answers of the REST, /v1 and UI stream surfaces to a turn the database cannot store. */
async function surfaceAnswers(app: TestApp, tag: string): Promise<Record<'rest' | 'v1' | 'uiStream', Answer>> {
  const answer = (res: { status: number; headers: Record<string, string>; body: unknown }): Answer => ({
    status: res.status,
    retryAfter: res.headers['retry-after'],
    body: res.body,
  });
  const rest = await app
    .http()
    .post('/api/chat')
    .set(auth(ALICE_KEY))
    .send({ message: bigQuestion(`${tag} rest`) });
  const v1 = await app
    .http()
    .post('/v1/responses')
    .set(auth(ALICE_KEY))
    .send({ model: 'echo', input: bigQuestion(`${tag} v1`) });
  const uiStream = await app
    .http()
    .post('/api/ui/chat')
    .set(auth(ALICE_KEY))
    .send({ id: `chat-${tag}`, message: userMessage(bigQuestion(`${tag} ui`)) });
  return { rest: answer(rest), v1: answer(v1), uiStream: answer(uiStream) };
}

/** What each surface answers for one kind of storage failure: REST's body, OpenAI's body, and the same REST body for the UI stream. */
function expected(status: number, code: string, message: string, retryAfter: number) {
  const rest = {
    status,
    retryAfter: String(retryAfter),
    body: { statusCode: status, error: status === 507 ? 'Insufficient Storage' : 'Service Unavailable', code, message },
  };
  return {
    rest,
    v1: {
      status,
      retryAfter: String(retryAfter),
      body: { error: { message, type: 'server_error', param: null, code } },
    },
    uiStream: rest,
  };
}

const FULL = expected(507, 'storage_full', 'The database is full: nothing more can be stored until space is freed', 30);
const BUSY = expected(503, 'storage_busy', 'The database is locked by another process; try again shortly', 2);
const UNAVAILABLE = expected(503, 'storage_unavailable', 'The database is unavailable; try again shortly', 5);

onSqlite('a storage fault on SQLite, as each surface answers it', () => {
  let tmp: ReturnType<typeof tempDir>;
  let app: TestApp;
  let ds: DataSource;
  beforeEach(async () => {
    tmp = tempDir();
    // Another process's lock is waited for 300 ms, not 5 s, before a write fails as busy.
    app = await startTestApp({ dbPath: `${tmp.dir}/faults.sqlite`, env: { SQLITE_BUSY_TIMEOUT_MS: '300' } });
    ds = app.app.get(DataSource);
    // A first turn, so the schema's pages exist before the limit is set.
    await app.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'hello' }).expect(200);
  });
  afterEach(async () => {
    await app.close();
    tmp.remove();
  });

  it('a full database (PRAGMA max_page_count): 507 storage_full with Retry-After 30 on REST, /v1 and the UI stream', async () => {
    await fillSqliteLimit(ds);
    try {
      expect(await surfaceAnswers(app, 'full')).toEqual(FULL);
    } finally {
      await freeSqliteLimit(ds);
    }
  });

  it('a database that refuses writes (query_only, as a read-only file): 503 storage_unavailable with Retry-After 5', async () => {
    await ds.query('PRAGMA query_only = 1');
    try {
      expect(await surfaceAnswers(app, 'readonly')).toEqual(UNAVAILABLE);
    } finally {
      await ds.query('PRAGMA query_only = 0');
    }
  });

  it("another process's write lock held past the wait: 503 storage_busy with Retry-After 2", async () => {
    const other: SqliteFile = new SqliteDatabase(app.dbPath);
    other.exec('BEGIN IMMEDIATE');
    try {
      expect(await surfaceAnswers(app, 'busy')).toEqual(BUSY);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  }, 60_000);
});

/** Makes every write of a message fail in PostgreSQL with `condition`, raised where the real failure would be. */
async function failMessageWrites(ds: DataSource, condition: string): Promise<() => Promise<void>> {
  await ds.query(
    `CREATE FUNCTION fail_message_writes() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault' USING ERRCODE = '${condition}'; END $$`,
  );
  await ds.query(
    `CREATE TRIGGER fail_message_writes BEFORE INSERT OR UPDATE ON messages FOR EACH ROW EXECUTE FUNCTION fail_message_writes()`,
  );
  return async () => {
    await ds.query('DROP TRIGGER fail_message_writes ON messages');
    await ds.query('DROP FUNCTION fail_message_writes()');
  };
}

const PG_FAULTS = [
  { condition: 'disk_full', answers: FULL },
  { condition: 'lock_not_available', answers: BUSY },
  { condition: 'read_only_sql_transaction', answers: UNAVAILABLE },
] as const;

onPostgres('a storage fault on PostgreSQL, as each surface answers it', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.remove());

  it.each(PG_FAULTS)(
    '$condition: the same status, body and Retry-After on REST, /v1 and the UI stream',
    async (fault) => {
      const app = await startTestApp({ dbPath: `${tmp.dir}/pg-${fault.condition}` });
      try {
        const clear = await failMessageWrites(app.app.get(DataSource), fault.condition);
        try {
          expect(await surfaceAnswers(app, fault.condition)).toEqual(fault.answers);
        } finally {
          await clear();
        }
      } finally {
        await app.close();
      }
    },
  );

  it('an outage: 503 storage_unavailable on REST, /v1 and the UI stream, and an MCP tool says so with when to retry', async () => {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    const relay = new CuttableRelay(target.hostname, Number(target.port || 5432));
    await relay.up();
    const url = new URL(databaseUrlFor(`${tmp.dir}/pg-outage`));
    url.host = `127.0.0.1:${relay.port}`;
    const app = await startTestApp({ dbPath: `${tmp.dir}/pg-outage`, env: { DATABASE_URL: url.toString() } });
    try {
      const mcp = await connectMcp(await app.url(), ALICE_KEY);
      await relay.down();
      expect(await surfaceAnswers(app, 'outage')).toEqual(UNAVAILABLE);
      const result = await callTool(mcp, 'search_conversations', { query: 'anything' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('The database is unavailable; try again shortly (storage_unavailable; retry in 5 s)');
      await mcp.close();
    } finally {
      await app.close();
      await relay.down();
    }
  }, 60_000);
});

onPostgres('a storage fault on PostgreSQL, as the Telegram bot answers it', () => {
  const fixture = useTelegramApp();
  const newUser = userMaker(7000);

  it.each(PG_FAULTS)('$condition: the bot says it cannot save anything right now', async (fault) => {
    const user = newUser();
    const clear = await failMessageWrites(fixture.app.app.get(DataSource), fault.condition);
    try {
      const before = fixture.tg.textsTo(user.id).length;
      fixture.tg.sendText(user, `a question under ${fault.condition}`);
      await fixture.tg.waitFor(
        (c) => c.method === 'sendMessage' && !c.failed && fixture.tg.textsTo(user.id).length > before,
        'the answer',
      );
      expect(fixture.tg.textsTo(user.id).slice(before)).toEqual([TEXTS.storage]);
    } finally {
      await clear();
    }
  });
});
