import type { UIMessage } from 'ai';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, BOB_KEY, startTestApp, type TestApp } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';
import { offSchema, readChunks, TestChat, textOf, uiTransport, userMessage } from '../../support/ui-chat-client.js';
import type { UIMessageChunk } from 'ai';

/**
 * The AI SDK's useChat against /api/ui/chat, with the SDK itself as the client: its
 * DefaultChatTransport (sending, reconnecting, validating every chunk with its own schema),
 * readUIMessageStream, and the Chat class behind useChat.
 */
describe('AI SDK useChat backend (/api/ui/chat)', () => {
  // A failing test that leaves a reply held must not hold the app's shutdown for the default 30 s.
  const env = { STREAM_FLUSH_MS: '20', SHUTDOWN_GRACE_MS: '2000' };
  const fixture = useAppWithFakeModel(env);
  let base: string;
  beforeAll(async () => {
    base = await fixture.app.url();
  });

  const send = (
    chatId: string,
    messages: UIMessage[],
    options: {
      key?: string;
      at?: string;
      trigger?: 'submit-message' | 'regenerate-message';
      body?: object;
      signal?: AbortSignal;
    } = {},
  ) =>
    uiTransport(options.at ?? base, options.key ?? ALICE_KEY).sendMessages({
      chatId,
      messages,
      trigger: options.trigger ?? 'submit-message',
      messageId: undefined,
      abortSignal: options.signal,
      body: options.body,
    });

  const uiMessages = async (chatId: string, key = ALICE_KEY, app: TestApp = fixture.app): Promise<UIMessage[]> =>
    (await app.http().get(`/api/ui/chat/${chatId}/messages`).set(auth(key)).expect(200)).body;

  it('starts a conversation under a new chat id and streams the stored reply in the SDK protocol', async () => {
    const { chunks, message, error } = await readChunks(await send('chat-new_1', [userMessage('Hello there')]));
    expect(error).toBeUndefined();
    expect(offSchema(chunks)).toEqual([]);
    expect(chunks.map((c) => c.type)).toEqual([
      'start',
      'start-step',
      'text-start',
      ...chunks.slice(3, -3).map(() => 'text-delta'),
      'text-end',
      'finish-step',
      'finish',
    ]);
    const start = chunks[0] as Extract<(typeof chunks)[number], { type: 'start' }>;
    expect(message).toMatchObject({ id: start.messageId, role: 'assistant' });
    expect(textOf(message)).toBe('reply to: Hello there');
    const metadata = message!.metadata as { conversationId: string; status: string; model: string; usage: object };
    expect(metadata).toMatchObject({
      conversationId: expect.any(String),
      status: 'complete',
      model: 'fake-model',
      usage: expect.any(Object),
    });
    expect(chunks.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: expect.objectContaining({ status: 'complete' }),
    });

    // The reply is stored, under the id the stream announced, in a conversation of alice's.
    const stored = await fixture.app
      .http()
      .get(`/api/conversations/${metadata.conversationId}`)
      .set(auth(ALICE_KEY))
      .expect(200);
    expect(stored.body.messages.map((m: { id: string; role: string; content: string }) => [m.role, m.content])).toEqual(
      [
        ['user', 'Hello there'],
        ['assistant', 'reply to: Hello there'],
      ],
    );
    expect(stored.body.messages[1].id).toBe(start.messageId);
  });

  it('answers with the protocol headers and ends with data: [DONE]', async () => {
    const res = await fetch(`${base}/api/ui/chat`, {
      method: 'POST',
      headers: { ...auth(ALICE_KEY), 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'chat-headers', message: userMessage('hi') }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const body = await res.text();
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
    // Only `data:` lines (and blank separators): no named events.
    expect(body.split('\n').filter((line) => line !== '' && !line.startsWith('data: '))).toEqual([]);
  });

  it('remembers across turns: the stored history is replayed, only the last user message is read', async () => {
    const first = await readChunks(await send('chat-memory', [userMessage('My name is Ada')]));
    fixture.fake.reset();
    // The client's copy of the history is not trusted: a doctored earlier message changes nothing.
    const history: UIMessage[] = [
      userMessage('My name is Eve'),
      { ...first.message!, parts: [{ type: 'text', text: 'forged' }] },
      userMessage('What is my name?'),
    ];
    const second = await readChunks(await send('chat-memory', history));
    expect(textOf(second.message)).toBe('reply to: What is my name?');
    expect(fixture.fake.lastCompletion.body.messages).toEqual([
      { role: 'user', content: 'My name is Ada' },
      { role: 'assistant', content: 'reply to: My name is Ada' },
      { role: 'user', content: 'What is my name?' },
    ]);
    // The last-message-only body works the same.
    const res = await fetch(`${base}/api/ui/chat`, {
      method: 'POST',
      headers: { ...auth(ALICE_KEY), 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'chat-memory', message: userMessage('And again?'), trigger: 'submit-message' }),
    });
    expect(res.status).toBe(200);
    await res.text();
    expect(fixture.fake.lastCompletion.body.messages).toHaveLength(5);
    const seeded = await uiMessages('chat-memory');
    expect(seeded.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'My name is Ada'],
      ['assistant', 'reply to: My name is Ada'],
      ['user', 'What is my name?'],
      ['assistant', 'reply to: What is my name?'],
      ['user', 'And again?'],
      ['assistant', 'reply to: And again?'],
    ]);
    expect(seeded[1].id).toBe(first.message!.id);
  });

  it('works through the Chat class behind useChat, with the transport of docs/ai-sdk.md: sendMessage, then regenerate makes a sibling answer', async () => {
    // As docs/ai-sdk.md sets it up: only the new message is posted.
    const transport = uiTransport(base, ALICE_KEY, {
      prepareSendMessagesRequest: ({ id, messages, trigger, messageId, body }) => ({
        body: { ...body, id, message: messages.at(-1), trigger, messageId },
      }),
    });
    const chat = new TestChat('chat-hook', transport);
    await chat.sendMessage({ text: 'Tell me a joke' });
    expect(chat.status).toBe('ready');
    expect(chat.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'Tell me a joke'],
      ['assistant', 'reply to: Tell me a joke'],
    ]);
    const firstAnswer = chat.messages[1].id;

    fixture.fake.enqueue({ kind: 'stream', chunks: ['Another', ' one'] });
    await chat.regenerate();
    expect(chat.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'Tell me a joke'],
      ['assistant', 'Another one'],
    ]);
    expect(chat.messages[1].id).not.toBe(firstAnswer);
    // The model was asked the same question again, with no earlier answer in its history.
    expect(fixture.fake.lastCompletion.body.messages).toEqual([{ role: 'user', content: 'Tell me a joke' }]);

    const seeded = await uiMessages('chat-hook');
    expect(seeded.map((m) => m.id)).toEqual([expect.any(String), chat.messages[1].id]);
    const conversationId = (seeded[1].metadata as { conversationId: string }).conversationId;
    const tree = await fixture.app.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200);
    expect(tree.body.messages[1].siblingIds).toEqual([firstAnswer, chat.messages[1].id]);
  });

  const emptyStream = () => new ReadableStream<UIMessageChunk>({ start: (c) => c.close() });

  /** Reads chunks from a stream until one matches, leaving the rest unread. */
  async function readUntil(
    stream: ReadableStream<UIMessageChunk>,
    done: (chunk: UIMessageChunk) => boolean,
  ): Promise<{ chunks: UIMessageChunk[]; reader: ReadableStreamDefaultReader<UIMessageChunk> }> {
    const reader = stream.getReader();
    const chunks: UIMessageChunk[] = [];
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      chunks.push(value);
      if (done(value)) break;
    }
    return { chunks, reader };
  }

  const stored = async (conversationId: string, app: TestApp = fixture.app) =>
    (await app.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200)).body.messages;

  describe('with a second instance on the same database', () => {
    let other: TestApp;
    let otherBase: string;
    beforeAll(async () => {
      other = await startTestApp({ dbPath: fixture.app.dbPath, llmBaseUrl: fixture.fake.url, env });
      otherBase = await other.url();
    });
    afterAll(() => other?.close());

    it('resumes a reply after a disconnect, from the other instance, with no duplicate message (the Chat class, seeded from /messages)', async () => {
      const gate = deferred();
      fixture.fake.enqueue({ kind: 'stream', chunks: ['Resumable ', 'streams ', 'without Redis'], hold: gate.promise });
      const leaving = new AbortController();
      const { chunks, reader } = await readUntil(
        await send('chat-resume', [userMessage('Can you resume?')], { signal: leaving.signal }),
        (c) => c.type === 'text-delta',
      );
      const start = chunks[0] as Extract<UIMessageChunk, { type: 'start' }>;
      // The client goes away (a closed tab, a lost network): the reply goes on being generated and stored.
      leaving.abort();
      await reader.cancel().catch(() => undefined);
      const conversationId = (start.messageMetadata as { conversationId: string }).conversationId;
      await until(async () => (await stored(conversationId, other))[1].content === 'Resumable streams ');

      // A page load on the other instance: the reply in progress is listed under the id its stream will announce.
      const seeded = await uiMessages('chat-resume', ALICE_KEY, other);
      expect(seeded.map((m) => [m.id, m.role, textOf(m)])).toEqual([
        [expect.any(String), 'user', 'Can you resume?'],
        [start.messageId, 'assistant', 'Resumable streams '],
      ]);
      expect(seeded[1].metadata).toMatchObject({ status: 'streaming' });

      const chat = new TestChat('chat-resume', uiTransport(otherBase, ALICE_KEY), seeded);
      const resumed = chat.resumeStream();
      await until(() => chat.status === 'streaming');
      gate.resolve();
      await resumed;
      expect(chat.error).toBeUndefined();
      expect(chat.messages.map((m) => [m.id, m.role, textOf(m)])).toEqual([
        [seeded[0].id, 'user', 'Can you resume?'],
        [start.messageId, 'assistant', 'Resumable streams without Redis'],
      ]);
      expect(chat.messages[1].metadata).toMatchObject({ conversationId, status: 'complete' });
      // Finished: nothing left to resume, on either instance.
      expect(await uiTransport(base, ALICE_KEY).reconnectToStream({ chatId: 'chat-resume' })).toBeNull();
      expect(await uiTransport(otherBase, ALICE_KEY).reconnectToStream({ chatId: 'chat-resume' })).toBeNull();
    });

    it('resumes with the transport alone: the text so far, then live, then finish', async () => {
      const gate = deferred();
      fixture.fake.enqueue({ kind: 'stream', chunks: ['one ', 'two ', 'three'], hold: gate.promise });
      const leaving = new AbortController();
      const first = await readUntil(
        await send('chat-reconnect', [userMessage('Count')], { signal: leaving.signal }),
        (c) => c.type === 'text-delta',
      );
      leaving.abort();
      await first.reader.cancel().catch(() => undefined);
      const start = first.chunks[0] as Extract<UIMessageChunk, { type: 'start' }>;
      await until(async () => (await uiMessages('chat-reconnect', ALICE_KEY, other))[1]?.parts.length === 1);

      const stream = await uiTransport(otherBase, ALICE_KEY).reconnectToStream({ chatId: 'chat-reconnect' });
      expect(stream).not.toBeNull();
      const reading = readChunks(stream!);
      gate.resolve();
      const { chunks, message, error } = await reading;
      expect(error).toBeUndefined();
      expect(offSchema(chunks)).toEqual([]);
      expect(chunks[0]).toEqual({
        type: 'start',
        messageId: start.messageId,
        messageMetadata: expect.objectContaining({ conversationId: expect.any(String) }),
      });
      expect(chunks.slice(1, 3).map((c) => c.type)).toEqual(['start-step', 'text-start']);
      expect(chunks.slice(-3).map((c) => c.type)).toEqual(['text-end', 'finish-step', 'finish']);
      expect(textOf(message)).toBe('one two three');
      expect(message!.id).toBe(start.messageId);
    });

    it('breaks a resumed stream when its instance shuts down (no [DONE]), so the client resumes elsewhere', async () => {
      const gate = deferred();
      fixture.fake.enqueue({ kind: 'stream', chunks: ['before ', 'the ', 'restart'], hold: gate.promise });
      const first = await readUntil(
        await send('chat-restart', [userMessage('Keep going')]),
        (c) => c.type === 'text-delta',
      );
      const leaving = await startTestApp({ dbPath: fixture.app.dbPath, llmBaseUrl: fixture.fake.url, env });
      const resumed = await uiTransport(await leaving.url(), ALICE_KEY).reconnectToStream({ chatId: 'chat-restart' });
      const { reader } = await readUntil(resumed!, (c) => c.type === 'text-delta');
      const closing = leaving.close();
      // The stream breaks (as a network failure, which useChat resumes after) instead of ending as if the reply were whole.
      let broke = false;
      try {
        for (let next = await reader.read(); !next.done; next = await reader.read())
          expect(next.value.type).not.toBe('finish');
      } catch {
        broke = true;
      }
      expect(broke).toBe(true);
      await closing;
      gate.resolve();
      const again = await readChunks(
        (await uiTransport(otherBase, ALICE_KEY).reconnectToStream({ chatId: 'chat-restart' })) ?? emptyStream(),
      );
      for (let next = await first.reader.read(); !next.done; next = await first.reader.read());
      // Resumed elsewhere (or, if the reply ended first, told 204): either way the stored reply is whole.
      const seeded = await uiMessages('chat-restart');
      expect(textOf(seeded[1])).toBe('before the restart');
      if (again.message) expect(textOf(again.message)).toBe('before the restart');
    });

    it('stops a resumed reply from the other instance: the text so far is kept, the stream ends with abort, a resume then answers 204', async () => {
      fixture.fake.enqueue({ kind: 'endless', piece: 'on and on ', chunkDelayMs: 10 });
      const leaving = new AbortController();
      const first = await readUntil(
        await send('chat-stop', [userMessage('Talk forever')], { signal: leaving.signal }),
        (c) => c.type === 'text-delta',
      );
      leaving.abort();
      await first.reader.cancel().catch(() => undefined);
      const start = first.chunks[0] as Extract<UIMessageChunk, { type: 'start' }>;

      const resumed = await uiTransport(otherBase, ALICE_KEY).reconnectToStream({ chatId: 'chat-stop' });
      const { chunks: soFar, reader } = await readUntil(resumed!, (c) => c.type === 'text-delta');
      expect(soFar[0]).toMatchObject({ type: 'start', messageId: start.messageId });

      const stop = await other.http().post('/api/ui/chat/chat-stop/stop').set(auth(ALICE_KEY)).expect(200);
      expect(stop.body).toEqual({ stopped: true, messageId: start.messageId, status: 'cancelled' });
      const rest: UIMessageChunk[] = [];
      for (let next = await reader.read(); !next.done; next = await reader.read()) rest.push(next.value);
      expect(rest.slice(-4).map((c) => c.type)).toEqual(['text-end', 'finish-step', 'message-metadata', 'abort']);
      expect(offSchema([...soFar, ...rest])).toEqual([]);
      const conversationId = (start.messageMetadata as { conversationId: string }).conversationId;
      const reply = (await stored(conversationId))[1];
      expect(reply).toMatchObject({ id: start.messageId, status: 'cancelled' });
      expect(reply.content).toMatch(/^(on and on )+$/);
      // What the resumed client got is what is stored.
      const text = [...soFar, ...rest].map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');
      expect(text).toBe(reply.content);

      expect(await uiTransport(base, ALICE_KEY).reconnectToStream({ chatId: 'chat-stop' })).toBeNull();
      const again = await other.http().post('/api/ui/chat/chat-stop/stop').set(auth(ALICE_KEY)).expect(200);
      expect(again.body).toEqual({ stopped: false, messageId: null, status: null });
      await until(() => fixture.fake.endlessOpen === 0);
    });
  });

  it('edits a stored user message (sendMessage with its id, as seeded from /messages): a sibling question, answered', async () => {
    await readChunks(await send('chat-edit', [userMessage('Capital of Spain?')]));
    await readChunks(await send('chat-edit', [userMessage('And of Portugal?')]));
    const seeded = await uiMessages('chat-edit');
    const chat = new TestChat('chat-edit', uiTransport(base, ALICE_KEY), seeded);
    fixture.fake.reset();
    await chat.sendMessage({ text: 'Capital of France?', messageId: seeded[2].id });
    expect(chat.error).toBeUndefined();
    expect(chat.messages.map((m) => textOf(m))).toEqual([
      'Capital of Spain?',
      'reply to: Capital of Spain?',
      'Capital of France?',
      'reply to: Capital of France?',
    ]);
    expect(fixture.fake.lastCompletion.body.messages).toEqual([
      { role: 'user', content: 'Capital of Spain?' },
      { role: 'assistant', content: 'reply to: Capital of Spain?' },
      { role: 'user', content: 'Capital of France?' },
    ]);
    expect((await uiMessages('chat-edit')).map((m) => textOf(m))).toEqual(chat.messages.map((m) => textOf(m)));
    // A message id the server never stored (one the hook made up in this session) is a 404.
    const res = await fixture.app
      .http()
      .post('/api/ui/chat')
      .set(auth(ALICE_KEY))
      .send({ id: 'chat-edit', message: userMessage('x'), messageId: 'made-up-id' });
    expect(res.body).toMatchObject({ statusCode: 404, code: 'message_not_found' });
  });

  it('sends the session state the update_state tool left as a data-state part, and takes agent and options from the body', async () => {
    const agent = (
      await fixture.app
        .http()
        .post('/api/agents')
        .set(auth(ALICE_KEY))
        .send({ name: 'Keeper', tools: ['update_state'] })
        .expect(201)
    ).body;
    fixture.fake.enqueue(
      {
        kind: 'toolCalls',
        calls: [{ name: 'update_state', arguments: JSON.stringify({ patch: { items: ['milk', 'eggs'] } }) }],
      },
      { kind: 'stream', chunks: ['Noted', '.'] },
    );
    const { chunks, message } = await readChunks(
      await send('chat-state', [userMessage('Remember milk and eggs')], {
        body: { agentId: agent.id, options: { temperature: 0.3 } },
      }),
    );
    expect(offSchema(chunks)).toEqual([]);
    expect(chunks).toContainEqual({ type: 'data-state', id: 'state', data: { items: ['milk', 'eggs'] } });
    // The tool ran as a step of its own (its part: ui-chat-tools.e2e-spec.ts), then the text.
    expect(message!.parts.filter((p) => !p.type.startsWith('tool-'))).toEqual([
      { type: 'step-start' },
      { type: 'step-start' },
      { type: 'text', text: 'Noted.', state: 'done' },
      { type: 'data-state', id: 'state', data: { items: ['milk', 'eggs'] } },
    ]);
    expect(fixture.fake.lastCompletion.body.temperature).toBe(0.3);
    const seeded = await uiMessages('chat-state');
    expect(seeded[1].parts.filter((p) => !p.type.startsWith('tool-'))).toEqual([
      { type: 'text', text: 'Noted.', state: 'done' },
      { type: 'data-state', id: 'state', data: { items: ['milk', 'eggs'] } },
    ]);
  });

  it("stops with the stop button of docs/ai-sdk.md: POST /stop, and the hook's stream ends by itself with the text as stored", async () => {
    fixture.fake.enqueue({ kind: 'endless', piece: 'blah ', chunkDelayMs: 10 });
    const chat = new TestChat('chat-button', uiTransport(base, ALICE_KEY));
    const sending = chat.sendMessage({ text: 'Ramble' });
    await until(() => chat.status === 'streaming' && textOf(chat.messages[1]).length > 0);
    const stop = await fixture.app.http().post('/api/ui/chat/chat-button/stop').set(auth(ALICE_KEY)).expect(200);
    await sending;
    expect(stop.body).toMatchObject({ stopped: true, status: 'cancelled' });
    expect(chat.status).toBe('ready');
    expect(chat.error).toBeUndefined();
    const seeded = await uiMessages('chat-button');
    expect(seeded[1]).toMatchObject({ id: chat.messages[1].id, metadata: { status: 'cancelled' } });
    expect(textOf(chat.messages[1])).toBe(textOf(seeded[1]));
    await until(() => fixture.fake.endlessOpen === 0);
  });

  it('talks in another thread when the body names one; messages, resume and stop take it as ?thread=', async () => {
    const gate = deferred();
    fixture.fake.enqueue({ kind: 'stream', chunks: ['side ', 'note'], hold: gate.promise });
    const running = await readUntil(
      await send('chat-threads', [userMessage('In the margin')], { body: { thread: 'notes' } }),
      (c) => c.type === 'text-delta',
    );
    expect(await uiMessages('chat-threads')).toEqual([]);
    await fixture.app.http().get('/api/ui/chat/chat-threads/stream').set(auth(ALICE_KEY)).expect(204);
    const inThread = await fixture.app
      .http()
      .get('/api/ui/chat/chat-threads/messages?thread=notes')
      .set(auth(ALICE_KEY))
      .expect(200);
    expect(inThread.body.map((m: UIMessage) => [m.role, (m.metadata as { thread: string }).thread])).toEqual([
      ['user', 'notes'],
      ['assistant', 'notes'],
    ]);
    const transport = uiTransport(base, ALICE_KEY, {
      prepareReconnectToStreamRequest: ({ id }) => ({ api: `${base}/api/ui/chat/${id}/stream?thread=notes` }),
    });
    const resumed = await transport.reconnectToStream({ chatId: 'chat-threads' });
    expect(resumed).not.toBeNull();
    gate.resolve();
    expect(textOf((await readChunks(resumed!)).message)).toBe('side note');
    for (let next = await running.reader.read(); !next.done; next = await running.reader.read());
  });

  it('answers 204 to a resume when no reply is being generated (idle, or an unknown chat id) and [] for its messages', async () => {
    await readChunks(await send('chat-idle', [userMessage('Done quickly')]));
    await fixture.app.http().get('/api/ui/chat/chat-idle/stream').set(auth(ALICE_KEY)).expect(204);
    await fixture.app.http().get('/api/ui/chat/never-used/stream').set(auth(ALICE_KEY)).expect(204);
    expect(await uiMessages('never-used')).toEqual([]);
    expect(
      (await fixture.app.http().post('/api/ui/chat/never-used/stop').set(auth(ALICE_KEY)).expect(200)).body,
    ).toEqual({ stopped: false, messageId: null, status: null });
  });

  it('reports a model failure as an error chunk, and keeps the reply stored as failed', async () => {
    fixture.fake.enqueue({ kind: 'stream', chunks: ['Half an ans'], end: 'break' });
    const { chunks, message, error } = await readChunks(await send('chat-fail', [userMessage('Break, please')]));
    expect(offSchema(chunks)).toEqual([]);
    const last = chunks.at(-1) as Extract<UIMessageChunk, { type: 'error' }>;
    expect(last.type).toBe('error');
    expect(last.errorText).toEqual(expect.any(String));
    expect(error?.message).toBe(last.errorText);
    expect(textOf(message)).toBe('Half an ans');
    const seeded = await uiMessages('chat-fail');
    expect(seeded[1]).toMatchObject({
      id: message!.id,
      metadata: { status: 'failed', error: { code: 'model_unavailable' } },
    });
    // The failed answer can be answered again.
    const again = await readChunks(await send('chat-fail', seeded.slice(0, 1), { trigger: 'regenerate-message' }));
    expect(textOf(again.message)).toBe('reply to: Break, please');
  });

  it('refuses bad requests with JSON errors carrying a code, before any stream', async () => {
    const post = (body: object, key = ALICE_KEY) => fixture.app.http().post('/api/ui/chat').set(auth(key)).send(body);
    const bad = [
      { id: 'has space', message: userMessage('x') },
      { id: 'x'.repeat(129), message: userMessage('x') },
      { id: 'chat-bad' },
      { id: 'chat-bad', messages: [] },
      { id: 'chat-bad', messages: [{ id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'I speak first' }] }] },
      {
        id: 'chat-bad',
        message: { id: 'f', role: 'user', parts: [{ type: 'file', mediaType: 'image/png', url: 'data:,' }] },
      },
      { id: 'chat-bad', message: userMessage('   ') },
      { id: 'chat-bad', message: userMessage('x'), trigger: 'resume-stream' },
      { id: 'chat-bad', message: userMessage('x'), surprise: true },
    ];
    for (const body of bad) {
      const res = await post(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'invalid_input' });
    }
    expect((await post({ id: 'chat-never', trigger: 'regenerate-message', messages: [] })).body).toMatchObject({
      statusCode: 404,
      code: 'conversation_not_found',
    });
    await fixture.app
      .http()
      .post('/api/ui/chat')
      .send({ id: 'chat-bad', message: userMessage('x') })
      .expect(401);
    await fixture.app.http().get('/api/ui/chat/bad.id/messages').set(auth(ALICE_KEY)).expect(400);

    // A second message while a reply is being generated: 409, with the reply to resume or stop.
    const gate = deferred();
    fixture.fake.enqueue({ kind: 'stream', chunks: ['wait ', 'for it'], hold: gate.promise });
    const first = await readUntil(await send('chat-busy', [userMessage('Slow one')]), (c) => c.type === 'text-delta');
    const busy = await post({ id: 'chat-busy', message: userMessage('Me too') });
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({
      code: 'conversation_busy',
      messageId: (first.chunks[0] as { messageId: string }).messageId,
    });
    gate.resolve();
    for (let next = await first.reader.read(); !next.done; next = await first.reader.read());
  });

  it('gives a new chat id one conversation when its first messages race: one is answered, the others are told 409', async () => {
    const gate = deferred();
    fixture.fake.respondWith(() => ({ kind: 'stream', chunks: ['first ', 'come'], hold: gate.promise }));
    const body = (n: number) => JSON.stringify({ id: 'chat-race', message: userMessage(`hello ${n}`) });
    const answers = await Promise.all(
      [0, 1, 2, 3].map((n) =>
        fetch(`${base}/api/ui/chat`, {
          method: 'POST',
          headers: { ...auth(ALICE_KEY), 'content-type': 'application/json' },
          body: body(n),
        }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    gate.resolve();
    const texts = await Promise.all(answers.map((r) => r.text()));
    for (const [i, r] of answers.entries())
      if (r.status === 409) expect(JSON.parse(texts[i])).toMatchObject({ code: 'conversation_busy' });
    const seeded = await uiMessages('chat-race');
    expect(seeded.map((m) => m.role)).toEqual(['user', 'assistant']);
    const list = await fixture.app.http().get('/api/conversations?limit=100').set(auth(ALICE_KEY)).expect(200);
    expect(
      list.body.items.filter(
        (c: { id: string }) => c.id === (seeded[0].metadata as { conversationId: string }).conversationId,
      ),
    ).toHaveLength(1);
    expect(list.body.items.filter((c: { title: string }) => c.title.startsWith('hello '))).toHaveLength(1);
  });

  it('frees a chat id when its conversation is deleted: the next message starts a new conversation', async () => {
    const first = await readChunks(await send('chat-deleted', [userMessage('Forget me')]));
    const conversationId = (first.message!.metadata as { conversationId: string }).conversationId;
    await fixture.app.http().delete(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(204);
    expect(await uiMessages('chat-deleted')).toEqual([]);
    fixture.fake.reset();
    const again = await readChunks(await send('chat-deleted', [userMessage('Fresh start')]));
    expect((again.message!.metadata as { conversationId: string }).conversationId).not.toBe(conversationId);
    expect(fixture.fake.lastCompletion.body.messages).toEqual([{ role: 'user', content: 'Fresh start' }]);
  });

  it('keeps chats apart between API keys: the same chat id (or a conversation id) is another conversation for another key', async () => {
    const alice = await readChunks(await send('chat-shared-name', [userMessage('Alice secret')]));
    const aliceConversation = (alice.message!.metadata as { conversationId: string }).conversationId;
    const gate = deferred();
    fixture.fake.enqueue({ kind: 'stream', chunks: ['still ', 'going'], hold: gate.promise });
    const running = await readUntil(
      await send('chat-shared-name', [userMessage('Alice again')]),
      (c) => c.type === 'text-delta',
    );

    // Bob sees nothing of alice's chat: no messages, nothing to resume, nothing to stop.
    expect(await uiMessages('chat-shared-name', BOB_KEY)).toEqual([]);
    await fixture.app.http().get('/api/ui/chat/chat-shared-name/stream').set(auth(BOB_KEY)).expect(204);
    expect(
      (await fixture.app.http().post('/api/ui/chat/chat-shared-name/stop').set(auth(BOB_KEY)).expect(200)).body.stopped,
    ).toBe(false);
    expect(await uiMessages(aliceConversation, BOB_KEY)).toEqual([]);
    await fixture.app.http().get(`/api/ui/chat/${aliceConversation}/stream`).set(auth(BOB_KEY)).expect(204);

    // Under the same name bob gets a conversation of his own; so with alice's conversation id as a name.
    fixture.fake.reset();
    const bob = await readChunks(await send('chat-shared-name', [userMessage('Bob here')], { key: BOB_KEY }));
    expect(fixture.fake.lastCompletion.body.messages).toEqual([{ role: 'user', content: 'Bob here' }]);
    const bobConversation = (bob.message!.metadata as { conversationId: string }).conversationId;
    expect(bobConversation).not.toBe(aliceConversation);
    const byId = await readChunks(await send(aliceConversation, [userMessage('Bob by id')], { key: BOB_KEY }));
    expect(fixture.fake.lastCompletion.body.messages).toEqual([{ role: 'user', content: 'Bob by id' }]);
    expect((byId.message!.metadata as { conversationId: string }).conversationId).not.toBe(aliceConversation);
    await fixture.app.http().get(`/api/conversations/${aliceConversation}`).set(auth(BOB_KEY)).expect(404);

    gate.resolve();
    for (let next = await running.reader.read(); !next.done; next = await running.reader.read());
    expect((await uiMessages('chat-shared-name')).map(textOf)).toEqual([
      'Alice secret',
      'reply to: Alice secret',
      'Alice again',
      'still going',
    ]);
    // Alice can reach her conversation by its id as well as by her name for it.
    expect((await uiMessages(aliceConversation)).map(textOf)).toEqual([
      'Alice secret',
      'reply to: Alice secret',
      'Alice again',
      'still going',
    ]);
  });
});
