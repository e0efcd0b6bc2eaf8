import type { Behaviour, FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, startTestApp, type TestApp } from '../../support/test-app.js';

/** A failed model call is reported (502/504), the user message stays stored, nothing else is faked. */
describe('model failures', () => {
  const fixture = useAppWithFakeModel({ LLM_TIMEOUT_MS: '400' });
  let fake: FakeOpenAiServer;
  let t: TestApp;
  // The fixture is filled in by its own beforeAll, which runs first.
  beforeAll(() => ({ fake, app: t } = fixture));

  const chat = (body: object) => t.http().post('/api/chat').set(auth(ALICE_KEY)).send(body);
  const messages = async (id: string) =>
    (await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body.messages as Array<{
      role: string;
      content: string;
      status: string;
    }>;

  it.each<[string, Behaviour, number, RegExp]>([
    [
      'a 500 from the model server',
      { kind: 'status', status: 500, message: 'upstream exploded' },
      502,
      /answered 500: upstream exploded/,
    ],
    ['a 429 from the model server', { kind: 'status', status: 429 }, 502, /answered 429/],
    [
      'a 401 (bad model key)',
      { kind: 'status', status: 401, message: 'Incorrect API key provided: sk-te***ret' },
      502,
      /refused our credentials \(401\); check LLM_API_KEY/,
    ],
    ['a malformed response body', { kind: 'malformed' }, 502, /model call failed/],
    ['a dropped connection', { kind: 'disconnect' }, 502, /Could not reach the model server/],
    ['an empty reply', { kind: 'empty' }, 502, /empty reply/],
    ['a model that never answers', { kind: 'hang' }, 504, /did not answer within 400 ms/],
  ])('reports %s and keeps the user message', async (_label, behaviour, status, pattern) => {
    fake.enqueue(behaviour);
    const res = await chat({ message: 'are you there?' }).expect(status);
    expect(res.body).toMatchObject({
      statusCode: status,
      message: expect.stringMatching(pattern),
      conversationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userMessageId: expect.any(String),
    });
    expect(res.body.message).toContain('Your message was saved');
    expect(JSON.stringify(res.body)).not.toMatch(/sk-te/);
    const stored = await messages(res.body.conversationId);
    expect(stored.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'are you there?', 'complete'],
      ['assistant', '', 'failed'],
    ]);
  });

  it('resumes after a failure: the failed reply is not replayed, the unanswered question is', async () => {
    fake.enqueue({ kind: 'status', status: 503 });
    const failed = await chat({ message: 'first question' }).expect(502);
    const id = failed.body.conversationId;
    const ok = await chat({ message: 'second question', conversationId: id }).expect(200);
    expect(ok.body.reply).toBe('reply to: second question');
    expect(fake.lastCompletion.body.messages).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'user', content: 'second question' },
    ]);
    expect((await messages(id)).map((m) => m.status)).toEqual(['complete', 'failed', 'complete', 'complete']);
  });

  it('bounds the whole call, retries included, by LLM_TIMEOUT_MS', async () => {
    const retrying = await startTestApp({
      dbPath: `${fixture.dir}/retry.sqlite`,
      llmBaseUrl: fake.url,
      env: { LLM_TIMEOUT_MS: '600', LLM_MAX_RETRIES: '5' },
    });
    try {
      // Each attempt fails fast with 500 and the SDK backs off between retries (0.5 s, 1 s, ...).
      fake.enqueue(...Array.from({ length: 6 }, () => ({ kind: 'status', status: 500 }) as Behaviour));
      const res = await retrying
        .http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ message: 'retry me' })
        .expect(504);
      expect(res.body.message).toMatch(/within 600 ms/);
      expect(fake.completions.length).toBeLessThan(6);
    } finally {
      await retrying.close();
    }
  });

  it('retries a 429 and succeeds when the model recovers', async () => {
    const retrying = await startTestApp({
      dbPath: `${fixture.dir}/recover.sqlite`,
      llmBaseUrl: fake.url,
      env: { LLM_TIMEOUT_MS: '10000', LLM_MAX_RETRIES: '2' },
    });
    try {
      fake.enqueue({ kind: 'status', status: 429 });
      const res = await retrying.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'busy?' }).expect(200);
      expect(res.body.reply).toBe('reply to: busy?');
      expect(fake.completions).toHaveLength(2);
      const stored = await retrying.http().get(`/api/conversations/${res.body.conversationId}`).set(auth(ALICE_KEY));
      expect(stored.body.messages.map((m: { status: string }) => m.status)).toEqual(['complete', 'complete']);
    } finally {
      await retrying.close();
    }
  });

  /**
   * A port nobody listens on. Not one taken and freed: the other test pass, running beside this
   * one, may be given it for a server of its own. Test servers listen on ports the system picks
   * (32768 and up), never on port 2 (port 1 is on fetch's list of refused ports).
   */
  const CLOSED_PORT = 2;

  it('names the address and the cause when the model server cannot be reached', async () => {
    const port = CLOSED_PORT;
    const down = await startTestApp({
      dbPath: `${fixture.dir}/down.sqlite`,
      llmBaseUrl: `http://127.0.0.1:${port}/v1`,
    });
    try {
      const res = await down.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'anyone?' }).expect(502);
      expect(res.body.message).toMatch(
        new RegExp(
          `^Could not reach the model server at http://127\\.0\\.0\\.1:${port}/v1 \\(ECONNREFUSED\\); check LLM_BASE_URL and that the server is running\\.`,
        ),
      );
    } finally {
      await down.close();
    }
  });

  it('says that LLM_BASE_URL probably lacks /v1 when the server answers 404 there', async () => {
    const origin = fake.url.replace(/\/v1$/, '');
    const bare = await startTestApp({ dbPath: `${fixture.dir}/bare.sqlite`, llmBaseUrl: origin });
    try {
      const res = await bare.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'hello?' }).expect(502);
      expect(res.body.message).toContain(`The model server answered 404 at ${origin}/chat/completions`);
      expect(res.body.message).toContain(
        `LLM_BASE_URL does not end in /v1: most OpenAI-compatible servers want ${origin}/v1`,
      );
    } finally {
      await bare.close();
    }
  });
});
