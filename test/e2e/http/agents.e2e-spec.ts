import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, asActor, BOB_KEY, type TestApp } from '../../support/test-app.js';

describe('agents', () => {
  const fixture = useAppWithFakeModel({ SYSTEM_PROMPT: 'Operator policy.' });
  let fake: FakeOpenAiServer;
  let t: TestApp;
  // The fixture is filled in by its own beforeAll, which runs first.
  beforeAll(() => ({ fake, app: t } = fixture));

  const as = (key: string) => asActor(() => t, key);
  const alice = as(ALICE_KEY);
  const bob = as(BOB_KEY);
  const newAgent = async (fields: object = {}) =>
    (await alice.post('/api/agents', { name: 'Pirate', systemPrompt: 'Talk like a pirate.', ...fields }).expect(201))
      .body;

  it('creates, reads, lists, updates and deletes an agent', async () => {
    const created = await newAgent({
      emoji: '🏴‍☠️',
      description: 'Arr',
      model: 'pirate-7b',
      temperature: 1.2,
      maxTokens: 300,
      tools: ['update_state'],
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Pirate',
      emoji: '🏴‍☠️',
      description: 'Arr',
      systemPrompt: 'Talk like a pirate.',
      model: 'pirate-7b',
      temperature: 1.2,
      maxTokens: 300,
      tools: ['update_state'],
    });
    expect((await alice.get(`/api/agents/${created.id}`).expect(200)).body).toEqual(created);
    expect((await alice.get('/api/agents').expect(200)).body.items.map((a: { id: string }) => a.id)).toContain(
      created.id,
    );

    const updated = await alice
      .patch(`/api/agents/${created.id}`, { name: 'Captain', temperature: null, tools: null })
      .expect(200);
    expect(updated.body).toMatchObject({
      name: 'Captain',
      temperature: null,
      tools: [],
      systemPrompt: 'Talk like a pirate.',
    });
    // Ids are accepted in any case.
    await alice.get(`/api/conversations?agentId=${created.id.toUpperCase()}`).expect(200);
    expect((await alice.delete(`/api/agents/${created.id}`).expect(200)).body).toEqual({ conversations: 0 });
    await alice.get(`/api/agents/${created.id}`).expect(404);
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '' }],
    ['a name over 100 characters', { name: 'x'.repeat(101) }],
    ['temperature above 2', { name: 'a', temperature: 2.5 }],
    ['a negative temperature', { name: 'a', temperature: -0.1 }],
    ['a fractional maxTokens', { name: 'a', maxTokens: 1.5 }],
    ['an unknown tool', { name: 'a', tools: ['rm_rf'] }],
    ['an unknown field', { name: 'a', owner: 'api:bob' }],
  ])('refuses an agent with %s (400)', async (_label, body) => {
    const res = await alice.post('/api/agents', body).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('stores any documented temperature, a denormal one too (a 500 on PostgreSQL, whose real underflowed)', async () => {
    const created = await alice.post('/api/agents', { name: 'Tiny', temperature: 5e-324 }).expect(201);
    expect((await alice.get(`/api/agents/${created.body.id}`).expect(200)).body.temperature).toBe(0);
    await alice.patch(`/api/agents/${created.body.id}`, { temperature: 1e-40 }).expect(200);
    expect((await alice.get(`/api/agents/${created.body.id}`).expect(200)).body.temperature).toBe(0);
  });

  it("hides one actor's agents from another (404 everywhere)", async () => {
    const agent = await newAgent();
    await bob.get(`/api/agents/${agent.id}`).expect(404);
    await bob.patch(`/api/agents/${agent.id}`, { name: 'Mine now' }).expect(404);
    await bob.delete(`/api/agents/${agent.id}`).expect(404);
    expect((await bob.get('/api/agents').expect(200)).body.items).toEqual([]);
    await bob.post('/api/chat', { message: 'hi', agentId: agent.id }).expect(404);
    await bob.post('/api/conversations', { agentId: agent.id }).expect(404);
    await bob.get(`/api/conversations?agentId=${agent.id}`).expect(404);
    expect((await alice.get(`/api/agents/${agent.id}`).expect(200)).body.name).toBe('Pirate');
  });

  it("sends the agent's system prompt first and uses its model and temperature", async () => {
    const agent = await newAgent({ model: 'pirate-7b', temperature: 0.3, maxTokens: 50 });
    const first = await alice.post('/api/chat', { message: 'Ahoy', agentId: agent.id }).expect(200);
    expect(first.body).toMatchObject({ agentId: agent.id, model: 'pirate-7b' });
    expect(fake.lastCompletion.body).toMatchObject({
      model: 'pirate-7b',
      temperature: 0.3,
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'Talk like a pirate.' },
        { role: 'system', content: 'Operator policy.' },
        { role: 'user', content: 'Ahoy' },
      ],
    });
    // Resuming uses the conversation's agent without naming it; per-request options override it.
    await alice
      .post('/api/chat', {
        message: 'Again',
        conversationId: first.body.conversationId,
        options: { temperature: 1.5, maxTokens: 9 },
      })
      .expect(200);
    expect(fake.lastCompletion.body).toMatchObject({ model: 'pirate-7b', temperature: 1.5, max_tokens: 9 });
    expect(fake.lastCompletion.body.messages![0]).toEqual({ role: 'system', content: 'Talk like a pirate.' });
  });

  it('refuses an agentId that contradicts the conversation (400), and bad options (400)', async () => {
    const agent = await newAgent();
    const other = await newAgent({ name: 'Other' });
    const chat = await alice.post('/api/chat', { message: 'Hi', agentId: agent.id }).expect(200);
    const res = await alice
      .post('/api/chat', { message: 'x', conversationId: chat.body.conversationId, agentId: other.id })
      .expect(400);
    expect(res.body.message).toMatch(/agentId does not match/);
    const plain = await alice.post('/api/chat', { message: 'plain' }).expect(200);
    await alice
      .post('/api/chat', { message: 'x', conversationId: plain.body.conversationId, agentId: agent.id })
      .expect(400);
    await alice.post('/api/chat', { message: 'x', options: { temperature: 3 } }).expect(400);
    await alice.post('/api/chat', { message: 'x', options: { maxTokens: 0 } }).expect(400);
    await alice.post('/api/chat', { message: 'x', options: { topP: 1 } }).expect(400);
  });

  it('filters conversations by agent (and none), and finds the active one', async () => {
    const agent = await newAgent({ name: 'Filter' });
    const withAgent = await alice.post('/api/chat', { message: 'with agent', agentId: agent.id }).expect(200);
    const without = await alice.post('/api/chat', { message: 'without agent' }).expect(200);
    const mine = (await alice.get(`/api/conversations?agentId=${agent.id}`).expect(200)).body.items;
    expect(mine.map((c: { id: string }) => c.id)).toEqual([withAgent.body.conversationId]);
    expect(mine[0].agentId).toBe(agent.id);
    const none = (await alice.get('/api/conversations?agentId=none&limit=100').expect(200)).body.items;
    expect(none.map((c: { id: string }) => c.id)).toContain(without.body.conversationId);
    expect(none.every((c: { agentId: string | null }) => c.agentId === null)).toBe(true);

    const active = await alice.get(`/api/conversations/active?agentId=${agent.id}`).expect(200);
    expect(active.body).toMatchObject({
      id: withAgent.body.conversationId,
      agentId: agent.id,
      state: {},
      threads: [{ name: 'main' }],
    });
    expect(active.body.messages).toHaveLength(2);
    expect((await alice.get('/api/conversations/active?agentId=none').expect(200)).body.id).toBe(
      without.body.conversationId,
    );
    const fresh = await newAgent({ name: 'Unused' });
    await alice.get(`/api/conversations/active?agentId=${fresh.id}`).expect(404);
    await alice.get('/api/conversations/active?agentId=bogus').expect(400);
    await alice.get('/api/conversations?agentId=bogus').expect(400);
  });

  it('deletes an agent with conversations only on an explicit choice: detach or delete', async () => {
    const agent = await newAgent({ name: 'Doomed' });
    const a = await alice.post('/api/chat', { message: 'one', agentId: agent.id }).expect(200);
    const refused = await alice.delete(`/api/agents/${agent.id}`).expect(409);
    expect(refused.body).toMatchObject({
      statusCode: 409,
      conversations: 1,
      message: expect.stringMatching(/conversations=detach/),
    });
    await alice.delete(`/api/agents/${agent.id}?conversations=sideways`).expect(400);
    expect((await alice.delete(`/api/agents/${agent.id}?conversations=detach`).expect(200)).body).toEqual({
      conversations: 1,
    });
    const kept = await alice.get(`/api/conversations/${a.body.conversationId}`).expect(200);
    expect(kept.body.agentId).toBeNull();
    expect(kept.body.messages).toHaveLength(2);
    // The detached conversation goes on as plain chat.
    await alice.post('/api/chat', { message: 'still here', conversationId: a.body.conversationId }).expect(200);

    const other = await newAgent({ name: 'Doomed too' });
    const b = await alice.post('/api/chat', { message: 'two', agentId: other.id }).expect(200);
    expect((await alice.delete(`/api/agents/${other.id}?conversations=delete`).expect(200)).body).toEqual({
      conversations: 1,
    });
    await alice.get(`/api/conversations/${b.body.conversationId}`).expect(404);
  });
});

describe('agents: MAX_AGENTS_PER_ACTOR and paging', () => {
  const fixture = useAppWithFakeModel({ MAX_AGENTS_PER_ACTOR: '3' });
  const alice = asActor(() => fixture.app, ALICE_KEY);
  const bob = asActor(() => fixture.app, BOB_KEY);
  type Agent = { id: string; name: string };

  it('refuses an agent past MAX_AGENTS_PER_ACTOR with 409 limit_reached, storing nothing; deleting one makes room', async () => {
    const made: Agent[] = [];
    for (const name of ['one', 'two', 'three']) made.push((await alice.post('/api/agents', { name }).expect(201)).body);
    const refused = await alice.post('/api/agents', { name: 'four' }).expect(409);
    expect(refused.body).toMatchObject({
      statusCode: 409,
      code: 'limit_reached',
      message: expect.stringContaining('MAX_AGENTS_PER_ACTOR'),
    });
    expect((await alice.get('/api/agents').expect(200)).body.items).toHaveLength(3);
    // Per actor: bob has room of his own.
    await bob.post('/api/agents', { name: 'bob' }).expect(201);
    await alice.delete(`/api/agents/${made[0].id}`).expect(200);
    await alice.post('/api/agents', { name: 'four' }).expect(201);
  });

  it('holds the limit on an import of an account export too (the import creates agents through the same service)', async () => {
    // Alice's export carries her three agents; bob has one already.
    const exported = (await alice.get('/api/me/export').expect(200)).body;
    expect(exported.agents).toHaveLength(3);
    const answer = await fixture.app
      .http()
      .post('/api/imports?agents=true')
      .set('Authorization', `Bearer ${BOB_KEY}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(exported));
    expect(answer.status).toBe(200);
    // Room for two of them: the third is reported skipped with the limit.
    expect(answer.body.agents.map((a: { outcome: string }) => a.outcome)).toEqual(['created', 'created', 'skipped']);
    expect(answer.body.agents[2].reason).toMatch(/MAX_AGENTS_PER_ACTOR/);
    expect((await bob.get('/api/agents').expect(200)).body.items.length).toBe(3);
  });
});

describe('GET /api/agents, paged', () => {
  const fixture = useAppWithFakeModel();
  const alice = asActor(() => fixture.app, ALICE_KEY);
  type Agent = { id: string; name: string };

  it('pages by name with limit and nextCursor, every agent exactly once; without limit one page holds them all', async () => {
    // Two agents with one name: the order still has no ties.
    for (const name of ['Zed', 'Amy', 'Bo', 'Amy', 'Cy']) await alice.post('/api/agents', { name }).expect(201);
    const all = (await alice.get('/api/agents').expect(200)).body as { items: Agent[]; nextCursor: string | null };
    expect(all.nextCursor).toBeNull();
    expect(all.items.map((a) => a.name)).toEqual(['Amy', 'Amy', 'Bo', 'Cy', 'Zed']);
    const seen: Agent[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const page = (await alice.get(`/api/agents${query}`).expect(200)).body as {
        items: Agent[];
        nextCursor: string | null;
      };
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen.map((a) => a.id)).toEqual(all.items.map((a) => a.id));
    expect(pages).toBe(3);
  });

  it('refuses a cursor it did not write, and a limit out of range (400)', async () => {
    for (const query of ['?cursor=not-a-cursor', '?limit=0', '?limit=201', '?limit=x']) {
      const res = await alice.get(`/api/agents${query}`).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400 });
    }
  });
});
