import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { openEventStream } from '../../support/sse-client.js';
import { ALICE_KEY, auth, BOB_KEY, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';
import { deferred } from '../../support/until.js';

type Json = Record<string, any>;

const today = () => new Date().toISOString().slice(0, 10);

describe('export, import and fork of conversations; the caller’s own data', () => {
  const fixture = useAppWithFakeModel({ IMPORT_BODY_LIMIT_BYTES: String(2 * 1024 * 1024) });
  let fake: FakeOpenAiServer;
  let t: TestApp;
  beforeAll(() => ({ fake, app: t } = fixture));

  const http = () => t.http();
  const chat = async (body: object, key = ALICE_KEY) =>
    (await http().post('/api/chat').set(auth(key)).send(body).expect(200)).body;
  const detail = async (id: string, key = ALICE_KEY) =>
    (await http().get(`/api/conversations/${id}`).set(auth(key)).expect(200)).body;
  const exportJson = async (id: string, key = ALICE_KEY, query = '') =>
    (await http().get(`/api/conversations/${id}/export${query}`).set(auth(key)).expect(200)).body;
  const importDoc = (doc: unknown, key = ALICE_KEY, query = '') =>
    http()
      .post(`/api/conversations/import${query}`)
      .set(auth(key))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(doc));
  const allIds = async (key = ALICE_KEY) => {
    const ids: string[] = [];
    for (const archived of ['false', 'true']) {
      const page = (await http().get(`/api/conversations?limit=100&archived=${archived}`).set(auth(key)).expect(200))
        .body;
      ids.push(...page.items.map((c: Json) => c.id));
    }
    return ids.sort();
  };
  /** The exported conversation without what an import renews: its id, its update time, its agent. */
  const content = (doc: Json) => {
    const { id: _id, updatedAt: _updatedAt, agent: _agent, ...rest } = doc.conversation;
    return rest;
  };

  /** A conversation with a bit of everything: agent, state, two threads, a regenerated reply, a failure, pin and tags. */
  async function richConversation(): Promise<{ id: string; agentId: string }> {
    const agent = (
      await http()
        .post('/api/agents')
        .set(auth(ALICE_KEY))
        .send({ name: 'Planner', systemPrompt: 'You plan trips.' })
        .expect(201)
    ).body;
    const c = (
      await http()
        .post('/api/conversations')
        .set(auth(ALICE_KEY))
        .send({ title: 'Lisbon trip', agentId: agent.id, state: { city: 'Lisbon', days: 3 } })
        .expect(201)
    ).body;
    await chat({ conversationId: c.id, message: 'Plan day one.' });
    await chat({
      conversationId: c.id,
      message: 'Find a restaurant.',
      thread: 'food',
      system: 'Only talk about food.',
    });
    await http().post(`/api/conversations/${c.id}/regenerate`).set(auth(ALICE_KEY)).send({}).expect(200);
    fake.enqueue({ kind: 'status', status: 500, message: 'upstream exploded' });
    await http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ conversationId: c.id, message: 'And day two?' })
      .expect(502);
    await http()
      .patch(`/api/conversations/${c.id}`)
      .set(auth(ALICE_KEY))
      .send({ pinned: true, tags: ['Travel', 'portugal'] })
      .expect(200);
    return { id: c.id, agentId: agent.id };
  }

  describe('GET /api/conversations/:id/export and POST /api/conversations/import', () => {
    it('downloads a versioned JSON export (version 1 on request) that imports back with the same content and new ids', async () => {
      const { id } = await richConversation();
      const res = await http().get(`/api/conversations/${id}/export?version=1`).set(auth(ALICE_KEY)).expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="lisbon-trip-${today()}.json"`);
      expect(res.headers['cache-control']).toBe('no-store');
      const doc = res.body;
      expect(doc).toMatchObject({ format: 'chat-memory.conversation', version: 1, exportedAt: expect.any(String) });
      expect(doc.conversation).toMatchObject({
        id,
        title: 'Lisbon trip',
        state: { city: 'Lisbon', days: 3 },
        archived: false,
        pinned: true,
        tags: ['portugal', 'travel'],
        agent: { name: 'Planner', systemPrompt: 'You plan trips.' },
        threads: [
          { name: 'main', systemPrompt: null },
          { name: 'food', systemPrompt: 'Only talk about food.' },
        ],
        summaries: [],
      });
      const messages = doc.conversation.messages;
      expect(messages.map((m: Json) => [m.seq, m.thread, m.role, m.status])).toEqual([
        // The active paths, numbered in the order stored: the regenerated answer came after the food thread.
        [1, 'main', 'user', 'complete'],
        [2, 'food', 'user', 'complete'],
        [3, 'food', 'assistant', 'complete'],
        [4, 'main', 'assistant', 'complete'],
        [5, 'main', 'user', 'complete'],
        [6, 'main', 'assistant', 'failed'],
      ]);
      expect(messages[3].versions).toEqual([
        expect.objectContaining({ content: 'reply to: Plan day one.', status: 'complete' }),
      ]);
      expect(messages[5].error).toEqual({ statusCode: 502, message: expect.stringContaining('upstream exploded') });
      expect(messages[0]).not.toHaveProperty('id');

      const imported = await importDoc(doc).expect(201);
      expect(imported.body).toEqual({
        id: expect.any(String),
        title: 'Lisbon trip',
        agentId: null,
        archived: false,
        pinned: true,
        memory: true,
        model: null,
        tags: ['portugal', 'travel'],
        createdAt: doc.conversation.createdAt,
        updatedAt: expect.any(String),
      });
      expect(imported.body.id).not.toBe(id);

      const again = await exportJson(imported.body.id, ALICE_KEY, '?version=1');
      expect(content(again)).toEqual(content(doc));
      expect(again.conversation.agent).toBeNull();
      // New message ids, the same dialogue.
      const [original, copy] = [await detail(id), await detail(imported.body.id)];
      expect(copy.messages.map((m: Json) => m.content)).toEqual(original.messages.map((m: Json) => m.content));
      expect(
        copy.messages.map((m: Json) => m.id).filter((mid: string) => original.messages.some((o: Json) => o.id === mid)),
      ).toEqual([]);
      // The imported conversation goes on like any other.
      await chat({ conversationId: imported.body.id, message: 'Plan day two.' });
      expect(fake.lastCompletion.body.messages!.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
        'Plan day one.',
        'reply to: Plan day one.',
        'And day two?',
        'Plan day two.',
      ]);
    });

    it('binds an imported conversation to an agent of the caller, never to another actor’s', async () => {
      const { id, agentId } = await richConversation();
      const doc = await exportJson(id);
      const bobAgent = (await http().post('/api/agents').set(auth(BOB_KEY)).send({ name: 'Bob’s' }).expect(201)).body;
      const before = await allIds();

      const foreign = await importDoc(doc, ALICE_KEY, `?agentId=${bobAgent.id}`).expect(404);
      expect(foreign.body).toEqual({
        statusCode: 404,
        error: 'Not Found',
        code: 'agent_not_found',
        message: `Agent ${bobAgent.id} not found`,
      });
      await importDoc(doc, ALICE_KEY, '?agentId=not-a-uuid').expect(400);
      expect(await allIds()).toEqual(before);

      const bound = await importDoc(doc, ALICE_KEY, `?agentId=${agentId}`).expect(201);
      expect(bound.body.agentId).toBe(agentId);
      // Bob imports Alice's file: the agent named in it stays Alice's, his copy has none.
      const bobs = await importDoc(doc, BOB_KEY).expect(201);
      expect(bobs.body.agentId).toBeNull();
      expect((await detail(bobs.body.id, BOB_KEY)).messages).toHaveLength(6);
      await http().get(`/api/conversations/${bobs.body.id}`).set(auth(ALICE_KEY)).expect(404);
    });

    it('imports a reply that was still being generated as failed, and keeps a summary of what it covers', async () => {
      const doc = {
        format: 'chat-memory.conversation',
        version: 1,
        conversation: {
          title: 'Hand made',
          createdAt: '2026-01-02T03:04:05.000Z',
          archived: true,
          summaries: [{ thread: 'main', content: 'They said hello.', coversSeq: 20, tokens: 5, model: 'fake-model' }],
          messages: [
            {
              seq: 10,
              thread: 'main',
              role: 'user',
              content: 'hello',
              status: 'complete',
              createdAt: '2026-01-02T03:04:05.000Z',
            },
            {
              seq: 20,
              thread: 'main',
              role: 'assistant',
              content: 'hi',
              status: 'complete',
              createdAt: '2026-01-02T03:04:06.000Z',
            },
            {
              seq: 30,
              thread: 'main',
              role: 'user',
              content: 'more',
              status: 'complete',
              createdAt: '2026-01-02T03:04:07.000Z',
            },
            {
              seq: 40,
              thread: 'main',
              role: 'assistant',
              content: 'parti',
              status: 'streaming',
              createdAt: '2026-01-02T03:04:08+00:00',
            },
          ],
        },
      };
      const res = await importDoc(doc).expect(201);
      expect(res.body).toMatchObject({ title: 'Hand made', archived: true, tags: [] });
      const stored = await detail(res.body.id);
      expect(stored.threads).toEqual([expect.objectContaining({ name: 'main', systemPrompt: null })]);
      // seq renumbered without gaps; the summary follows its messages.
      expect(stored.messages.map((m: Json) => [m.seq, m.content, m.status])).toEqual([
        [1, 'hello', 'complete'],
        [2, 'hi', 'complete'],
        [3, 'more', 'complete'],
        [4, 'parti', 'failed'],
      ]);
      expect(stored.messages[3].error).toEqual({
        statusCode: 502,
        message: 'The reply was still being generated when the conversation was exported',
      });
      expect(stored.summary).toMatchObject({ content: 'They said hello.', coversSeq: 2 });
      // The thread is not locked by the imported reply: a regenerate answers it.
      const regenerated = await http()
        .post(`/api/conversations/${res.body.id}/regenerate`)
        .set(auth(ALICE_KEY))
        .send({})
        .expect(200);
      expect(regenerated.body).toMatchObject({ reply: 'reply to: more', userMessageId: stored.messages[2].id });
    });

    it.each<[string, (doc: Json) => unknown, string, RegExp]>([
      ['a foreign file', () => ({ hello: 'world' }), '$.format', /^must be "chat-memory\.conversation"/],
      ['a JSON array', () => [1, 2], '$', /^must be a JSON object$/],
      ['a newer version', (d) => ({ ...d, version: 3 }), '$.version', /^3 is newer than this server reads \(2\)$/],
      ['a version that is not 1 or 2', (d) => ({ ...d, version: '1' }), '$.version', /^must be 1 or 2$/],
      [
        'an account export',
        (d) => ({ ...d, format: 'chat-memory.account' }),
        '$.format',
        /import its conversations one at a time/,
      ],
      [
        'a user message over MAX_MESSAGE_CHARS',
        (d) => withMessage(d, 0, { content: 'x'.repeat(32_001) }),
        '$.conversation.messages[0].content',
        /^is 32001 characters long; the limit is 32000 \(MAX_MESSAGE_CHARS\)$/,
      ],
      [
        'an unknown role',
        (d) => withMessage(d, 1, { role: 'robot' }),
        '$.conversation.messages[1].role',
        /^must be one of: user, assistant$/,
      ],
      [
        'a tool message',
        (d) => withMessage(d, 1, { role: 'tool' }),
        '$.conversation.messages[1].role',
        /^must be one of: user, assistant$/,
      ],
      [
        'an unknown status',
        (d) => withMessage(d, 1, { status: 'done' }),
        '$.conversation.messages[1].status',
        /^must be one of: streaming, complete/,
      ],
      [
        'messages out of seq order',
        (d) => withMessage(d, 1, { seq: 1 }),
        '$.conversation.messages[1].seq',
        /^must be greater than the seq before it \(1\)/,
      ],
      [
        'a non-integer token count',
        (d) => withMessage(d, 1, { promptTokens: 1.5 }),
        '$.conversation.messages[1].promptTokens',
        /^must be an integer/,
      ],
      [
        'a malformed date',
        (d) => withMessage(d, 0, { createdAt: 'yesterday' }),
        '$.conversation.messages[0].createdAt',
        /^must be an ISO 8601 date-time/,
      ],
      [
        'a malformed thread name',
        (d) => withMessage(d, 0, { thread: 'Main Thread' }),
        '$.conversation.messages[0].thread',
        /^must be a thread name/,
      ],
      [
        'a state over 64 KB',
        (d) => withConversation(d, { state: { big: 'x'.repeat(64 * 1024) } }),
        '$.conversation.state',
        /^is \d+ bytes serialized; the limit is 65536$/,
      ],
      [
        'a state that is not an object',
        (d) => withConversation(d, { state: [1] }),
        '$.conversation.state',
        /^must be a JSON object$/,
      ],
      ['no title', (d) => withConversation(d, { title: undefined }), '$.conversation.title', /^is missing/],
      [
        'a tag too long',
        (d) => withConversation(d, { tags: ['x'.repeat(51)] }),
        '$.conversation.tags[0]',
        /^is 51 characters long; the limit is 50$/,
      ],
    ])(
      'answers 400 with the problem and its JSON path for %s, storing nothing',
      async (_label, change, path, message) => {
        const doc = await exportJson((await chat({ message: 'Hello there' })).conversationId);
        const before = await allIds();
        const res = await importDoc(change(doc)).expect(400);
        expect(res.body).toMatchObject({
          statusCode: 400,
          error: 'Bad Request',
          message: expect.stringContaining(`Not an importable conversation export: ${path} `),
        });
        expect(res.body.problems).toEqual(expect.arrayContaining([{ path, message: expect.stringMatching(message) }]));
        expect(await allIds()).toEqual(before);
      },
    );

    it('lists the first 20 of many problems and counts the rest', async () => {
      const doc = await exportJson((await chat({ message: 'Hello there' })).conversationId);
      const bad = Array.from({ length: 30 }, (_, i) => ({
        seq: i + 1,
        thread: 'main',
        role: 'robot',
        content: 'x',
        status: 'complete',
        createdAt: doc.exportedAt,
      }));
      const res = await importDoc(withConversation(doc, { messages: bad })).expect(400);
      expect(res.body.problems).toHaveLength(20);
      expect(res.body.problems[0]).toEqual({
        path: '$.conversation.messages[0].role',
        message: 'must be one of: user, assistant',
      });
      expect(res.body.message).toMatch(/\(and 27 more problems\)$/);
    });

    it('answers 415 for a body that is not sent as JSON, 400 for malformed JSON, and 413 over IMPORT_BODY_LIMIT_BYTES', async () => {
      const text = await http()
        .post('/api/conversations/import')
        .set(auth(ALICE_KEY))
        .set('Content-Type', 'text/plain')
        .send('hello')
        .expect(415);
      expect(text.body.message).toMatch(
        /must be JSON sent with Content-Type: application\/json; this request's is "text\/plain"/,
      );
      const malformed = await http()
        .post('/api/conversations/import')
        .set(auth(ALICE_KEY))
        .set('Content-Type', 'application/json')
        .send('{"format": ')
        .expect(400);
      expect(malformed.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      const doc = await exportJson((await chat({ message: 'Hello there' })).conversationId);
      const huge = withConversation(doc, { state: { pad: 'x'.repeat(t.config.importBodyLimitBytes) } });
      const res = await importDoc(huge).expect(413);
      expect(res.body).toMatchObject({ statusCode: 413, message: 'request entity too large' });
    });

    it('downloads a Markdown transcript with a heading per thread', async () => {
      const { id } = await richConversation();
      const res = await http().get(`/api/conversations/${id}/export?format=markdown`).set(auth(ALICE_KEY)).expect(200);
      expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="lisbon-trip-${today()}.md"`);
      const md: string = res.text;
      expect(md.startsWith('# Lisbon trip\n')).toBe(true);
      expect(md).toContain('- Agent: Planner');
      expect(md).toContain('- Tags: portugal, travel');
      expect(md).toContain('## State');
      expect(md.indexOf('## Thread: main')).toBeGreaterThan(0);
      expect(md.indexOf('## Thread: food')).toBeGreaterThan(md.indexOf('## Thread: main'));
      expect(md).toMatch(/### #1 · User · \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\n\nPlan day one\.\n/);
      expect(md).toMatch(/### #4 · Assistant \(fake-model\) · [^\n]+\n\nreply to: Plan day one\.\n/);
      expect(md).toContain('> **System prompt:**\n> Only talk about food.');
      expect(md).toMatch(/### #6 · Assistant[^\n]+\n\n_Status: failed: 502 [^\n]*upstream exploded/);
      expect(md).toContain('1 earlier answer replaced by regenerate');
      await http().get(`/api/conversations/${id}/export?format=pdf`).set(auth(ALICE_KEY)).expect(400);
    });

    it('makes a safe file name of any title', async () => {
      const c = (
        await http()
          .post('/api/conversations')
          .set(auth(ALICE_KEY))
          .send({ title: 'Été "à" Zürich/../../etc ✈' })
          .expect(201)
      ).body;
      const res = await http().get(`/api/conversations/${c.id}/export`).set(auth(ALICE_KEY)).expect(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="ete-a-zurich-etc-${today()}.json"`);
      const untitled = (await http().post('/api/conversations').set(auth(ALICE_KEY)).send({ title: '✈✈✈' }).expect(201))
        .body;
      const other = await http()
        .get(`/api/conversations/${untitled.id}/export?format=markdown`)
        .set(auth(ALICE_KEY))
        .expect(200);
      expect(other.headers['content-disposition']).toBe(`attachment; filename="conversation-${today()}.md"`);
    });

    it('answers 404 for another actor’s conversation and for an unknown one', async () => {
      const { conversationId } = await chat({ message: 'Alice only' });
      const foreign = await http().get(`/api/conversations/${conversationId}/export`).set(auth(BOB_KEY)).expect(404);
      expect(foreign.body).toEqual({
        statusCode: 404,
        error: 'Not Found',
        code: 'conversation_not_found',
        message: `Conversation ${conversationId} not found`,
      });
      await http().get(`/api/conversations/${conversationId}/export?format=markdown`).set(auth(BOB_KEY)).expect(404);
      await http()
        .get('/api/conversations/00000000-0000-4000-8000-000000000000/export')
        .set(auth(ALICE_KEY))
        .expect(404);
      await http().get('/api/conversations/nope/export').set(auth(ALICE_KEY)).expect(400);
      await http().get(`/api/conversations/${conversationId}/export`).expect(401);
    });
  });

  describe('POST /api/conversations/:id/fork', () => {
    it('copies the history up to a message, and the model sees only that history on the next turn', async () => {
      const agent = (await http().post('/api/agents').set(auth(ALICE_KEY)).send({ name: 'Forky' }).expect(201)).body;
      const c = (
        await http()
          .post('/api/conversations')
          .set(auth(ALICE_KEY))
          .send({ title: 'Original', agentId: agent.id, state: { n: 1 } })
          .expect(201)
      ).body;
      await http()
        .patch(`/api/conversations/${c.id}`)
        .set(auth(ALICE_KEY))
        .send({ archived: true, pinned: true, tags: ['keep'] })
        .expect(200);
      await chat({ conversationId: c.id, message: 'one' });
      const two = await chat({ conversationId: c.id, message: 'two' });
      await chat({ conversationId: c.id, message: 'side one', thread: 'side', system: 'Side prompt.' });
      await chat({ conversationId: c.id, message: 'three' });

      const res = await http()
        .post(`/api/conversations/${c.id}/fork`)
        .set(auth(ALICE_KEY))
        .send({ fromMessageId: two.messageId })
        .expect(201);
      const fork = res.body;
      expect(fork).toMatchObject({
        title: 'Original (fork)',
        agentId: agent.id,
        state: { n: 1 },
        archived: false,
        pinned: false,
        tags: ['keep'],
      });
      expect(fork.id).not.toBe(c.id);
      expect(fork.threads.map((th: Json) => th.name)).toEqual(['main']);
      expect(fork.messages.map((m: Json) => [m.seq, m.content])).toEqual([
        [1, 'one'],
        [2, 'reply to: one'],
        [3, 'two'],
        [4, 'reply to: two'],
      ]);
      expect(fork.messages.map((m: Json) => m.id)).not.toContain(two.messageId);

      fake.reset();
      await chat({ conversationId: fork.id, message: 'four' });
      expect(fake.lastCompletion.body.messages!.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
        'one',
        'reply to: one',
        'two',
        'reply to: two',
        'four',
      ]);
      expect((await detail(fork.id)).messages.map((m: Json) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      // The original is untouched.
      expect((await detail(c.id)).messages.map((m: Json) => m.content)).toEqual([
        'one',
        'reply to: one',
        'two',
        'reply to: two',
        'side one',
        'reply to: side one',
        'three',
        'reply to: three',
      ]);

      // Forking from the side thread's reply takes every thread up to it, prompts included.
      const side = (await detail(c.id)).messages[5];
      const wide = (
        await http()
          .post(`/api/conversations/${c.id}/fork`)
          .set(auth(ALICE_KEY))
          .send({ fromMessageId: side.id })
          .expect(201)
      ).body;
      expect(wide.threads).toEqual([
        expect.objectContaining({ name: 'main', systemPrompt: null }),
        expect.objectContaining({ name: 'side', systemPrompt: 'Side prompt.' }),
      ]);
      expect(wide.messages).toHaveLength(6);
    });

    it('forks from a question, keeping the title within 60 characters', async () => {
      const title = 'A'.repeat(60);
      const c = (await http().post('/api/conversations').set(auth(ALICE_KEY)).send({ title }).expect(201)).body;
      const turn = await chat({ conversationId: c.id, message: 'question' });
      const fork = (
        await http()
          .post(`/api/conversations/${c.id}/fork`)
          .set(auth(ALICE_KEY))
          .send({ fromMessageId: turn.userMessageId })
          .expect(201)
      ).body;
      expect(fork.title).toBe(`${'A'.repeat(53)} (fork)`);
      expect(Array.from(fork.title)).toHaveLength(60);
      expect(fork.messages.map((m: Json) => m.content)).toEqual(['question']);
      // The question is answered in the fork by regenerate.
      const answer = await http()
        .post(`/api/conversations/${fork.id}/regenerate`)
        .set(auth(ALICE_KEY))
        .send({})
        .expect(200);
      expect(answer.body.reply).toBe('reply to: question');
    });

    it('answers 404 for an unknown message or another actor’s conversation, 400 for a bad body', async () => {
      const a = await chat({ message: 'first conversation' });
      const b = await chat({ message: 'second conversation' });
      const unknown = '00000000-0000-4000-8000-000000000000';
      const res = await http()
        .post(`/api/conversations/${a.conversationId}/fork`)
        .set(auth(ALICE_KEY))
        .send({ fromMessageId: unknown })
        .expect(404);
      expect(res.body).toEqual({
        statusCode: 404,
        error: 'Not Found',
        code: 'message_not_found',
        message: `Message ${unknown} not found`,
      });
      // A message of another conversation is not one of this conversation.
      await http()
        .post(`/api/conversations/${a.conversationId}/fork`)
        .set(auth(ALICE_KEY))
        .send({ fromMessageId: b.messageId })
        .expect(404);
      const foreign = await http()
        .post(`/api/conversations/${a.conversationId}/fork`)
        .set(auth(BOB_KEY))
        .send({ fromMessageId: a.messageId })
        .expect(404);
      expect(foreign.body.message).toBe(`Conversation ${a.conversationId} not found`);
      await http().post(`/api/conversations/${a.conversationId}/fork`).set(auth(ALICE_KEY)).send({}).expect(400);
      await http()
        .post(`/api/conversations/${a.conversationId}/fork`)
        .set(auth(ALICE_KEY))
        .send({ fromMessageId: 'x', extra: 1 })
        .expect(400);
    });

    it('answers 409 while the message is still being generated', async () => {
      const gate = deferred();
      fake.enqueue({ kind: 'stream', chunks: ['slow ', 'reply'], hold: gate.promise });
      const base = await t.url();
      const stream = await openEventStream(`${base}/api/chat/stream`, {
        method: 'POST',
        headers: auth(ALICE_KEY),
        body: { message: 'tell me' },
      });
      const [start] = await stream.collect((e) => e.event === 'delta');
      const { conversationId, messageId, userMessageId } = start.data;

      const busy = await http()
        .post(`/api/conversations/${conversationId}/fork`)
        .set(auth(ALICE_KEY))
        .send({ fromMessageId: messageId })
        .expect(409);
      expect(busy.body).toMatchObject({ statusCode: 409, error: 'Conflict', conversationId, messageId });
      // Its question can be forked from meanwhile.
      const early = await http()
        .post(`/api/conversations/${conversationId}/fork`)
        .set(auth(ALICE_KEY))
        .send({ fromMessageId: userMessageId })
        .expect(201);
      expect(early.body.messages.map((m: Json) => [m.content, m.status])).toEqual([['tell me', 'complete']]);

      gate.resolve();
      expect((await stream.collect()).at(-1)!.event).toBe('done');
      const done = await http()
        .post(`/api/conversations/${conversationId}/fork`)
        .set(auth(ALICE_KEY))
        .send({ fromMessageId: messageId })
        .expect(201);
      expect(done.body.messages.map((m: Json) => [m.content, m.status])).toEqual([
        ['tell me', 'complete'],
        ['slow reply', 'complete'],
      ]);
    });
  });
});

describe('GET /api/me/export and DELETE /api/me/data', () => {
  const fixture = useAppWithFakeModel();
  let fake: FakeOpenAiServer;
  let t: TestApp;
  beforeAll(() => ({ fake, app: t } = fixture));

  const http = () => t.http();
  const chat = async (key: string, body: object, idempotencyKey?: string) => {
    const req = http().post('/api/chat').set(auth(key));
    if (idempotencyKey) req.set('Idempotency-Key', idempotencyKey);
    return (await req.send(body).expect(200)).body;
  };

  /** Alice: an agent, three conversations (one archived, one with tags, one through an Idempotency-Key), an imported summary. Bob: the same kind of data. */
  async function seed() {
    const aliceAgent = (
      await http()
        .post('/api/agents')
        .set(auth(ALICE_KEY))
        .send({ name: 'Alice agent', systemPrompt: 'secret A' })
        .expect(201)
    ).body;
    const a1 = await chat(ALICE_KEY, { message: 'alice one', agentId: aliceAgent.id });
    await chat(ALICE_KEY, { message: 'alice side', conversationId: a1.conversationId, thread: 'side' });
    const a2 = await chat(ALICE_KEY, { message: 'alice two' }, 'alice-key-1');
    await http()
      .patch(`/api/conversations/${a2.conversationId}`)
      .set(auth(ALICE_KEY))
      .send({ archived: true, tags: ['x', 'y'] })
      .expect(200);
    const withSummary = {
      format: 'chat-memory.conversation',
      version: 1,
      conversation: {
        title: 'alice imported',
        createdAt: '2026-01-01T00:00:00.000Z',
        summaries: [{ thread: 'main', content: 'summary', coversSeq: 1, tokens: 1, model: 'm' }],
        messages: [
          {
            seq: 1,
            thread: 'main',
            role: 'user',
            content: 'alice old',
            status: 'complete',
            createdAt: '2026-01-01T00:00:00.000Z',
          },
        ],
      },
    };
    await http().post('/api/conversations/import').set(auth(ALICE_KEY)).send(withSummary).expect(201);

    const bobAgent = (
      await http()
        .post('/api/agents')
        .set(auth(BOB_KEY))
        .send({ name: 'Bob agent', systemPrompt: 'secret B' })
        .expect(201)
    ).body;
    const b1 = await chat(BOB_KEY, { message: 'bob one', agentId: bobAgent.id }, 'bob-key-1');
    await http()
      .patch(`/api/conversations/${b1.conversationId}`)
      .set(auth(BOB_KEY))
      .send({ tags: ['bob'] })
      .expect(200);
    return { aliceAgent, a1, a2, bobAgent, b1 };
  }

  it('exports everything of the caller as one JSON download, and only that', async () => {
    const { aliceAgent, a1, a2, bobAgent } = await seed();
    const res = await http().get('/api/me/export').set(auth(ALICE_KEY)).expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="chat-memory-alice-${today()}.json"`);
    const doc = res.body;
    expect(Object.keys(doc).sort()).toEqual([
      'actor',
      'agents',
      'conversations',
      'exportedAt',
      'format',
      'memories',
      'shares',
      'version',
    ]);
    expect(doc).toMatchObject({ format: 'chat-memory.account', version: 2, actor: 'api:alice' });
    expect(doc.agents).toEqual([
      expect.objectContaining({ id: aliceAgent.id, name: 'Alice agent', systemPrompt: 'secret A' }),
    ]);
    const titles = doc.conversations.map((c: Json) => c.conversation.title).sort();
    expect(titles).toEqual(['alice imported', 'alice one', 'alice two']);
    const byId = new Map(doc.conversations.map((c: Json) => [c.conversation.id, c]));
    expect(byId.get(a1.conversationId)).toMatchObject({
      format: 'chat-memory.conversation',
      version: 2,
      conversation: { agent: { id: aliceAgent.id } },
    });
    expect(byId.get(a2.conversationId)).toMatchObject({ conversation: { archived: true, tags: ['x', 'y'] } });
    const text = JSON.stringify(doc);
    for (const foreign of ['bob one', 'Bob agent', 'secret B', bobAgent.id, 'alice-key-1'])
      expect(text).not.toContain(foreign);

    // Each conversation of the account export imports as it is.
    const item = byId.get(a1.conversationId) as Json;
    const copy = (await http().post('/api/conversations/import').set(auth(BOB_KEY)).send(item).expect(201)).body;
    expect(copy).toMatchObject({ title: 'alice one', agentId: null });
    await http().delete(`/api/conversations/${copy.id}`).set(auth(BOB_KEY)).expect(204);
    // The account file itself is not a conversation export.
    const wrong = await http().post('/api/conversations/import').set(auth(ALICE_KEY)).send(doc).expect(400);
    expect(wrong.body.problems).toEqual([{ path: '$.format', message: expect.stringContaining('one at a time') }]);
  });

  it('erases everything of the caller, answers the counts, and leaves the other actor intact', async () => {
    const res = await http().delete('/api/me/data').set(auth(ALICE_KEY)).expect(200);
    // a1: 4 messages in main and side; a2: 2 messages, 2 tags; the import: 1 message, 1 summary.
    expect(res.body).toEqual({
      conversations: 3,
      messages: 7,
      threads: 4,
      summaries: 1,
      tags: 2,
      agents: 1,
      idempotencyKeys: 1,
      memories: 0,
    });

    expect((await http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200)).body.items).toEqual([]);
    expect((await http().get('/api/conversations?archived=true').set(auth(ALICE_KEY)).expect(200)).body.items).toEqual(
      [],
    );
    expect((await http().get('/api/agents').set(auth(ALICE_KEY)).expect(200)).body.items).toEqual([]);
    const empty = (await http().get('/api/me/export').set(auth(ALICE_KEY)).expect(200)).body;
    expect(empty).toMatchObject({ agents: [], conversations: [] });
    // Alice's Idempotency-Key is forgotten: the same key runs afresh.
    fake.reset();
    await chat(ALICE_KEY, { message: 'alice two' }, 'alice-key-1');
    expect(fake.completions).toHaveLength(1);

    // Bob keeps everything: conversation, messages, tags, agent, and his stored answer.
    const bob = (await http().get('/api/me/export').set(auth(BOB_KEY)).expect(200)).body;
    expect(bob.agents).toEqual([expect.objectContaining({ name: 'Bob agent' })]);
    expect(bob.conversations).toHaveLength(1);
    expect(bob.conversations[0].conversation).toMatchObject({
      title: 'bob one',
      tags: ['bob'],
      agent: { name: 'Bob agent' },
    });
    expect(bob.conversations[0].conversation.messages.map((m: Json) => m.content)).toEqual([
      'bob one',
      'reply to: bob one',
    ]);
    fake.reset();
    const replay = await chat(BOB_KEY, { message: 'bob one', agentId: bob.agents[0].id }, 'bob-key-1');
    expect(replay.reply).toBe('reply to: bob one');
    expect(fake.completions).toHaveLength(0);

    // Erasing again finds the one conversation made since.
    expect((await http().delete('/api/me/data').set(auth(ALICE_KEY)).expect(200)).body).toEqual({
      conversations: 1,
      messages: 2,
      threads: 1,
      summaries: 0,
      tags: 0,
      agents: 0,
      idempotencyKeys: 1,
      memories: 0,
    });
    expect((await http().delete('/api/me/data').set(auth(ALICE_KEY)).expect(200)).body).toEqual({
      conversations: 0,
      messages: 0,
      threads: 0,
      summaries: 0,
      tags: 0,
      agents: 0,
      idempotencyKeys: 0,
      memories: 0,
    });
    await http().delete('/api/me/data').expect(401);
    await http().get('/api/me/export').expect(401);
  });
});

describe('quotas on import and fork', () => {
  let t: TestApp;
  let tmp: ReturnType<typeof tempDir>;

  beforeAll(async () => {
    tmp = tempDir();
    t = await startTestApp({
      dbPath: `${tmp.dir}/quota.sqlite`,
      env: { MAX_CONVERSATIONS_PER_ACTOR: '2', MAX_MESSAGES_PER_CONVERSATION: '4' },
    });
  });
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it('counts an import and a fork as new conversations, and refuses a file over the message limit (409)', async () => {
    const first = (await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'hello' }).expect(200)).body;
    const doc = (
      await t.http().get(`/api/conversations/${first.conversationId}/export`).set(auth(ALICE_KEY)).expect(200)
    ).body;
    const long = withConversation(doc, {
      messages: Array.from({ length: 5 }, (_, i) => ({
        id: `m${i}`,
        parentId: i === 0 ? null : `m${i - 1}`,
        seq: i + 1,
        thread: 'main',
        role: i % 2 ? 'assistant' : 'user',
        content: `m${i}`,
        status: 'complete',
        createdAt: doc.exportedAt,
      })),
      threads: [],
    });
    const tooLong = await t.http().post('/api/conversations/import').set(auth(ALICE_KEY)).send(long).expect(409);
    expect(tooLong.body.message).toBe(
      'The conversation has 5 messages; the limit is 4 per conversation (MAX_MESSAGES_PER_CONVERSATION)',
    );

    await t
      .http()
      .post(`/api/conversations/${first.conversationId}/fork`)
      .set(auth(ALICE_KEY))
      .send({ fromMessageId: first.messageId })
      .expect(201);
    const full = await t.http().post('/api/conversations/import').set(auth(ALICE_KEY)).send(doc).expect(409);
    expect(full.body).toMatchObject({ statusCode: 409, message: expect.stringMatching(/MAX_CONVERSATIONS_PER_ACTOR/) });
    await t
      .http()
      .post(`/api/conversations/${first.conversationId}/fork`)
      .set(auth(ALICE_KEY))
      .send({ fromMessageId: first.messageId })
      .expect(409);
    // Bob's quota is his own.
    await t.http().post('/api/conversations/import').set(auth(BOB_KEY)).send(doc).expect(201);
    expect((await t.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200)).body.items).toHaveLength(2);
  });
});

function withConversation(doc: Json, changes: Json): Json {
  return { ...doc, conversation: { ...doc.conversation, ...changes } };
}

function withMessage(doc: Json, index: number, changes: Json): Json {
  const messages = doc.conversation.messages.map((m: Json, i: number) => (i === index ? { ...m, ...changes } : m));
  return withConversation(doc, { messages });
}
