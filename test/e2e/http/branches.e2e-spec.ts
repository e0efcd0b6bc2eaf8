import { DataSource } from 'typeorm';
import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { ALICE_KEY, auth, BOB_KEY, DIALECT, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

interface Msg {
  id: string;
  parentId: string | null;
  onPath: boolean;
  role: string;
  content: string;
  siblingIds: string[];
  siblingIndex: number;
  siblingCount: number;
  versions: Array<{ content: string }>;
}

/**
 * Conversations as trees, on both databases: edit a question, answer again, switch branches,
 * continue from any message; what the model is sent is the active path only, and the running
 * summary of a branch left behind is not sent on another.
 */
describe('branches: edit, regenerate, select, and what the model receives', () => {
  let fake: FakeOpenAiServer;
  let tmp: ReturnType<typeof tempDir>;
  let t: TestApp;
  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
    t = await startTestApp({ dbPath: `${tmp.dir}/b.sqlite`, llmBaseUrl: fake.url, env: { SYSTEM_PROMPT: 'sys' } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    tmp.remove();
  });
  beforeEach(() => fake.reset());

  const api = () => t.http();
  const as = auth(ALICE_KEY);
  const say = async (body: object, reply: string) => {
    fake.enqueue({ kind: 'reply', text: reply });
    return (await api().post('/api/chat').set(as).send(body).expect(200)).body as {
      conversationId: string;
      userMessageId: string;
      messageId: string;
      reply: string;
    };
  };
  const sent = () => fake.lastCompletion.body.messages!.map((m) => m.content);
  const path = async (id: string) =>
    (await api().get(`/api/conversations/${id}`).set(as).expect(200)).body.messages as Msg[];

  it('an edit answers on a new branch, and only that branch reaches the model', async () => {
    const one = await say({ message: 'one' }, 'a1');
    const id = one.conversationId;
    const two = await say({ message: 'two', conversationId: id }, 'a2');
    fake.enqueue({ kind: 'reply', text: 'b2' });
    const edit = (
      await api()
        .post(`/api/conversations/${id}/messages/${two.userMessageId}/edit`)
        .set(as)
        .send({ message: 'TWO' })
        .expect(200)
    ).body;
    expect(edit).toMatchObject({ conversationId: id, reply: 'b2' });
    expect(sent()).toEqual(['sys', 'one', 'a1', 'TWO']);
    const messages = await path(id);
    expect(messages.map((m) => m.content)).toEqual(['one', 'a1', 'TWO', 'b2']);
    expect(messages[2]).toMatchObject({
      parentId: one.messageId,
      siblingIds: [two.userMessageId, edit.userMessageId],
      siblingIndex: 1,
      siblingCount: 2,
      onPath: true,
    });
    // The next turn continues the new branch.
    await say({ message: 'three', conversationId: id }, 'a3');
    expect(sent()).toEqual(['sys', 'one', 'a1', 'TWO', 'b2', 'three']);
  });

  it('select switches back to the other version, down to its newest leaf, and the next turn continues there', async () => {
    const one = await say({ message: 'one' }, 'a1');
    const id = one.conversationId;
    const two = await say({ message: 'two', conversationId: id }, 'a2');
    const deeper = await say({ message: 'two more', conversationId: id }, 'a2b');
    fake.enqueue({ kind: 'reply', text: 'b2' });
    await api()
      .post(`/api/conversations/${id}/messages/${two.userMessageId}/edit`)
      .set(as)
      .send({ message: 'TWO' })
      .expect(200);
    const selected = (
      await api().post(`/api/conversations/${id}/messages/${two.userMessageId}/select`).set(as).expect(200)
    ).body as Msg;
    expect(selected).toMatchObject({ id: two.userMessageId, onPath: true, siblingIndex: 0, siblingCount: 2 });
    expect((await path(id)).map((m) => m.content)).toEqual(['one', 'a1', 'two', 'a2', 'two more', 'a2b']);
    await say({ message: 'four', conversationId: id }, 'a4');
    expect(sent()).toEqual(['sys', 'one', 'a1', 'two', 'a2', 'two more', 'a2b', 'four']);
    expect((await path(id)).at(-2)).toMatchObject({ content: 'four', parentId: deeper.messageId });
  });

  it('regenerate answers beside the old reply; versions still lists the other answers; select flips between them', async () => {
    const one = await say({ message: 'q' }, 'first');
    const id = one.conversationId;
    fake.enqueue({ kind: 'reply', text: 'second' });
    const again = (await api().post(`/api/conversations/${id}/regenerate`).set(as).send({}).expect(200)).body;
    expect(again.messageId).not.toBe(one.messageId);
    let messages = await path(id);
    expect(messages.map((m) => m.content)).toEqual(['q', 'second']);
    expect(messages[1]).toMatchObject({
      siblingIds: [one.messageId, again.messageId],
      siblingIndex: 1,
      versions: [expect.objectContaining({ content: 'first' })],
    });
    await api().post(`/api/conversations/${id}/messages/${one.messageId}/select`).set(as).expect(200);
    messages = await path(id);
    expect(messages.map((m) => m.content)).toEqual(['q', 'first']);
    expect(messages[1]).toMatchObject({ siblingIndex: 0, versions: [expect.objectContaining({ content: 'second' })] });
    await say({ message: 'next', conversationId: id }, 'ok');
    expect(sent()).toEqual(['sys', 'q', 'first', 'next']);
  });

  it('parentMessageId continues from any message; the tree page lists every branch with its parent', async () => {
    const one = await say({ message: 'one' }, 'a1');
    const id = one.conversationId;
    await say({ message: 'two', conversationId: id }, 'a2');
    const branch = await say({ message: 'elsewhere', conversationId: id, parentMessageId: one.messageId }, 'b');
    expect(sent()).toEqual(['sys', 'one', 'a1', 'elsewhere']);
    const tree = (await api().get(`/api/conversations/${id}/tree`).set(as).expect(200)).body as {
      items: Msg[];
      nextBefore: number | null;
    };
    expect(tree.items.map((m) => [m.content, m.onPath])).toEqual([
      ['one', true],
      ['a1', true],
      ['two', false],
      ['a2', false],
      ['elsewhere', true],
      ['b', true],
    ]);
    expect(tree.items.find((m) => m.id === branch.userMessageId)).toMatchObject({
      parentId: one.messageId,
      siblingCount: 2,
    });
    const paged = (await api().get(`/api/conversations/${id}/tree?limit=2`).set(as).expect(200)).body;
    expect(paged.items.map((m: Msg) => m.content)).toEqual(['elsewhere', 'b']);
    expect(paged.nextBefore).toEqual(expect.any(Number));
  });

  it('refuses what does not fit the tree with a clear 4xx, and another actor sees unknown ids', async () => {
    const one = await say({ message: 'one' }, 'a1');
    const id = one.conversationId;
    const edit = (messageId: string, key = ALICE_KEY) =>
      api().post(`/api/conversations/${id}/messages/${messageId}/edit`).set(auth(key)).send({ message: 'x' });
    expect((await edit(one.messageId).expect(409)).body.message).toMatch(/Only a user message can be edited/);
    await edit('00000000-0000-4000-8000-000000000000').expect(404);
    await edit(one.userMessageId, BOB_KEY).expect(404);
    await api().post(`/api/conversations/${id}/messages/${one.userMessageId}/select`).set(auth(BOB_KEY)).expect(404);
    await api().get(`/api/conversations/${id}/tree`).set(auth(BOB_KEY)).expect(404);
    await api().post('/api/chat').set(as).send({ message: 'x', parentMessageId: one.messageId }).expect(400);
    await api()
      .post('/api/chat')
      .set(as)
      .send({ message: 'x', conversationId: id, parentMessageId: one.messageId, thread: 'side' })
      .expect(400);
    await api()
      .post(`/api/conversations/${id}/messages/${one.userMessageId}/edit`)
      .set(as)
      .send({ message: '' })
      .expect(400);
  });

  it('a branch forked above what the summary covers does not receive that summary', async () => {
    const s = await startTestApp({
      dbPath: `${tmp.dir}/s.sqlite`,
      llmBaseUrl: fake.url,
      env: { HISTORY_WINDOW: '2', SUMMARY_MODE: 'rolling', SYSTEM_PROMPT: 'sys' },
    });
    try {
      const isSummary = (messages: Array<{ content: string }>) => messages[0]?.content.includes('running summary');
      fake.respondWith((body) => ({ kind: 'reply', text: isSummary(body.messages!) ? 'SUMMARY-OF-MAIN' : 'ok' }));
      const chat = async (body: object) => (await s.http().post('/api/chat').set(as).send(body).expect(200)).body;
      const first = await chat({ message: 'q1' });
      const id = first.conversationId;
      for (let i = 2; i <= 5; i++) await chat({ message: `q${i}`, conversationId: id });
      // Wait until a summary of the main path exists and is sent.
      for (let i = 0; i < 50; i++) {
        await chat({ message: `more ${i}`, conversationId: id });
        if (fake.lastCompletion.body.messages!.some((m) => m.content.includes('SUMMARY-OF-MAIN'))) break;
      }
      expect(fake.lastCompletion.body.messages!.some((m) => m.content.includes('SUMMARY-OF-MAIN'))).toBe(true);
      // Edit the very first question: the new branch shares nothing with what the summary covers.
      await s
        .http()
        .post(`/api/conversations/${id}/messages/${first.userMessageId}/edit`)
        .set(as)
        .send({ message: 'fresh start' })
        .expect(200);
      const branchRequest = fake.completions.filter((r) => !isSummary(r.body.messages!)).at(-1)!;
      expect(branchRequest.body.messages!.map((m) => m.content)).toEqual(['sys', 'fresh start']);
    } finally {
      await s.close();
    }
  });
});

/** The earlier answers kept in `versions` by the schema before the tree become sibling replies, with nothing lost. */
describe('the migration of stored versions to sibling replies', () => {
  let fake: FakeOpenAiServer;
  let tmp: ReturnType<typeof tempDir>;
  let t: TestApp;
  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
    t = await startTestApp({ dbPath: `${tmp.dir}/m.sqlite`, llmBaseUrl: fake.url });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    tmp.remove();
  });

  it('links every message to the one before it in its thread, and turns each version into a sibling off the path', async () => {
    const as = auth(ALICE_KEY);
    fake.enqueue({ kind: 'reply', text: 'a1' }, { kind: 'reply', text: 'a2' });
    const one = (await t.http().post('/api/chat').set(as).send({ message: 'q1' }).expect(200)).body;
    const id = one.conversationId;
    const two = (await t.http().post('/api/chat').set(as).send({ message: 'q2', conversationId: id }).expect(200)).body;
    const ds = t.app.get(DataSource);
    const p = (n: number) => (DIALECT === 'postgres' ? `$${n}` : '?');
    // Back to the schema before the tree (undoing the migrations after it first), with a reply holding two earlier answers as it stored them.
    const treeMigration = ds.migrations.findIndex((m) => m.name?.endsWith('MessageTree1764620000000'));
    expect(treeMigration).toBeGreaterThanOrEqual(0);
    for (let i = ds.migrations.length; i > treeMigration; i--) await ds.undoLastMigration();
    const versions = [
      {
        content: 'old 1',
        status: 'complete',
        model: 'm',
        promptTokens: 1,
        completionTokens: 2,
        error: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      {
        content: 'old 2',
        status: 'failed',
        model: null,
        promptTokens: null,
        completionTokens: null,
        error: { code: 'model_timeout', message: 'too slow' },
        createdAt: '2026-01-02T00:00:00.000Z',
      },
    ];
    await ds.query(`UPDATE "messages" SET "versions" = ${p(1)} WHERE "id" = ${p(2)}`, [
      JSON.stringify(versions),
      two.messageId,
    ]);
    await ds.runMigrations();
    const messages = (await t.http().get(`/api/conversations/${id}`).set(as).expect(200)).body.messages as Msg[];
    expect(messages.map((m) => m.content)).toEqual(['q1', 'a1', 'q2', 'a2']);
    expect(messages.map((m) => m.parentId)).toEqual([null, one.userMessageId, one.messageId, two.userMessageId]);
    expect(messages[3].siblingCount).toBe(3);
    expect(messages[3].versions.map((v) => v.content)).toEqual(['old 1', 'old 2']);
    const tree = (await t.http().get(`/api/conversations/${id}/tree`).set(as).expect(200)).body.items as Array<
      Msg & { status: string; error: unknown; createdAt: string }
    >;
    const siblings = tree.filter((m) => !m.onPath);
    expect(siblings.map((m) => [m.content, m.status, m.parentId, m.createdAt])).toEqual([
      ['old 1', 'complete', two.userMessageId, '2026-01-01T00:00:00.000Z'],
      ['old 2', 'failed', two.userMessageId, '2026-01-02T00:00:00.000Z'],
    ]);
    expect(siblings[1].error).toMatchObject({ statusCode: 504, message: 'too slow' });
    // Selecting an old answer makes it the path; the conversation continues from it.
    await t.http().post(`/api/conversations/${id}/messages/${siblings[0].id}/select`).set(as).expect(200);
    fake.enqueue({ kind: 'reply', text: 'a3' });
    await t.http().post('/api/chat').set(as).send({ message: 'q3', conversationId: id }).expect(200);
    expect(fake.lastCompletion.body.messages!.map((m) => m.content)).toEqual(['q1', 'a1', 'q2', 'old 1', 'q3']);
  });
});
