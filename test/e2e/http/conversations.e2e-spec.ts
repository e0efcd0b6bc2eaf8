import { useApp } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, type TestApp } from '../../support/test-app.js';
import { sleep } from '../../../src/common/sleep.js';

describe('/api/conversations (listing, reading, deleting)', () => {
  // The echo model: these routes do not depend on what the model says. A fresh database per test: the listings count everything.
  const fixture = useApp({}, { perTest: true });
  let t: TestApp;
  beforeEach(() => (t = fixture.app));

  const chat = async (message: string, conversationId?: string): Promise<string> => {
    const res = await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message, conversationId }).expect(200);
    return res.body.conversationId;
  };
  const list = (query = '') => t.http().get(`/api/conversations${query}`).set(auth(ALICE_KEY)).expect(200);

  it('lists the most recently updated first, even for turns 20 ms apart', async () => {
    const a = await chat('first');
    await sleep(20);
    const b = await chat('second');
    await sleep(20);
    const c = await chat('third');
    expect((await list()).body.items.map((i: { id: string }) => i.id)).toEqual([c, b, a]);

    await sleep(20);
    await chat('back to the first', a);
    const items = (await list()).body.items;
    expect(items.map((i: { id: string }) => i.id)).toEqual([a, c, b]);
    expect(items[0]).toEqual({
      id: a,
      title: 'first',
      agentId: null,
      archived: false,
      pinned: false,
      memory: true,
      model: null,
      tags: [],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
    });
    expect(Date.parse(items[0].updatedAt)).toBeGreaterThan(Date.parse(items[0].createdAt));
  });

  it('pages with an opaque cursor until nextCursor is null, without repeats or gaps', async () => {
    for (let i = 0; i < 7; i++) await chat(`conversation ${i}`);
    const all = (await list('?limit=100')).body.items.map((i: { id: string }) => i.id);
    expect(all).toHaveLength(7);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.items.map((i: { id: string }) => i.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
  });

  it('defaults to 20 per page', async () => {
    for (let i = 0; i < 21; i++) await chat(`c${i}`);
    const res = await list();
    expect(res.body.items).toHaveLength(20);
    expect(res.body.nextCursor).toEqual(expect.any(String));
  });

  it('returns a conversation with all its messages in order', async () => {
    const id = await chat('one');
    await chat('two', id);
    const res = await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200);
    expect(res.body).toMatchObject({ id, title: 'one' });
    expect(res.body.messages.map((m: { seq: number; role: string }) => `${m.seq}:${m.role}`)).toEqual([
      '1:user',
      '2:assistant',
      '3:user',
      '4:assistant',
    ]);
    expect(res.body.messages[3].content).toContain('I received 2 earlier messages of history');
    for (const m of res.body.messages) {
      expect(Object.keys(m).sort()).toEqual([
        'completionTokens',
        'content',
        'createdAt',
        'error',
        'id',
        'memoryIds',
        'model',
        'onPath',
        'parentId',
        'pinned',
        'promptTokens',
        'reasoning',
        'reasoningMs',
        'recalledMessageIds',
        'role',
        'seq',
        'siblingCount',
        'siblingIds',
        'siblingIndex',
        'status',
        'thread',
        'toolCalls',
        'versions',
      ]);
    }
  });

  it('deletes a conversation with its messages (204, then 404)', async () => {
    const id = await chat('to be deleted');
    await chat('more', id);
    await t.http().delete(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(204);
    await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(404);
    await t.http().delete(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(404);
    expect((await list()).body.items).toEqual([]);
    const db = t.app.get((await import('typeorm')).DataSource);
    expect(Number((await db.query('SELECT count(*) AS n FROM messages'))[0].n)).toBe(0);
  });

  it('answers 404 with the error body for an unknown id', async () => {
    const res = await t
      .http()
      .get('/api/conversations/00000000-0000-4000-8000-000000000000')
      .set(auth(ALICE_KEY))
      .expect(404);
    expect(res.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      code: 'conversation_not_found',
      message: 'Conversation 00000000-0000-4000-8000-000000000000 not found',
    });
  });
});
