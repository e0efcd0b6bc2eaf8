import pg from 'pg';
import { DataSource, type QueryRunner } from 'typeorm';
import { holdIndexTimer } from '../../support/index-timer.js';
import { ALICE_KEY, asActor, DIALECT, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

/** The turn's first statement in its transaction: the actor's conversation, locked on PostgreSQL (with its thread's head on SQLite). */
const OWNED_CONVERSATION =
  DIALECT === 'postgres'
    ? /FROM "conversations" WHERE "id" = \$1 AND "actor" = \$2 FOR UPDATE$/
    : /FROM "conversations" "c" LEFT JOIN .* WHERE "c"\."id" = \? AND "c"\."actor" = \?$/;

/** Statements that only open, divide or close transactions. */
const CONTROL = /^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/**
 * What one chat turn sends the database, counted on every query runner: on PostgreSQL each
 * statement is a round trip, which bounds a turn's throughput more than anything else there.
 * The promise stays: the question and the empty reply commit together (with the row lock)
 * before the model is called, and the reply is stored by one statement before it is answered.
 */
describe('statements of one chat turn', () => {
  let tmp: ReturnType<typeof tempDir>;
  let t: TestApp;
  /** The same service with recall on (the test apps run with it off). */
  let r: TestApp;
  let sent: string[] | null = null;
  /** PostgreSQL: the statements sent as named prepared statements (parsed once per connection). */
  let prepared: Set<string> | null = null;
  let restore: () => void;
  let releaseIndexTimer: () => void;
  const alice = asActor(() => t, ALICE_KEY);
  const recalling = asActor(() => r, ALICE_KEY);

  beforeAll(async () => {
    tmp = tempDir();
    t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite` });
    r = await startTestApp({ dbPath: `${tmp.dir}/recall.sqlite`, env: { RECALL_MODE: 'on' } });
    // The full-text index's timer could fire between a test's turns, or within one, and change
    // what recall reads and counts: only requests make it catch up here.
    releaseIndexTimer = await holdIndexTimer(t, r);
    const ds = t.app.get(DataSource);
    const runner = ds.createQueryRunner();
    const proto = Object.getPrototypeOf(runner) as QueryRunner;
    await runner.release();
    const query = proto.query;
    const record = (text: string, named = false) => {
      const statement = text.replace(/\s+/g, ' ').trim();
      sent?.push(statement);
      if (named) prepared?.add(statement);
    };
    if (DIALECT === 'postgres') {
      // The turn's statements go straight to the `pg` client (prepared), TypeORM's the same way: count there.
      const clientQuery = pg.Client.prototype.query;
      pg.Client.prototype.query = function counted(this: pg.Client, config: unknown, ...rest: unknown[]) {
        if (typeof config === 'string' || (typeof config === 'object' && config !== null && 'text' in config)) {
          const named = typeof config === 'object' && typeof (config as { name?: unknown }).name === 'string';
          record(typeof config === 'string' ? config : String((config as { text: unknown }).text), named);
        }
        return (clientQuery as (...args: unknown[]) => unknown).call(this, config, ...rest);
      } as typeof clientQuery;
      restore = () => {
        pg.Client.prototype.query = clientQuery;
      };
    } else {
      proto.query = function counted(this: QueryRunner, text: string, ...rest: unknown[]) {
        record(text);
        return (query as (...args: unknown[]) => Promise<unknown>).call(this, text, ...rest);
      } as QueryRunner['query'];
      restore = () => {
        proto.query = query;
      };
    }
  });
  afterAll(async () => {
    restore();
    releaseIndexTimer();
    await t.close();
    await r.close();
    tmp.remove();
  });

  async function turnOn(conversationId: string, message: string, who = alice): Promise<string[]> {
    sent = [];
    prepared = new Set();
    try {
      await who.post('/api/chat', { message, conversationId }).expect(200);
      return sent;
    } finally {
      sent = null;
    }
  }

  it('a turn on an existing conversation: six statements of work, one transaction and an autocommitted reply that NOTIFYs on PostgreSQL', async () => {
    const { conversationId } = (await alice.post('/api/chat', { message: 'first question' }).expect(200)).body;
    await turnOn(conversationId, 'second question');
    const statements = await turnOn(conversationId, 'third question');
    const work = statements.filter((s) => !CONTROL.test(s));
    // On SQLite: the conversation with its thread's head (leaf, thread, summary), the history
    // with the pinned messages, the memories, the seq reservation, the insert of both messages,
    // the reply. On PostgreSQL the row lock comes first on its own (a statement that waits for
    // it reads the other rows as they were before the wait), then the head; the seq reservation
    // and the insert are one statement, and the reply's statement also NOTIFYs the followers.
    expect({ count: work.length, work }).toEqual({ count: 6, work: expect.any(Array) });
    expect(work[0]).toMatch(OWNED_CONVERSATION);
    if (DIALECT === 'postgres') {
      expect(statements.filter((s) => CONTROL.test(s))).toEqual(['START TRANSACTION', 'COMMIT']);
      // Each statement of work is a named prepared statement: PostgreSQL does not parse and plan it again every turn.
      expect(work.filter((s) => !prepared?.has(s))).toEqual([]);
      // The reply's UPDATE runs after the COMMIT of the question, on its own, and NOTIFYs in the same statement.
      expect(statements.at(-2)).toBe('COMMIT');
      expect(statements.at(-1)).toMatch(
        /^WITH changed AS \(UPDATE "messages" SET .* RETURNING "id"\) SELECT pg_notify\(\$\d+, "id"\) FROM changed$/,
      );
    }
    const { body } = await alice.get(`/api/conversations/${conversationId}`).expect(200);
    expect(body.messages.map((m: { role: string; status: string }) => `${m.role}:${m.status}`)).toEqual([
      'user:complete',
      'assistant:complete',
      'user:complete',
      'assistant:complete',
      'user:complete',
      'assistant:complete',
    ]);
  });

  it("recall adds two statements: every word's matches with the counts not kept, then the best hits with their neighbour turns", async () => {
    await recalling.post('/api/chat', { message: 'The lighthouse keeper feeds three gulls' }).expect(200);
    const { conversationId } = (await recalling.post('/api/chat', { message: 'Something else entirely' }).expect(200))
      .body;
    // The first turn of the conversation read the caller's totals, which are then kept a while.
    await turnOn(conversationId, 'Who feeds the gulls?', recalling);
    const statements = await turnOn(conversationId, 'Who is the lighthouse keeper?', recalling);
    const work = statements.filter((s) => !CONTROL.test(s));
    expect({ count: work.length, work }).toEqual({ count: 8, work: expect.any(Array) });
    // Both run before the turn's transaction: the search holds no lock.
    expect(work[0]).toMatch(/messages_(fts|search)/);
    expect(work[1]).toMatch(/^SELECT 0 AS part, x\.id/);
    expect(work[2]).toMatch(OWNED_CONVERSATION);
    const { body } = await recalling.get(`/api/conversations/${conversationId}/messages`).expect(200);
    expect(body.items.at(-1).recalledMessageIds.length).toBeGreaterThan(0);
  });

  it('a temporary chat (memory: false) searches nothing: one recall statement reads the switch and finds no match, no memory is read', async () => {
    await recalling.post('/api/chat', { message: 'The harbour pilot steers the red tanker' }).expect(200);
    const temp = (await recalling.post('/api/conversations', { memory: false }).expect(201)).body;
    await turnOn(temp.id, 'Who steers the tanker?', recalling);
    const statements = await turnOn(temp.id, 'Which harbour pilot steers the red tanker?', recalling);
    const work = statements.filter((s) => !CONTROL.test(s));
    // The switch is read inside the recall statement: no statement is added to find it, the
    // matches are neither walked nor their excerpts read, and no memory is read.
    expect({ count: work.length, work }).toEqual({ count: 6, work: expect.any(Array) });
    expect(work[0]).toMatch(/messages_(fts|search)/);
    expect(work[1]).toMatch(OWNED_CONVERSATION);
  });
});
