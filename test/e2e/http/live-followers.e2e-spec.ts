import pg from 'pg';
import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { followedReply } from '../../support/followed-reply.js';
import { deltaText } from '../../support/sse-client.js';
import { databaseUrlFor, DIALECT, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';
import { until } from '../../support/until.js';

/**
 * Followers are woken by the database on every progress save instead of polling: in process on
 * SQLite, by LISTEN/NOTIFY on PostgreSQL (on any instance). FOLLOW_POLL_MS is a minute here, so
 * a follower that only polled would see nothing new within a test; the reads it makes are counted
 * by cause in /metrics (`chat_follower_reads_total`).
 */
describe('followers woken by the database', () => {
  const env = { LLM_TIMEOUT_MS: '20000', STREAM_FLUSH_MS: '30', FOLLOW_POLL_MS: '60000' };
  let fake: FakeOpenAiServer;
  let tmp: ReturnType<typeof tempDir>;
  let a: TestApp;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
    a = await startTestApp({ dbPath: `${tmp.dir}/live.sqlite`, llmBaseUrl: fake.url, env });
  });
  afterAll(async () => {
    await a.close();
    await fake.close();
    tmp.remove();
  });
  beforeEach(() => fake.reset());

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function readsOf(app: TestApp): Promise<Record<'first' | 'wake' | 'poll', number>> {
    const text = (await app.http().get('/metrics').expect(200)).text;
    const count = (cause: string) =>
      Number(new RegExp(`^chat_follower_reads_total\\{cause="${cause}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { first: count('first'), wake: count('wake'), poll: count('poll') };
  }

  /** A reply of three chunks, each sent when the test opens its gate, generated on `generator`, followed on `follower`. */
  async function followGated(generator: TestApp, followerApp: TestApp, between?: () => Promise<void>) {
    let before = { first: 0, wake: 0, poll: 0 };
    const { status, gates, seen, finished } = await followedReply(fake, generator, followerApp, {
      beforeFollow: async () => void (before = await readsOf(followerApp)),
    });
    expect(status).toBe(200);
    gates[0].resolve();
    await until(() => deltaText(seen) === 'one ', 15_000);
    // Many STREAM_FLUSH_MS ticks with nothing new: a polling follower would read on each.
    await pause(600);
    await between?.();
    gates[1].resolve();
    await until(() => deltaText(seen) === 'one two ', 15_000);
    await pause(600);
    gates[2].resolve();
    await finished();
    expect(deltaText(seen)).toBe('one two three');
    expect(seen.at(-1)).toEqual({
      event: 'done',
      data: expect.objectContaining({ status: 'complete', reply: 'one two three' }),
    });
    const after = await readsOf(followerApp);
    return { first: after.first - before.first, wake: after.wake - before.wake, poll: after.poll - before.poll };
  }

  it('gets each save of a reply generated on its own instance as it is committed, without polling', async () => {
    const reads = await followGated(a, a);
    expect(reads.first).toBe(1);
    expect(reads.poll).toBe(0);
    // SQLite hands the committed text with the wake-up: only the end is read. PostgreSQL reads once per NOTIFY.
    expect(reads.wake).toBeLessThanOrEqual(DIALECT === 'sqlite' ? 1 : 5);
  });

  (DIALECT === 'postgres' ? describe : describe.skip)('on PostgreSQL, across instances', () => {
    let b: TestApp;
    beforeAll(async () => {
      b = await startTestApp({ dbPath: a.dbPath, llmBaseUrl: fake.url, env });
    });
    afterAll(() => b.close());

    const listenerName = () => `chat-memory-wakeups:${new URL(databaseUrlFor(a.dbPath)).searchParams.get('schema')}`;
    async function listeners(): Promise<number[]> {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      try {
        return (
          await client.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [listenerName()])
        ).rows.map((r) => r.pid as number);
      } finally {
        await client.end();
      }
    }

    it('wakes a follower on instance B of a reply generated on instance A (LISTEN/NOTIFY), without polling', async () => {
      // One dedicated listening connection per instance.
      expect(await listeners()).toHaveLength(2);
      const reads = await followGated(a, b);
      expect(reads.poll).toBe(0);
      expect(reads.wake).toBeGreaterThanOrEqual(2);
      expect(reads.wake).toBeLessThanOrEqual(5);
    });

    it('loses nothing when the listening connection drops, and listens again', async () => {
      await followGated(a, b, async () => {
        const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await client.connect();
        try {
          await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
            listenerName(),
          ]);
        } finally {
          await client.end();
        }
      });
      await until(async () => (await listeners()).length === 2, 15_000);
    });
  });
});
