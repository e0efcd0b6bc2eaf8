import OpenAI from 'openai';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { apiError, listConversations, openAiClient } from '../../support/openai-client.js';
import { ALICE_KEY, auth, BOB_KEY, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

/** OpenAI's Conversations API with the official SDK as the client, on both databases. */
describe('openai: conversations and items', () => {
  const fixture = useAppWithFakeModel();
  let t: TestApp;
  let alice: OpenAI;
  let bob: OpenAI;
  beforeAll(async () => {
    ({ app: t } = fixture);
    const url = await t.url();
    alice = openAiClient(url, ALICE_KEY);
    bob = openAiClient(url, BOB_KEY);
  });

  it('creates, reads, updates and deletes a conversation', async () => {
    const created = await alice.conversations.create({
      metadata: { topic: 'demo' },
      items: [{ type: 'message', role: 'user', content: 'Hello there' }],
    });
    expect(created).toMatchObject({ object: 'conversation', metadata: { topic: 'demo' } });
    expect(created.id).toMatch(/^conv_[0-9a-f-]{36}$/);
    expect(Math.abs(created.created_at - Date.now() / 1000)).toBeLessThan(3600);
    expect(await alice.conversations.retrieve(created.id)).toEqual(created);
    const updated = await alice.conversations.update(created.id, { metadata: { topic: 'changed', more: 'x' } });
    expect(updated.metadata).toEqual({ topic: 'changed', more: 'x' });
    // The same conversation on the REST API, titled by its first message.
    const rest = (
      await t
        .http()
        .get(`/api/conversations/${created.id.slice(5)}`)
        .set(auth(ALICE_KEY))
        .expect(200)
    ).body;
    expect(rest).toMatchObject({ title: 'Hello there', messages: [{ role: 'user', content: 'Hello there' }] });
    expect(await alice.conversations.delete(created.id)).toEqual({
      id: created.id,
      object: 'conversation.deleted',
      deleted: true,
    });
    await expect(alice.conversations.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('pages items with the SDK cursor in both orders, reads and deletes one', async () => {
    const conversation = await alice.conversations.create({});
    const texts = Array.from({ length: 7 }, (_, i) => `item ${i}`);
    const added = await alice.conversations.items.create(conversation.id, {
      items: texts.map((text, i) => ({
        type: 'message' as const,
        role: i % 2 ? ('assistant' as const) : ('user' as const),
        content: text,
      })),
    });
    expect(added.data).toHaveLength(7);
    expect(added.data[1]).toMatchObject({
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'item 1', annotations: [] }],
    });
    expect(added.data[0]).toMatchObject({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'item 0' }],
    });

    const seen: string[] = [];
    for await (const item of alice.conversations.items.list(conversation.id, { limit: 3, order: 'asc' })) {
      if (item.type === 'message') seen.push((item.content[0] as { text: string }).text);
    }
    expect(seen).toEqual(texts);
    const first = await alice.conversations.items.list(conversation.id, { limit: 3 });
    expect(first.data.map((i) => i.id)).toEqual(
      added.data
        .slice(-3)
        .reverse()
        .map((i) => i.id),
    );
    expect(first.has_more).toBe(true);
    const desc: string[] = [];
    for await (const item of alice.conversations.items.list(conversation.id, { limit: 2 })) desc.push(item.id!);
    expect(desc).toEqual(added.data.map((i) => i.id).reverse());

    const one = await alice.conversations.items.retrieve(added.data[2].id!, { conversation_id: conversation.id });
    expect(one).toEqual(added.data[2]);
    const after = await alice.conversations.items.delete(added.data[2].id!, { conversation_id: conversation.id });
    expect(after).toMatchObject({ id: conversation.id, object: 'conversation' });
    const left = await alice.conversations.items.list(conversation.id, { order: 'asc', limit: 100 });
    expect(left.data.map((i) => i.id)).toEqual(added.data.filter((_, i) => i !== 2).map((i) => i.id));
    expect(left.has_more).toBe(false);
    // The branch below the removed message still hangs together on the REST API.
    const rest = (
      await t
        .http()
        .get(`/api/conversations/${conversation.id.slice(5)}`)
        .set(auth(ALICE_KEY))
        .expect(200)
    ).body;
    expect(rest.messages.map((m: { content: string }) => m.content)).toEqual(texts.filter((_, i) => i !== 2));
  });

  it("lists the caller's conversations, newest activity first, with the SDK cursor", async () => {
    const mine = [];
    for (let i = 0; i < 4; i++) mine.push((await bob.conversations.create({ metadata: { n: String(i) } })).id);
    const listed: string[] = [];
    for await (const c of listConversations(bob, { limit: 3 })) listed.push(c.id);
    expect(listed).toEqual([...mine].reverse());
    const asc: string[] = [];
    for await (const c of listConversations(bob, { limit: 3, order: 'asc' })) asc.push(c.id);
    expect(asc).toEqual(mine);
  });

  it("keeps actors apart: another actor's conversation and items are unknown", async () => {
    const theirs = await alice.conversations.create({ items: [{ type: 'message', role: 'user', content: 'secret' }] });
    const items = await alice.conversations.items.list(theirs.id);
    await expect(bob.conversations.retrieve(theirs.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(bob.conversations.update(theirs.id, { metadata: {} })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(bob.conversations.delete(theirs.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(bob.conversations.items.list(theirs.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      bob.conversations.items.retrieve(items.data[0].id!, { conversation_id: theirs.id }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      bob.conversations.items.create(theirs.id, { items: [{ type: 'message', role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    // A foreign id answers exactly as an unknown one.
    const unknown = 'conv_00000000-0000-4000-8000-000000000000';
    const a = await apiError(bob.conversations.retrieve(theirs.id));
    const b = await apiError(bob.conversations.retrieve(unknown));
    expect([a.status, a.code, a.type]).toEqual([b.status, b.code, b.type]);
    expect(a.message).not.toContain('another actor');
  });

  it('refuses bad input as BadRequestError with the parameter, and a missing key as AuthenticationError', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v']));
    const error = await apiError(alice.conversations.create({ metadata: tooMany }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'metadata' });
    const longKey = await apiError(alice.conversations.create({ metadata: { ['k'.repeat(65)]: 'v' } }));
    expect(longKey).toBeInstanceOf(OpenAI.BadRequestError);
    const items = Array.from({ length: 21 }, () => ({ type: 'message' as const, role: 'user' as const, content: 'x' }));
    await expect(alice.conversations.create({ items })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const conversation = await alice.conversations.create({});
    await expect(alice.conversations.items.list(conversation.id, { limit: 101 })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
    const nobody = openAiClient(await t.url(), 'wrong-key-000000000000');
    const denied = await apiError(nobody.conversations.create({}));
    expect(denied).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(denied).toMatchObject({ status: 401, code: 'invalid_api_key' });
    await expect(nobody.conversations.retrieve(conversation.id)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    // The raw body is OpenAI's shape.
    const raw = await t.http().get(`/v1/conversations/${conversation.id}`).expect(401);
    expect(raw.body).toEqual({
      error: { message: expect.any(String), type: 'authentication_error', param: null, code: 'invalid_api_key' },
    });
  });
});

describe("openai: errors answered before a controller, in OpenAI's shape", () => {
  let tmp: ReturnType<typeof tempDir>;
  let t: TestApp;
  beforeAll(async () => {
    tmp = tempDir();
    t = await startTestApp({
      dbPath: `${tmp.dir}/e.sqlite`,
      env: { RATE_LIMIT_PER_MINUTE: '3', BODY_LIMIT_BYTES: '2048' },
    });
  });
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });
  const shape = (type: string) => ({
    error: { message: expect.any(String), type, param: null, code: expect.any(String) },
  });

  it('an unknown route, a body of another type, a body too large, and the rate limit as RateLimitError', async () => {
    expect((await t.http().get('/v1/nothing-here').set(auth(BOB_KEY)).expect(404)).body).toEqual(
      shape('invalid_request_error'),
    );
    const typed = await t
      .http()
      .post('/v1/conversations')
      .set(auth(BOB_KEY))
      .set('Content-Type', 'text/plain')
      .send('hello')
      .expect(415);
    expect(typed.body).toEqual(shape('invalid_request_error'));
    const big = await t
      .http()
      .post('/v1/conversations')
      .set(auth(BOB_KEY))
      .send({ metadata: { a: 'x'.repeat(4000) } })
      .expect(413);
    expect(big.body).toEqual(shape('invalid_request_error'));
    // The REST API keeps its own shape.
    expect((await t.http().get('/api/nothing-here').set(auth(BOB_KEY)).expect(404)).body).toMatchObject({
      statusCode: 404,
      code: 'not_found',
    });
    const client = openAiClient(await t.url(), ALICE_KEY);
    const limited = await (async () => {
      for (let i = 0; i < 10; i++) {
        const error = await apiError(client.conversations.retrieve('conv_00000000-0000-4000-8000-000000000000'));
        if (error.status === 429) return error;
      }
      throw new Error('never rate limited');
    })();
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(limited).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(limited.headers?.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('openai: single-user mode', () => {
  it('serves the SDK without a configured key (any key is the owner)', async () => {
    const tmp = tempDir();
    const t = await startTestApp({ dbPath: `${tmp.dir}/s.sqlite`, env: { API_KEYS: '' } });
    try {
      const client = openAiClient(await t.url(), 'anything');
      const created = await client.conversations.create({ metadata: { mode: 'single' } });
      expect((await client.conversations.retrieve(created.id)).metadata).toEqual({ mode: 'single' });
    } finally {
      await t.close();
      tmp.remove();
    }
  });
});
