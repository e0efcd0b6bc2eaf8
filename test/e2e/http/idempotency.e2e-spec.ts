import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { deltaText, openEventStream } from '../../support/sse-client.js';
import { ALICE_KEY, auth, BOB_KEY, DIALECT, startTestApp, type TestApp } from '../../support/test-app.js';
import { deferred } from '../../support/until.js';

describe('Idempotency-Key on POST /api/chat and /api/chat/stream', () => {
  const fixture = useAppWithFakeModel({ STREAM_FLUSH_MS: '30' });
  let fake: FakeOpenAiServer;
  let t: TestApp;
  let base: string;
  // The fixture is filled in by its own beforeAll, which runs first.
  beforeAll(async () => {
    ({ fake, app: t } = fixture);
    base = await t.url();
  });

  const chat = (key: string, body: object, apiKey = ALICE_KEY, app = t) =>
    app.http().post('/api/chat').set(auth(apiKey)).set('Idempotency-Key', key).send(body);
  const messageCount = async (id: string) =>
    (await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body.messages.length;

  it('answers a retry with the stored result, without calling the model again', async () => {
    const first = await chat('key-retry-1', { message: 'charge my card once' }).expect(200);
    const second = await chat('key-retry-1', { message: 'charge my card once' }).expect(200);
    expect(second.body).toEqual(first.body);
    expect(fake.completions).toHaveLength(1);
    expect(await messageCount(first.body.conversationId)).toBe(2);
  });

  it('refuses the same key with a different body (422), storing nothing', async () => {
    const first = await chat('key-mismatch', { message: 'one thing' }).expect(200);
    const other = await chat('key-mismatch', { message: 'another thing' }).expect(422);
    expect(other.body).toMatchObject({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: expect.stringMatching(/different request/),
    });
    expect(fake.completions).toHaveLength(1);
    expect(await messageCount(first.body.conversationId)).toBe(2);
  });

  it('keeps keys per actor', async () => {
    const alice = await chat('shared-key', { message: 'same words' }).expect(200);
    const bob = await chat('shared-key', { message: 'same words' }, BOB_KEY).expect(200);
    expect(bob.body.conversationId).not.toBe(alice.body.conversationId);
    expect(fake.completions).toHaveLength(2);
  });

  it('makes a duplicate that arrives while the first runs wait for it', async () => {
    fake.enqueue({ kind: 'reply', text: 'slow answer', delayMs: 300 });
    const first = chat('key-concurrent', { message: 'are you slow?' }).then((r) => r);
    await new Promise((r) => setTimeout(r, 50));
    const second = await chat('key-concurrent', { message: 'are you slow?' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual((await first).body);
    expect(fake.completions).toHaveLength(1);
  });

  it('stores a model failure as the answer: the retry gets the same 502, the model is not called again', async () => {
    fake.enqueue({ kind: 'status', status: 500 });
    const first = await chat('key-failed', { message: 'will fail' }).expect(502);
    const again = await chat('key-failed', { message: 'will fail' }).expect(502);
    expect(again.body).toEqual(first.body);
    expect(fake.completions).toHaveLength(1);
  });

  it('frees a key whose request was refused before any turn (409 busy), so the retry runs', async () => {
    const gate = deferred();
    fake.enqueue({ kind: 'stream', chunks: ['busy ', 'now'], hold: gate.promise });
    const running = await openEventStream(`${base}/api/chat/stream`, {
      method: 'POST',
      headers: auth(ALICE_KEY),
      body: { message: 'long one' },
    });
    const [start] = await running.collect((e) => e.event === 'delta');
    const id = start.data.conversationId;
    await chat('key-after-busy', { message: 'next', conversationId: id }).expect(409);
    gate.resolve();
    await running.collect();
    const retried = await chat('key-after-busy', { message: 'next', conversationId: id }).expect(200);
    expect(retried.body.reply).toBe('reply to: next');
  });

  it('forgets a stored answer when its conversation is deleted: the retry runs afresh', async () => {
    const first = await chat('key-deleted', { message: 'secret answer please' }).expect(200);
    await t.http().delete(`/api/conversations/${first.body.conversationId}`).set(auth(ALICE_KEY)).expect(204);
    const again = await chat('key-deleted', { message: 'secret answer please' }).expect(200);
    expect(again.body.conversationId).not.toBe(first.body.conversationId);
    expect(fake.completions).toHaveLength(2);
  });

  it('rejects a malformed key with 400', async () => {
    const res = await chat('has space', { message: 'x' }).expect(400);
    expect(res.body.message).toMatch(/Idempotency-Key/);
    await chat('x'.repeat(256), { message: 'x' }).expect(400);
  });

  it('replays a finished stream as events, and follows one still running', async () => {
    const headers = { ...auth(ALICE_KEY), 'Idempotency-Key': 'stream-key-1' };
    fake.enqueue({ kind: 'stream', chunks: ['Stream ', 'once'] });
    const first = await (
      await openEventStream(`${base}/api/chat/stream`, { method: 'POST', headers, body: { message: 'stream it' } })
    ).collect();
    const replay = await (
      await openEventStream(`${base}/api/chat/stream`, { method: 'POST', headers, body: { message: 'stream it' } })
    ).collect();
    expect(replay.map((e) => e.event)).toEqual(['conversation', 'delta', 'done']);
    expect(replay[0].data).toMatchObject({
      conversationId: first[0].data.conversationId,
      messageId: first[0].data.messageId,
      replayed: true,
    });
    expect(deltaText(replay)).toBe('Stream once');
    expect(fake.completions).toHaveLength(1);

    const gate = deferred();
    fake.enqueue({ kind: 'stream', chunks: ['Live ', 'and ', 'followed'], hold: gate.promise });
    const liveHeaders = { ...auth(ALICE_KEY), 'Idempotency-Key': 'stream-key-2' };
    const original = await openEventStream(`${base}/api/chat/stream`, {
      method: 'POST',
      headers: liveHeaders,
      body: { message: 'follow me' },
    });
    await original.collect((e) => e.event === 'delta');
    const duplicate = await openEventStream(`${base}/api/chat/stream`, {
      method: 'POST',
      headers: liveHeaders,
      body: { message: 'follow me' },
    });
    expect(duplicate.status).toBe(200);
    gate.resolve();
    const followed = await duplicate.collect();
    expect(followed[0]).toMatchObject({ event: 'conversation', data: { replayed: true } });
    expect(deltaText(followed)).toBe('Live and followed');
    expect(followed.at(-1)).toMatchObject({ event: 'done', data: { status: 'complete', reply: 'Live and followed' } });
    expect(fake.completions).toHaveLength(2);
  });

  (DIALECT === 'postgres' ? it : it.skip)('recognises a retry sent to another instance', async () => {
    const other = await startTestApp({ dbPath: t.dbPath, llmBaseUrl: fake.url });
    try {
      const first = await chat('cross-instance', { message: 'anywhere' }).expect(200);
      const second = await chat('cross-instance', { message: 'anywhere' }, ALICE_KEY, other).expect(200);
      expect(second.body).toEqual(first.body);
      expect(fake.completions).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
