import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, asActor, auth, BOB_KEY, type TestApp } from '../../support/test-app.js';

describe('memories: REST', () => {
  const fixture = useAppWithFakeModel();
  let t: TestApp;
  let fake: FakeOpenAiServer;
  beforeAll(() => ({ app: t, fake } = fixture));

  const as = (key: string) => asActor(() => t, key);
  const alice = as(ALICE_KEY);
  const bob = as(BOB_KEY);

  it('creates, reads, lists, edits, pins and deletes a memory', async () => {
    const created = (await alice.post('/api/memories', { text: '  My dog is called Rex.  ' }).expect(201)).body;
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      text: 'My dog is called Rex.',
      pinned: false,
      agentId: null,
      sourceConversationId: null,
      sourceMessageId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await alice.get(`/api/memories/${created.id}`).expect(200)).body).toEqual(created);
    const edited = (
      await alice.patch(`/api/memories/${created.id}`, { text: 'My dog is called Max.', pinned: true }).expect(200)
    ).body;
    expect(edited).toMatchObject({ id: created.id, text: 'My dog is called Max.', pinned: true });
    expect((await alice.get('/api/memories').expect(200)).body).toEqual({ items: [edited], nextCursor: null });
    await alice.delete(`/api/memories/${created.id}`).expect(204);
    await alice.get(`/api/memories/${created.id}`).expect(404);
    await alice.delete(`/api/memories/${created.id}`).expect(404);
  });

  it('pages newest first, and searches the words of q', async () => {
    for (const text of ['Lives in Lyon', 'Allergic to peanuts', 'Plays the cello in Lyon', 'Works as a nurse']) {
      await alice.post('/api/memories', { text }).expect(201);
    }
    const first = (await alice.get('/api/memories?limit=3').expect(200)).body;
    expect(first.items.map((m: { text: string }) => m.text)).toEqual([
      'Works as a nurse',
      'Plays the cello in Lyon',
      'Allergic to peanuts',
    ]);
    const second = (await alice.get(`/api/memories?limit=3&cursor=${first.nextCursor}`).expect(200)).body;
    expect(second.items.map((m: { text: string }) => m.text)).toEqual(['Lives in Lyon']);
    expect(second.nextCursor).toBeNull();

    const lyon = (await alice.get('/api/memories?q=lyon').expect(200)).body.items.map((m: { text: string }) => m.text);
    expect(lyon.sort()).toEqual(['Lives in Lyon', 'Plays the cello in Lyon']);
    expect(
      (await alice.get('/api/memories?q=cello%20lyon').expect(200)).body.items.map((m: { text: string }) => m.text),
    ).toEqual(['Plays the cello in Lyon']);
    expect((await bob.get('/api/memories?q=lyon').expect(200)).body.items).toEqual([]);
    expect((await alice.get('/api/memories?q=%2B%2B').expect(200)).body.items).toEqual([]);
  });

  it('scopes a memory to an agent of the caller, and lists by scope', async () => {
    const agent = (await alice.post('/api/agents', { name: 'Chef' }).expect(201)).body;
    const scoped = (await alice.post('/api/memories', { text: 'Cooks without garlic', agentId: agent.id }).expect(201))
      .body;
    expect(scoped.agentId).toBe(agent.id);
    const ids = async (query: string) =>
      (await alice.get(`/api/memories?${query}`).expect(200)).body.items.map((m: { id: string }) => m.id);
    expect(await ids(`agentId=${agent.id}`)).toEqual([scoped.id]);
    expect(await ids('agentId=none')).not.toContain(scoped.id);
    expect((await alice.patch(`/api/memories/${scoped.id}`, { agentId: null }).expect(200)).body.agentId).toBeNull();
    // Bob cannot scope a memory to Alice's agent.
    await bob.post('/api/memories', { text: 'x', agentId: agent.id }).expect(404);
  });

  it.each([
    ['no text', {}],
    ['an empty text', { text: '' }],
    ['a blank text', { text: '   ' }],
    ['a text over 1,000 characters', { text: 'x'.repeat(1001) }],
    ['a NUL character', { text: 'a\u0000b' }],
    ['pinned that is no boolean', { text: 'a', pinned: 'yes' }],
    ['an agentId that is no uuid', { text: 'a', agentId: 'chef' }],
    ['an unknown field', { text: 'a', actor: 'api:bob' }],
  ])('refuses a memory with %s (400)', async (_label, body) => {
    const res = await alice.post('/api/memories', body).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'invalid_input' });
  });

  it('refuses a bad edit, a bad cursor and a bad limit (400)', async () => {
    const memory = (await alice.post('/api/memories', { text: 'Likes tea' }).expect(201)).body;
    await alice.patch(`/api/memories/${memory.id}`, { pinned: null }).expect(400);
    await alice.patch(`/api/memories/${memory.id}`, { text: null }).expect(400);
    await alice.get('/api/memories?cursor=nope').expect(400);
    await alice.get('/api/memories?limit=0').expect(400);
    await alice.get('/api/memories/not-a-uuid').expect(400);
  });

  it("hides one actor's memories from another (404 everywhere)", async () => {
    const memory = (await alice.post('/api/memories', { text: 'Secret: birthday on May 3' }).expect(201)).body;
    await bob.get(`/api/memories/${memory.id}`).expect(404);
    await bob.patch(`/api/memories/${memory.id}`, { text: 'mine' }).expect(404);
    await bob.delete(`/api/memories/${memory.id}`).expect(404);
    expect((await bob.get('/api/memories').expect(200)).body.items).toEqual([]);
    expect((await alice.get(`/api/memories/${memory.id}`).expect(200)).body.text).toBe('Secret: birthday on May 3');
    const res = await bob.get(`/api/memories/${memory.id}`).expect(404);
    expect(res.body.code).toBe('memory_not_found');
    expect(fake.requests).toHaveLength(0);
  });

  it('requires a key', async () => {
    await t.http().get('/api/memories').expect(401);
    await t.http().post('/api/memories').send({ text: 'x' }).expect(401);
  });
});

describe('memories: MAX_MEMORIES_PER_ACTOR', () => {
  const fixture = useAppWithFakeModel({ MAX_MEMORIES_PER_ACTOR: '2' });
  let t: TestApp;
  beforeAll(() => ({ app: t } = fixture));
  const post = (path: string, body: object, key = ALICE_KEY) => t.http().post(path).set(auth(key)).send(body);

  it('refuses a memory past the limit with 409 limit_reached, per actor, and an import that would pass it whole', async () => {
    await post('/api/memories', { text: 'one' }).expect(201);
    await post('/api/memories', { text: 'two' }).expect(201);
    const refused = await post('/api/memories', { text: 'three' }).expect(409);
    expect(refused.body).toMatchObject({
      code: 'limit_reached',
      message: expect.stringContaining('MAX_MEMORIES_PER_ACTOR'),
    });
    // Another actor has room of their own.
    await post('/api/memories', { text: "Bob's" }, BOB_KEY).expect(201);
    // An import that would pass the limit stores none of it.
    await post('/api/memories/import', { memories: [{ text: 'four' }] }).expect(409);
    const page = (await t.http().get('/api/memories').set(auth(ALICE_KEY)).expect(200)).body;
    expect(page.items.map((m: { text: string }) => m.text).sort()).toEqual(['one', 'two']);
    // After a delete there is room again.
    await t.http().delete(`/api/memories/${page.items[0].id}`).set(auth(ALICE_KEY)).expect(204);
    await post('/api/memories', { text: 'three' }).expect(201);
  });
});
