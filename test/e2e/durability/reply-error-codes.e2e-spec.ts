import { DataSource } from 'typeorm';
import { useApp } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, DIALECT, type TestApp } from '../../support/test-app.js';

const INTERRUPTED =
  'The reply was interrupted: the server generating it stopped, or could not store it, before it was finished';

/**
 * Replies stored before error codes kept the HTTP status a client got (`messages.error_status`,
 * and `statusCode` in the JSON of earlier answers). The migration turns them into codes, on both
 * databases, and the API still shows every one with the status it showed before.
 */
describe('the migration from stored HTTP statuses to reply error codes', () => {
  const fixture = useApp();
  let t: TestApp;
  let ds: DataSource;
  const p = (n: number) => (DIALECT === 'postgres' ? `$${n}` : '?');
  /** Undoes the migrations from the newest one back to the reply error codes, that one included. */
  const undoThroughErrorCodes = async () => {
    const names = ds.migrations.map((m) => m.name ?? m.constructor.name);
    const index = names.findIndex((name) => /ReplyErrorCodes/.test(name));
    for (let i = names.length - 1; i >= index; i--) await ds.undoLastMigration();
  };

  beforeAll(async () => {
    t = fixture.app;
    ds = t.app.get(DataSource);
  });

  // [reply status, stored status, stored message] -> the code it becomes.
  const CASES = [
    ['failed', 502, 'The model call failed: boom', 'model_unavailable'],
    ['failed', 502, INTERRUPTED, 'interrupted'],
    ['failed', 502, 'The reply was interrupted: the server generating it stopped', 'interrupted'],
    ['failed', 502, 'The reply was still being generated when the conversation was forked', 'interrupted'],
    ['failed', 504, 'The model did not answer within 1000 ms', 'model_timeout'],
    ['truncated', 413, 'The reply was cut at MAX_REPLY_CHARS (10 characters)', 'reply_too_long'],
    ['truncated', 504, 'The reply was cut after LLM_MAX_REPLY_MS (50 ms)', 'reply_timeout'],
  ] as const;

  it('converts statuses to codes (and back), and the API shows the same statusCode', async () => {
    let conversationId: string | undefined;
    for (const [i] of CASES.entries()) {
      const res = await t
        .http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ message: `question ${i}`, conversationId })
        .expect(200);
      conversationId = res.body.conversationId;
    }
    const replies = (await ds.query(`SELECT "id" FROM "messages" WHERE "role" = 'assistant' ORDER BY "seq"`)) as Array<{
      id: string;
    }>;
    expect(replies).toHaveLength(CASES.length);
    const olderAnswer = {
      content: 'old',
      status: 'failed',
      model: null,
      promptTokens: null,
      completionTokens: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    };

    // Back to the schema before the migration (and those after it), with rows as it stored them.
    await undoThroughErrorCodes();
    for (const [i, [status, errorStatus, message]] of CASES.entries()) {
      const versions = JSON.stringify([
        { ...olderAnswer, error: { statusCode: 504, message: 'The model did not answer within 9 ms' } },
        { ...olderAnswer, error: null },
      ]);
      await ds.query(
        `UPDATE "messages" SET "status" = ${p(1)}, "error_status" = ${p(2)}, "error_message" = ${p(3)}, "versions" = ${p(4)} WHERE "id" = ${p(5)}`,
        [status, errorStatus, message, versions, replies[i].id],
      );
    }
    await ds.runMigrations();

    // The message tree ran after it: the replies are on the path, their earlier answers are siblings off it.
    const rows = (await ds.query(
      `SELECT "id", "error_code" FROM "messages" WHERE "role" = 'assistant' AND "on_path" = 1 ORDER BY "seq"`,
    )) as Array<{ id: string; error_code: string }>;
    expect(rows.map((r) => r.error_code)).toEqual(CASES.map((c) => c[3]));
    const earlier = (await ds.query(
      `SELECT "error_code" FROM "messages" WHERE "role" = 'assistant' AND "on_path" = 0 ORDER BY "seq"`,
    )) as Array<{ error_code: string | null }>;
    expect(earlier.slice(0, 2).map((r) => r.error_code)).toEqual(['model_timeout', null]);
    const users = (await ds.query(`SELECT "error_code" FROM "messages" WHERE "role" = 'user'`)) as Array<{
      error_code: unknown;
    }>;
    expect(users.every((u) => u.error_code === null)).toBe(true);

    const { body } = await t.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200);
    const shown = body.messages.filter((m: { role: string }) => m.role === 'assistant');
    expect(shown.map((m: { status: string; error: unknown }) => [m.status, m.error])).toEqual(
      CASES.map(([status, statusCode, message]) => [status, { statusCode, message }]),
    );
    expect(shown[0].versions.map((v: { error: unknown }) => v.error)).toEqual([
      { statusCode: 504, message: 'The model did not answer within 9 ms' },
      null,
    ]);

    // And back down (the later migrations first): the statuses the API showed.
    await undoThroughErrorCodes();
    const down = (await ds.query(
      `SELECT "error_status" FROM "messages" WHERE "role" = 'assistant' ORDER BY "seq"`,
    )) as Array<{ error_status: number }>;
    expect(down.map((r) => r.error_status)).toEqual(CASES.map((c) => c[1]));
    await ds.runMigrations();
  });
});
