import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { followedReply } from '../../support/followed-reply.js';
import { deltaText } from '../../support/sse-client.js';
import { postgresBinaries, startPrimaryAndStandby, type PrimaryAndStandby } from '../../support/pg-standby.js';
import { ALICE_KEY, auth, DIALECT, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';
import { until } from '../../support/until.js';

/**
 * Read replicas for real: a primary and a streaming standby of it (`pg_basebackup -R`) of
 * their own, two instances reading from the standby, and a third that tolerates little lag.
 * The standby is shown to serve reads by changing a row on the primary behind the service while
 * the standby's replay is paused: a read that answers the old row came from the standby.
 * (PostgreSQL only: runs in the PostgreSQL pass, with the local PostgreSQL binaries.)
 */
const bin = postgresBinaries();
/** Starting two clusters and waiting out replay takes longer than a usual test. */
const SLOW_MS = 90_000;
if (DIALECT === 'postgres' && !bin && process.env.REQUIRE_POSTGRES)
  throw new Error('PostgreSQL binaries (pg_basebackup) not found, and REQUIRE_POSTGRES is set');

(DIALECT === 'postgres' && bin ? describe : describe.skip)('read replicas', () => {
  let cluster: PrimaryAndStandby;
  let fake: FakeOpenAiServer;
  let tmp: ReturnType<typeof tempDir>;
  let a: TestApp;
  let b: TestApp;
  let strict: TestApp;

  beforeAll(async () => {
    cluster = await startPrimaryAndStandby(bin!);
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
    const env = (maxLagMs: number) => ({
      LLM_BASE_URL: fake.url,
      LLM_API_KEY: 'sk-test-secret',
      LLM_MODEL: 'fake-model',
      LLM_MAX_RETRIES: '0',
      SUMMARY_MODE: 'off',
      STREAM_FLUSH_MS: '30',
      FOLLOW_POLL_MS: '60000',
      DATABASE_URL: `${cluster.primaryUrl}?schema=chat`,
      DATABASE_READ_URL: cluster.standbyUrl,
      DATABASE_READ_MAX_LAG_MS: String(maxLagMs),
    });
    a = await startTestApp({ dbPath: `${tmp.dir}/a`, env: env(30_000) });
    b = await startTestApp({ dbPath: `${tmp.dir}/b`, env: env(30_000) });
    strict = await startTestApp({ dbPath: `${tmp.dir}/strict`, env: env(500) });
  }, SLOW_MS);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await strict?.close();
    await cluster?.remove();
    await fake?.close();
    tmp?.remove();
  }, SLOW_MS);

  const chat = (app: TestApp, body: object) => app.http().post('/api/chat').set(auth(ALICE_KEY)).send(body).expect(200);
  const detail = (app: TestApp, id: string) =>
    app.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200);
  /** Reads of `app` that ran on a replica so far (its /metrics, asked from loopback). */
  const replicaReads = async (app: TestApp) => {
    const text = (await app.http().get('/metrics').expect(200)).text;
    return Number(/^db_replica_routed_reads_total\{target="replica"\} (\d+)/m.exec(text)?.[1] ?? 0);
  };
  /** Reads `id` on `app` until the standby serves it (it has caught up with what alice wrote). */
  const untilServedByStandby = async (app: TestApp, id: string) => {
    await until(
      async () => {
        const before = await replicaReads(app);
        await detail(app, id);
        return (await replicaReads(app)) > before;
      },
      20_000,
      50,
    );
  };
  const setTitleBehindTheService = (id: string, title: string) =>
    cluster.query('primary', 'UPDATE chat.conversations SET title = $1 WHERE id = $2', [title, id]);
  const pauseReplay = async () => {
    await cluster.query('standby', 'SELECT pg_wal_replay_pause()');
    await until(
      async () =>
        (await cluster.query('standby', 'SELECT pg_get_wal_replay_pause_state() AS s')).rows[0].s === 'paused',
      10_000,
      20,
    );
  };

  it(
    'shows a caller their turn right after it, on the instance that ran it and on another one',
    async () => {
      const id = (await chat(a, { message: 'first' })).body.conversationId;
      await untilServedByStandby(a, id);
      await untilServedByStandby(b, id);
      // With the standby's replay paused, a read it answered would miss the turn just made.
      await pauseReplay();
      try {
        for (let i = 0; i < 10; i++) {
          await chat(i % 2 ? b : a, { conversationId: id, message: `turn ${i}` });
          const seen = (await detail(i % 2 ? a : b, id)).body.messages;
          expect(seen).toHaveLength(4 + 2 * i);
          expect(seen[seen.length - 2].content).toBe(`turn ${i}`);
          expect(seen[seen.length - 1].role).toBe('assistant');
        }
      } finally {
        await cluster.query('standby', 'SELECT pg_wal_replay_resume()');
      }
    },
    SLOW_MS,
  );

  it(
    "serves reads from the standby, and a caller's reads from the primary once they write, until the standby holds it",
    async () => {
      const id = (await chat(a, { message: 'Original title' })).body.conversationId;
      await untilServedByStandby(a, id);
      await untilServedByStandby(b, id);
      await pauseReplay();
      try {
        await setTitleBehindTheService(id, 'Changed behind the service');
        // Alice wrote nothing since the standby caught up: the standby answers, with its older row.
        const before = await replicaReads(a);
        expect((await detail(a, id)).body.title).toBe('Original title');
        expect(
          (await a.http().get('/api/conversations?limit=5').set(auth(ALICE_KEY)).expect(200)).body.items.map(
            (c: { title: string }) => c.title,
          ),
        ).toContain('Original title');
        expect(await replicaReads(a)).toBeGreaterThan(before);

        // Once she writes, her reads go to the primary, on both instances: the standby has not replayed it.
        await chat(a, { conversationId: id, message: 'second' });
        for (const app of [a, b]) {
          const seen = (await detail(app, id)).body;
          expect(seen.title).toBe('Changed behind the service');
          expect(seen.messages.map((m: { content: string }) => m.content)).toContain('second');
        }
      } finally {
        await cluster.query('standby', 'SELECT pg_wal_replay_resume()');
      }
      // Replayed: the standby serves her again, and has it all.
      await untilServedByStandby(a, id);
      const seen = (await detail(a, id)).body;
      expect(seen.title).toBe('Changed behind the service');
      expect(seen.messages).toHaveLength(4);
    },
    SLOW_MS,
  );

  it(
    "has followers read a reply's progress from the standby, each save as it is committed, on another instance",
    async () => {
      let before = 0;
      const { status, gates, seen, finished } = await followedReply(fake, a, b, {
        beforeFollow: async () => void (before = await replicaReads(b)),
      });
      expect(status).toBe(200);
      gates[0].resolve();
      await until(() => deltaText(seen) === 'one ', 15_000);
      // The standby stops replaying: the save that wakes the follower now is not on it, so its read goes to the primary.
      await pauseReplay();
      try {
        gates[1].resolve();
        await until(() => deltaText(seen) === 'one two ', 15_000);
      } finally {
        await cluster.query('standby', 'SELECT pg_wal_replay_resume()');
      }
      gates[2].resolve();
      await finished();
      // Every save reached the follower (a read older than the save that woke it would lose one, with polling a minute apart).
      expect(deltaText(seen)).toBe('one two three');
      expect(seen.at(-1)).toEqual({
        event: 'done',
        data: expect.objectContaining({ status: 'complete', reply: 'one two three' }),
      });
      // The standby served the follower: a woken read goes to it when a poll finds it has replayed the save,
      // which on a busy machine may be late for any one save (that read then goes to the primary), so no exact count.
      expect(await replicaReads(b)).toBeGreaterThan(before);
    },
    SLOW_MS,
  );

  it(
    'skips a standby that lags past DATABASE_READ_MAX_LAG_MS',
    async () => {
      const id = (await chat(strict, { message: 'Before the lag' })).body.conversationId;
      await untilServedByStandby(strict, id);
      await pauseReplay();
      try {
        await setTitleBehindTheService(id, 'Read from the primary');
        // Nobody wrote through the service: only the standby's lag past 500 ms sends the read to the primary.
        await until(async () => (await detail(strict, id)).body.title === 'Read from the primary', 20_000, 50);
        const text = (await strict.http().get('/metrics').expect(200)).text;
        expect(Number(/^db_replica_lag_seconds\{replica="replica-1"\} ([\d.e+-]+)/m.exec(text)?.[1])).toBeGreaterThan(
          0.5,
        );
      } finally {
        await cluster.query('standby', 'SELECT pg_wal_replay_resume()');
      }
    },
    SLOW_MS,
  );

  it(
    'keeps answering from the primary while the standby is down, and reads from it again once it is back',
    async () => {
      const id = (await chat(a, { message: 'before the stop' })).body.conversationId;
      await untilServedByStandby(a, id);
      await cluster.stopStandby();
      try {
        for (let i = 0; i < 5; i++) {
          expect((await detail(a, id)).body.messages).toHaveLength(2);
          await a.http().get('/api/conversations?limit=5').set(auth(ALICE_KEY)).expect(200);
          await a.http().get('/api/conversations?q=stop').set(auth(ALICE_KEY)).expect(200);
        }
        await chat(a, { conversationId: id, message: 'while it is down' });
        const text = (await a.http().get('/metrics').expect(200)).text;
        expect(text).not.toMatch(/^db_replica_lag_seconds\{replica="replica-1"\}/m);
      } finally {
        await cluster.startStandby();
      }
      await untilServedByStandby(a, id);
      expect((await detail(a, id)).body.messages).toHaveLength(4);
    },
    SLOW_MS,
  );
});
