import { ALICE_KEY, auth, BOB_KEY, startTestApp, tempDir, type TestApp } from '../support/test-app.js';

/** One actor's conversation tried as another actor, and without a key, on every route. */
describe('authentication and ownership', () => {
  let t: TestApp;
  let tmp: ReturnType<typeof tempDir>;
  let aliceConversation: string;

  beforeAll(async () => {
    tmp = tempDir();
    t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite` });
    const res = await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'alice secret plan' }).expect(200);
    aliceConversation = res.body.conversationId;
  });
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  const routes = () => [
    { method: 'post', path: '/api/chat', body: { message: 'hi' } },
    { method: 'get', path: '/api/conversations' },
    { method: 'get', path: `/api/conversations/${aliceConversation}` },
    { method: 'delete', path: `/api/conversations/${aliceConversation}` },
  ] as const;

  const call = (route: ReturnType<typeof routes>[number], headers: Record<string, string> = {}) => {
    const req = t.http()[route.method](route.path).set(headers);
    return 'body' in route ? req.send(route.body) : req;
  };

  it.each([
    ['no Authorization header', {}],
    ['a wrong key', auth('not-a-real-key-000')],
    ['a key differing in one character', auth(ALICE_KEY.slice(0, -1) + 'X')],
    ['a non-Bearer scheme', { Authorization: `Basic ${ALICE_KEY}` }],
    ['an empty bearer', { Authorization: 'Bearer ' }],
  ])('answers 401 with %s on every route', async (_label, headers) => {
    for (const route of routes()) {
      const res = await call(route, headers as Record<string, string>);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.stringContaining('API key') });
    }
  });

  it("hides alice's conversation from bob: 404 on resource routes, 403 on chat", async () => {
    const get = await t.http().get(`/api/conversations/${aliceConversation}`).set(auth(BOB_KEY)).expect(404);
    const missing = await t.http().get('/api/conversations/00000000-0000-4000-8000-000000000000').set(auth(BOB_KEY)).expect(404);
    // Same body shape as a missing id: existence is not revealed.
    expect(Object.keys(get.body).sort()).toEqual(Object.keys(missing.body).sort());
    expect(JSON.stringify(get.body)).not.toContain('alice');

    await t.http().delete(`/api/conversations/${aliceConversation}`).set(auth(BOB_KEY)).expect(404);
    const chat = await t
      .http()
      .post('/api/chat')
      .set(auth(BOB_KEY))
      .send({ message: 'let me in', conversationId: aliceConversation })
      .expect(403);
    expect(chat.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    expect(JSON.stringify(chat.body)).not.toContain('secret plan');

    const list = await t.http().get('/api/conversations').set(auth(BOB_KEY)).expect(200);
    expect(list.body.items).toEqual([]);
  });

  it("leaves alice's conversation untouched by bob's attempts", async () => {
    const res = await t.http().get(`/api/conversations/${aliceConversation}`).set(auth(ALICE_KEY)).expect(200);
    expect(res.body.messages).toHaveLength(2);
    expect(res.body.messages[0].content).toBe('alice secret plan');
  });

  it("lists only the caller's own conversations", async () => {
    const bob = await t.http().post('/api/chat').set(auth(BOB_KEY)).send({ message: 'bob here' }).expect(200);
    const aliceList = await t.http().get('/api/conversations?limit=100').set(auth(ALICE_KEY)).expect(200);
    expect(aliceList.body.items.map((i: { id: string }) => i.id)).not.toContain(bob.body.conversationId);
    const bobList = await t.http().get('/api/conversations?limit=100').set(auth(BOB_KEY)).expect(200);
    expect(bobList.body.items.map((i: { id: string }) => i.id)).toEqual([bob.body.conversationId]);
  });

  it('serves health and the API docs without a key', async () => {
    const health = await t.http().get('/health').expect(200);
    expect(health.body).toEqual({ status: 'ok', database: 'ok' });
    const spec = await t.http().get('/api/docs-json').expect(200);
    expect(Object.keys(spec.body.paths).sort()).toEqual(['/api/chat', '/api/conversations', '/api/conversations/{id}', '/health']);
    await t.http().get('/api/docs').expect(200);
  });

  it('documents every route with an operationId and its error answers', async () => {
    const spec = (await t.http().get('/api/docs-json').expect(200)).body;
    const operations = Object.values(spec.paths as Record<string, Record<string, { operationId: string; responses: object }>>)
      .flatMap((path) => Object.values(path));
    expect(operations.map((o) => o.operationId).sort()).toEqual(
      ['chat', 'deleteConversation', 'getConversation', 'health', 'listConversations'],
    );
    for (const op of operations.filter((o) => o.operationId !== 'health')) {
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '401']));
    }
    expect(Object.keys(spec.paths['/api/chat'].post.responses)).toEqual(expect.arrayContaining(['200', '403', '413', '502', '504']));
  });
});

describe('single-user mode (no API_KEYS, loopback only)', () => {
  it('serves every request as api:owner without a key', async () => {
    const tmp = tempDir();
    const t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, env: { API_KEYS: '' } });
    try {
      expect(t.config.apiKeys).toEqual([]);
      const res = await t.http().post('/api/chat').send({ message: 'no key needed' }).expect(200);
      const list = await t.http().get('/api/conversations').expect(200);
      expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([res.body.conversationId]);
      // A key is ignored rather than refused: it is the same single owner.
      await t.http().get(`/api/conversations/${res.body.conversationId}`).set(auth('anything-at-all')).expect(200);
    } finally {
      await t.close();
      tmp.remove();
    }
  });
});
