import { routeBody, routePath, type SpecRoute as Route } from '../../support/spec-routes.js';
import { useApp } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, BOB_KEY, type TestApp } from '../../support/test-app.js';

/** Routes that refer to one of alice's resources through their body rather than their path. */
const BODY_TARGETED = new Set(['chat', 'chatStream', 'createConversation']);

/**
 * Every route of the OpenAPI spec, tried without a key and as another actor: a new route that
 * forgets authentication or ownership fails here.
 */
describe('authentication and ownership, on every route of the spec', () => {
  const fixture = useApp();
  let t: TestApp;
  let routes: Route[];
  let conversation: string;
  let message: string;
  let agent: string;

  beforeAll(async () => {
    t = fixture.app;
    const res = await t
      .http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ message: 'alice secret plan' })
      .expect(200);
    conversation = res.body.conversationId;
    message = res.body.messageId;
    agent = (
      await t
        .http()
        .post('/api/agents')
        .set(auth(ALICE_KEY))
        .send({ name: 'Alice agent', systemPrompt: 'secret plan' })
        .expect(201)
    ).body.id;
    const spec = (await t.http().get('/api/docs-json').expect(200)).body;
    routes = Object.entries(spec.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      ([path, ops]) =>
        Object.entries(ops).map(([method, op]) => ({
          method: method as Route['method'],
          path,
          operationId: op.operationId,
        })),
    );
  });

  const UNKNOWN_IDS = {
    conversation: '00000000-0000-4000-8000-000000000001',
    message: '00000000-0000-4000-8000-000000000002',
    agent: '00000000-0000-4000-8000-000000000003',
  };
  /** A body with alice's ids and the unknown ones written alike. */
  const sameIds = (body: unknown) => {
    let text = JSON.stringify(body);
    for (const [name, id] of Object.entries({ conversation, message, agent })) {
      text = text.replaceAll(id, name).replaceAll(UNKNOWN_IDS[name as keyof typeof UNKNOWN_IDS], name);
    }
    return JSON.parse(text) as unknown;
  };
  const call = (route: Route, headers: Record<string, string>, ids = { conversation, message, agent }) => {
    const req = t.http()[route.method](routePath(route, ids)).set(headers);
    const body = routeBody(route, ids);
    return body ? req.send(body) : req;
  };
  // Public: health, a share link's read (anyone holding the token; docs/sharing.md), and whether a key is needed.
  const PUBLIC = ['health', 'ready', 'readShared', 'getSettings'];
  const privateRoutes = () => routes.filter((r) => !PUBLIC.includes(r.operationId));

  it('covers the routes the service has', () => {
    expect(privateRoutes().length).toBeGreaterThanOrEqual(19);
  });

  it.each([
    ['no Authorization header', {}],
    ['a wrong key', auth('not-a-real-key-000')],
    ['a key differing in one character', auth(ALICE_KEY.slice(0, -1) + 'X')],
    ['a non-Bearer scheme', { Authorization: `Basic ${ALICE_KEY}` }],
    ['an empty bearer', { Authorization: 'Bearer ' }],
  ])('answers 401 with %s on every route but health', async (_label, headers) => {
    for (const route of privateRoutes()) {
      const res = await call(route, headers as Record<string, string>);
      expect({ route: route.operationId, status: res.status }).toEqual({ route: route.operationId, status: 401 });
      expect(res.body).toMatchObject({
        statusCode: 401,
        error: 'Unauthorized',
        message: expect.stringContaining('API key'),
      });
    }
  });

  it("hides alice's conversations and agents from bob on every route: 404 as for a missing id, nothing changed", async () => {
    const snapshot = async () => ({
      conversation: (await t.http().get(`/api/conversations/${conversation}`).set(auth(ALICE_KEY)).expect(200)).body,
      agent: (await t.http().get(`/api/agents/${agent}`).set(auth(ALICE_KEY)).expect(200)).body,
    });
    const before = await snapshot();
    const targeted = privateRoutes().filter((r) => r.path.includes('{id}') || BODY_TARGETED.has(r.operationId));
    expect(targeted.length).toBeGreaterThanOrEqual(15);
    for (const route of targeted) {
      const res = await call(route, auth(BOB_KEY));
      if (route.path.startsWith('/api/ui/chat/')) {
        // A useChat chat id is a name per key: another key's conversation id is a chat bob has not started, answered as any unknown id.
        const unknown = await t.http()[route.method](route.path.replace('{id}', 'never-used-chat')).set(auth(BOB_KEY));
        expect({ route: route.operationId, status: res.status, body: res.body }).toEqual({
          route: route.operationId,
          status: unknown.status,
          body: unknown.body,
        });
        continue;
      }
      expect({ route: route.operationId, status: res.status }).toEqual({ route: route.operationId, status: 404 });
      expect(JSON.stringify(res.body)).not.toContain('secret plan');
      // The body tells nothing either: the same as for an id nobody has.
      const unknown = await call(route, auth(BOB_KEY), UNKNOWN_IDS);
      expect({ route: route.operationId, body: sameIds(res.body) }).toEqual({
        route: route.operationId,
        body: sameIds(unknown.body),
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers a foreign conversation exactly like a missing one on resource routes', async () => {
    const foreign = await t.http().get(`/api/conversations/${conversation}`).set(auth(BOB_KEY)).expect(404);
    const missing = await t
      .http()
      .get('/api/conversations/00000000-0000-4000-8000-000000000000')
      .set(auth(BOB_KEY))
      .expect(404);
    expect(foreign.body.message.replace(conversation, 'ID')).toBe(
      missing.body.message.replace('00000000-0000-4000-8000-000000000000', 'ID'),
    );
  });

  it("lists only the caller's own conversations", async () => {
    const bob = await t.http().post('/api/chat').set(auth(BOB_KEY)).send({ message: 'bob here' }).expect(200);
    const aliceList = await t.http().get('/api/conversations?limit=100').set(auth(ALICE_KEY)).expect(200);
    expect(aliceList.body.items.map((i: { id: string }) => i.id)).not.toContain(bob.body.conversationId);
    const bobList = await t.http().get('/api/conversations?limit=100').set(auth(BOB_KEY)).expect(200);
    expect(bobList.body.items.map((i: { id: string }) => i.id)).toEqual([bob.body.conversationId]);
  });

  it('serves health and the API docs without a key', async () => {
    expect((await t.http().get('/health').expect(200)).body).toEqual({ status: 'ok', database: 'ok', writable: true });
    await t.http().get('/api/docs').expect(200);
    await t.http().get('/api/docs-json').expect(200);
  });

  it('documents every route with a unique operationId, a tag and its error answers', async () => {
    const spec = (await t.http().get('/api/docs-json').expect(200)).body;
    const ids = routes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const route of privateRoutes()) {
      const op = spec.paths[route.path][route.method] as { tags: string[]; responses: object; parameters?: unknown[] };
      expect(op.tags.length).toBeGreaterThan(0);
      // Every private route documents its 401; routes that take input document their 400 too.
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401']));
      const takesInput =
        route.path.includes('{') || ['post', 'put', 'patch'].includes(route.method) || (op.parameters ?? []).length > 0;
      if (takesInput)
        expect({ route: route.operationId, responses: Object.keys(op.responses) }).toEqual({
          route: route.operationId,
          responses: expect.arrayContaining(['400']),
        });
    }
    expect(Object.keys(spec.paths['/api/chat'].post.responses)).toEqual(
      expect.arrayContaining(['200', '404', '409', '413', '502', '504']),
    );
  });
});

describe('single-user mode (no API_KEYS, loopback only)', () => {
  const fixture = useApp({ API_KEYS: '' });
  it('serves every request as api:owner without a key', async () => {
    const t = fixture.app;
    expect(t.config.apiKeys).toEqual([]);
    const res = await t.http().post('/api/chat').send({ message: 'no key needed' }).expect(200);
    const list = await t.http().get('/api/conversations').expect(200);
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([res.body.conversationId]);
    // A key is ignored rather than refused: it is the same single owner.
    await t.http().get(`/api/conversations/${res.body.conversationId}`).set(auth('anything-at-all')).expect(200);
  });
});
