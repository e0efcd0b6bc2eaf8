import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { ALICE_KEY, auth, DIALECT, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

/**
 * Several stateless instances on one PostgreSQL database: the turn lock and the reply state
 * live in the database, so concurrent turns sent to different instances never interleave.
 * (SQLite is a one-instance database: this runs on PostgreSQL only.)
 */
(DIALECT === 'postgres' ? describe : describe.skip)('two instances on one database', () => {
  let fake: FakeOpenAiServer;
  let tmp: ReturnType<typeof tempDir>;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
    const dbPath = `${tmp.dir}/shared`;
    a = await startTestApp({ dbPath, llmBaseUrl: fake.url });
    b = await startTestApp({ dbPath, llmBaseUrl: fake.url });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await fake.close();
    tmp.remove();
  });

  it('keeps every question next to its reply, or answers 409 and stores nothing', async () => {
    fake.reset();
    const id = (await a.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'start' }).expect(200)).body
      .conversationId;
    const rounds = 5;
    const perRound = 8;
    const statuses: number[] = [];
    for (let round = 0; round < rounds; round++) {
      fake.enqueue(...Array.from({ length: perRound }, () => ({ kind: 'reply' as const, text: 'ok', delayMs: 15 })));
      const results = await Promise.all(
        Array.from({ length: perRound }, (_, i) =>
          (i % 2 ? b : a)
            .http()
            .post('/api/chat')
            .set(auth(ALICE_KEY))
            .send({ message: `r${round} m${i}`, conversationId: id }),
        ),
      );
      statuses.push(...results.map((r) => r.status));
    }
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(rounds);
    expect(statuses).toContain(409);

    const messages = (await b.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body.messages;
    const answered = statuses.filter((s) => s === 200).length;
    expect(messages).toHaveLength(2 + answered * 2);
    expect(messages.map((m: { seq: number }) => m.seq)).toEqual(messages.map((_: unknown, i: number) => i + 1));
    expect(messages.map((m: { role: string }) => m.role)).toEqual(
      messages.map((_: unknown, i: number) => (i % 2 ? 'assistant' : 'user')),
    );
    const questions = messages
      .filter((m: { role: string }) => m.role === 'user')
      .map((m: { content: string }) => m.content);
    expect(new Set(questions).size).toBe(questions.length); // no question stored twice
    // Each turn the model saw had every earlier answer in its history: no two turns ran at once.
    const contextSizes = fake.completions.map((c) => c.body.messages!.length);
    expect(contextSizes).toEqual(contextSizes.map((_, i) => Math.min(1 + 2 * i, 21)));
  });

  it('lets instances start together on a fresh database: migrations run once, in turn', async () => {
    const fresh = tempDir();
    try {
      const dbPath = `${fresh.dir}/fresh`;
      const apps = await Promise.all([0, 1, 2].map(() => startTestApp({ dbPath, llmBaseUrl: fake.url })));
      await Promise.all(apps.map((app) => app.http().get('/health').expect(200)));
      await Promise.all(apps.map((app) => app.close()));
    } finally {
      fresh.remove();
    }
  });

  it('creates conversations concurrently on both instances without losing any', async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? b : a)
          .http()
          .post('/api/chat')
          .set(auth(ALICE_KEY))
          .send({ message: `new ${i}` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
    const list = await a.http().get('/api/conversations?limit=100').set(auth(ALICE_KEY)).expect(200);
    const ids = new Set(list.body.items.map((c: { id: string }) => c.id));
    for (const r of results) expect(ids.has(r.body.conversationId)).toBe(true);
  });
});
