import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { deltaText, openEventStream, type SseEvent } from '../../support/sse-client.js';
import { ALICE_KEY, auth, BOB_KEY, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';

describe('streaming replies (server-sent events through a real HTTP client)', () => {
  let fake: FakeOpenAiServer;
  let t: TestApp;
  let base: string;
  let tmp: ReturnType<typeof tempDir>;
  const env = { LLM_TIMEOUT_MS: '3000', STREAM_FLUSH_MS: '30' };

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
    t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, llmBaseUrl: fake.url, env });
    base = await t.url();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    tmp.remove();
  });
  beforeEach(() => fake.reset());

  const stream = (body: object, key = ALICE_KEY) =>
    openEventStream(`${base}/api/chat/stream`, { method: 'POST', headers: auth(key), body });
  const messages = async (id: string, app = t) =>
    (await app.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body.messages;

  it('streams conversation, deltas and done, and stores the reply before done', async () => {
    fake.enqueue({
      kind: 'stream',
      chunks: ['Hel', 'lo ', 'there'],
      usage: { prompt_tokens: 5, completion_tokens: 3 },
    });
    const res = await stream({ message: 'hi' });
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/event-stream/);
    const events = await res.collect();
    expect(events.map((e) => e.event)).toEqual(['conversation', 'delta', 'delta', 'delta', 'done']);
    const [start] = events;
    expect(start.data).toMatchObject({
      conversationId: expect.any(String),
      userMessageId: expect.any(String),
      messageId: expect.any(String),
      created: true,
    });
    expect(deltaText(events)).toBe('Hello there');
    expect(events.at(-1)!.data).toEqual({
      messageId: start.data.messageId,
      reply: 'Hello there',
      status: 'complete',
      reason: null,
      model: 'fake-model',
      usage: { promptTokens: 5, completionTokens: 3 },
    });
    expect(fake.lastCompletion.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const stored = await messages(start.data.conversationId);
    expect(stored.map((m: { content: string; status: string }) => [m.content, m.status])).toEqual([
      ['hi', 'complete'],
      ['Hello there', 'complete'],
    ]);
  });

  it('answers errors found before the stream as plain JSON', async () => {
    const bad = await stream({ message: '' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    const unauthenticated = await openEventStream(`${base}/api/chat/stream`, {
      method: 'POST',
      body: { message: 'x' },
    });
    expect(unauthenticated.status).toBe(401);

    const own = await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'mine' }).expect(200);
    // Another actor's conversation answers exactly like an unknown one.
    const foreign = await stream({ message: 'x', conversationId: own.body.conversationId }, BOB_KEY);
    const unknown = await stream({ message: 'x', conversationId: '00000000-0000-4000-8000-000000000000' }, BOB_KEY);
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({
      ...unknown.json,
      message: unknown.json.message.replace('00000000-0000-4000-8000-000000000000', own.body.conversationId),
    });
  });

  it('refuses a second send while a reply is streaming (409), storing nothing for it', async () => {
    const gate = deferred();
    fake.enqueue({ kind: 'stream', chunks: ['one ', 'two'], hold: gate.promise });
    const first = await stream({ message: 'first' });
    const [start] = await first.collect((e) => e.event === 'delta');
    const id = start.data.conversationId;

    const second = await stream({ message: 'second', conversationId: id });
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({ statusCode: 409, conversationId: id, messageId: start.data.messageId });
    const json = await t
      .http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ message: 'again', conversationId: id })
      .expect(409);
    expect(json.body.message).toMatch(/still being generated/);

    gate.resolve();
    expect((await first.collect()).at(-1)!.event).toBe('done');
    expect((await messages(id)).map((m: { content: string }) => m.content)).toEqual(['first', 'one two']);
  });

  it('keeps generating after the client disconnects, and a follower gets the rest', async () => {
    const gate = deferred();
    fake.enqueue({ kind: 'stream', chunks: ['Once ', 'upon ', 'a time.'], hold: gate.promise });
    const client = await stream({ message: 'tell me a story' });
    const early = await client.collect((e) => e.event === 'delta');
    const { conversationId, messageId } = early[0].data;
    client.abort();

    // The progress saver writes what was generated so far; a reconnecting client replays it.
    await until(async () => (await messages(conversationId))[1].content === 'Once upon ');
    const follower = await openEventStream(`${base}/api/conversations/${conversationId}/messages/${messageId}/stream`, {
      headers: auth(ALICE_KEY),
    });
    expect(follower.status).toBe(200);
    const first = await follower.next();
    expect(first).toEqual({ event: 'delta', data: { text: 'Once upon ' } });
    gate.resolve();
    const rest = await follower.collect();
    expect(deltaText(rest)).toBe('a time.');
    expect(rest.at(-1)).toEqual({
      event: 'done',
      data: expect.objectContaining({ messageId, reply: 'Once upon a time.', status: 'complete' }),
    });
    expect((await messages(conversationId))[1]).toMatchObject({ content: 'Once upon a time.', status: 'complete' });
  });

  it('reports 404, not a stored reply, when the conversation is deleted while its reply is generated', async () => {
    const gate = deferred();
    fake.enqueue({ kind: 'stream', chunks: ['going ', 'away'], hold: gate.promise });
    const client = await stream({ message: 'delete me mid-way' });
    const [start] = await client.collect((e) => e.event === 'delta');
    await t.http().delete(`/api/conversations/${start.data.conversationId}`).set(auth(ALICE_KEY)).expect(204);
    gate.resolve();
    const rest = await client.collect();
    expect(rest.at(-1)).toEqual({
      event: 'error',
      data: expect.objectContaining({ statusCode: 404, code: 'conversation_not_found' }),
    });
  });

  it('sends a finished message at once to a follower', async () => {
    const done = await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'quick' }).expect(200);
    const follower = await openEventStream(
      `${base}/api/conversations/${done.body.conversationId}/messages/${done.body.messageId}/stream`,
      {
        headers: auth(ALICE_KEY),
      },
    );
    const events = await follower.collect();
    expect(events).toEqual([
      { event: 'delta', data: { text: 'reply to: quick' } },
      { event: 'done', data: expect.objectContaining({ reply: 'reply to: quick', status: 'complete' }) },
    ]);
  });

  it('answers 404 (JSON) when following an unknown message or another actor’s', async () => {
    const own = await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'mine' }).expect(200);
    const path = `/api/conversations/${own.body.conversationId}/messages`;
    const unknown = await openEventStream(`${base}${path}/00000000-0000-4000-8000-000000000000/stream`, {
      headers: auth(ALICE_KEY),
    });
    expect(unknown.status).toBe(404);
    const foreign = await openEventStream(`${base}${path}/${own.body.messageId}/stream`, { headers: auth(BOB_KEY) });
    expect(foreign.status).toBe(404);
  });

  it.each<[string, 'break' | 'noFinish', RegExp]>([
    ['breaks the connection', 'break', /model call failed|Could not reach/],
    ['ends without finishing', 'noFinish', /ended before the reply was finished/],
  ])('reports a stream that %s mid-way, keeping the partial text as failed', async (_label, end, pattern) => {
    fake.enqueue({ kind: 'stream', chunks: ['Partial ', 'answer'], end });
    const events = await (await stream({ message: 'go' })).collect();
    const last = events.at(-1)!;
    expect(last.event).toBe('error');
    expect(last.data).toMatchObject({
      statusCode: 502,
      message: expect.stringMatching(pattern),
      partial: 'Partial answer',
    });
    const stored = await messages(events[0].data.conversationId);
    expect(stored[0]).toMatchObject({ content: 'go', status: 'complete' });
    expect(stored[1]).toMatchObject({ content: 'Partial answer', status: 'failed', error: { statusCode: 502 } });
  });

  it('reports a model error status after retries as an error event (502), the question stored', async () => {
    fake.enqueue({ kind: 'status', status: 503 });
    const events = await (await stream({ message: 'anyone?' })).collect();
    expect(events.map((e) => e.event)).toEqual(['conversation', 'error']);
    expect(events[1].data).toMatchObject({ statusCode: 502, message: expect.stringMatching(/answered 503/) });
    expect((await messages(events[0].data.conversationId))[0]).toMatchObject({
      content: 'anyone?',
      status: 'complete',
    });
  });

  it('stops a reply on cancel: text so far kept as cancelled, the streaming client gets done', async () => {
    const gate = deferred();
    fake.enqueue({ kind: 'stream', chunks: ['Counting: ', 'one, ', 'two'], hold: gate.promise });
    const client = await stream({ message: 'count' });
    const [start] = await client.collect((e) => e.event === 'delta');
    const { conversationId, messageId } = start.data;
    await until(async () => (await messages(conversationId))[1].content === 'Counting: one, ');
    const cancelled = await t
      .http()
      .post(`/api/conversations/${conversationId}/messages/${messageId}/cancel`)
      .set(auth(ALICE_KEY))
      .expect(200);
    expect(cancelled.body).toMatchObject({ id: messageId, status: 'cancelled', content: 'Counting: one, ' });
    const rest = await client.collect();
    expect(rest.at(-1)).toEqual({
      event: 'done',
      data: expect.objectContaining({ status: 'cancelled', reply: 'Counting: one, ' }),
    });
    gate.resolve();
    // A cancelled reply is not replayed; the conversation takes the next turn.
    await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'next', conversationId }).expect(200);
    expect(fake.lastCompletion.body.messages).toEqual([
      { role: 'user', content: 'count' },
      { role: 'user', content: 'next' },
    ]);
  });

  it('regenerates after a failure, beside the failed answer, which the new one lists in versions (JSON and stream)', async () => {
    fake.enqueue({ kind: 'stream', chunks: ['Broken'], end: 'break' });
    const failed = await (await stream({ message: 'What is 2+2?' })).collect();
    const { conversationId, messageId } = failed[0].data;

    fake.enqueue({ kind: 'reply', text: 'It is 4.' });
    const again = await t
      .http()
      .post(`/api/conversations/${conversationId}/regenerate`)
      .set(auth(ALICE_KEY))
      .expect(200);
    expect(again.body).toMatchObject({ conversationId, reply: 'It is 4.', status: 'complete', created: false });
    expect(again.body.messageId).not.toBe(messageId);
    expect(fake.lastCompletion.body.messages).toEqual([{ role: 'user', content: 'What is 2+2?' }]);

    fake.enqueue({ kind: 'stream', chunks: ['Four', '.'] });
    const streamed = await (
      await openEventStream(`${base}/api/conversations/${conversationId}/regenerate/stream`, {
        method: 'POST',
        headers: auth(ALICE_KEY),
      })
    ).collect();
    expect(streamed.map((e: SseEvent) => e.event)).toEqual(['conversation', 'delta', 'delta', 'done']);
    const newest = streamed[0].data.messageId;
    expect([messageId, again.body.messageId]).not.toContain(newest);

    const stored = await messages(conversationId);
    expect(stored).toHaveLength(2);
    expect(stored[1]).toMatchObject({
      id: newest,
      content: 'Four.',
      status: 'complete',
      siblingIds: [messageId, again.body.messageId, newest],
    });
    expect(stored[1].versions.map((v: { content: string; status: string }) => [v.content, v.status])).toEqual([
      ['Broken', 'failed'],
      ['It is 4.', 'complete'],
    ]);
  });

  it('answers 404 to regenerate in an unknown conversation', async () => {
    const res = await t
      .http()
      .post('/api/conversations/00000000-0000-4000-8000-000000000000/regenerate')
      .set(auth(ALICE_KEY))
      .expect(404);
    expect(res.body.statusCode).toBe(404);
  });

  it('follows and cancels from a second instance sharing the database', async () => {
    const other = await startTestApp({ dbPath: t.dbPath, llmBaseUrl: fake.url, env });
    try {
      const otherBase = await other.url();
      const gate = deferred();
      fake.enqueue({ kind: 'stream', chunks: ['Shared ', 'state ', 'lives in the database'], hold: gate.promise });
      const client = await stream({ message: 'prove it' });
      const [start] = await client.collect((e) => e.event === 'delta');
      const { conversationId, messageId } = start.data;

      const follower = await openEventStream(
        `${otherBase}/api/conversations/${conversationId}/messages/${messageId}/stream`,
        {
          headers: auth(ALICE_KEY),
        },
      );
      await until(async () => (await messages(conversationId, other))[1].content === 'Shared state ');
      // The second instance refuses a concurrent turn too: the lock is in the database.
      await other.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'x', conversationId }).expect(409);
      const cancelled = await other
        .http()
        .post(`/api/conversations/${conversationId}/messages/${messageId}/cancel`)
        .set(auth(ALICE_KEY))
        .expect(200);
      expect(cancelled.body.status).toBe('cancelled');
      const followed = await follower.collect();
      expect(deltaText(followed)).toBe('Shared state ');
      expect(followed.at(-1)).toEqual({ event: 'done', data: expect.objectContaining({ status: 'cancelled' }) });
      expect((await client.collect()).at(-1)!.data.status).toBe('cancelled');
      gate.resolve();
    } finally {
      await other.close();
    }
  });
});

describe('streaming timeouts', () => {
  it('answers 504 when the model stalls mid-stream, keeping the partial text', async () => {
    const fake = await FakeOpenAiServer.start();
    const tmp = tempDir();
    const t = await startTestApp({
      dbPath: `${tmp.dir}/chat.sqlite`,
      llmBaseUrl: fake.url,
      env: { LLM_TIMEOUT_MS: '300', STREAM_FLUSH_MS: '30' },
    });
    try {
      fake.enqueue({ kind: 'stream', chunks: ['Still ', 'thinking'], end: 'stall' });
      const events = await (
        await openEventStream(`${await t.url()}/api/chat/stream`, {
          method: 'POST',
          headers: auth(ALICE_KEY),
          body: { message: 'hm' },
        })
      ).collect();
      expect(events.at(-1)).toEqual({
        event: 'error',
        data: expect.objectContaining({
          statusCode: 504,
          code: 'model_timeout',
          message: 'The model did not answer within 300 ms',
          partial: 'Still thinking',
        }),
      });
      fake.enqueue({ kind: 'hang' });
      const json = await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'silent?' }).expect(504);
      expect(json.body.messageId).toEqual(expect.any(String));
    } finally {
      await t.close();
      await fake.close();
      tmp.remove();
    }
  });
});
