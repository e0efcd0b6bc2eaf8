import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, asActor, auth, BOB_KEY, type TestApp } from '../../support/test-app.js';

describe('memories: export, import and erasure of the account', () => {
  const fixture = useAppWithFakeModel();
  let t: TestApp;
  beforeAll(() => ({ app: t } = fixture));

  const as = (key: string) => asActor(() => t, key);
  const alice = as(ALICE_KEY);
  const bob = as(BOB_KEY);

  it("exports the actor's memories, takes them back, and erases them with the account (only the caller's)", async () => {
    await alice.post('/api/memories', { text: 'Speaks Dutch' }).expect(201);
    await alice.post('/api/memories', { text: 'Pinned: call me Sam', pinned: true }).expect(201);
    await bob.post('/api/memories', { text: "Bob's own" }).expect(201);
    const exported = (await alice.get('/api/me/export').expect(200)).body;
    expect(exported.memories.map((m: { text: string; pinned: boolean }) => [m.text, m.pinned])).toEqual([
      ['Speaks Dutch', false],
      ['Pinned: call me Sam', true],
    ]);

    const erased = (await alice.delete('/api/me/data').expect(200)).body;
    expect(erased.memories).toBe(2);
    expect((await alice.get('/api/memories').expect(200)).body.items).toEqual([]);
    expect((await bob.get('/api/memories').expect(200)).body.items).toHaveLength(1);

    expect((await alice.post('/api/memories/import', { memories: exported.memories }).expect(201)).body).toEqual({
      imported: 2,
    });
    const back = (await alice.get('/api/memories').expect(200)).body.items;
    expect(back.map((m: { text: string }) => m.text).sort()).toEqual(['Pinned: call me Sam', 'Speaks Dutch']);
    expect(back.find((m: { pinned: boolean }) => m.pinned).createdAt).toBe(exported.memories[1].createdAt);
    expect(back.map((m: { id: string }) => m.id)).not.toContain(exported.memories[0].id);
  });

  it('comes back whole through POST /api/imports: the account file with its memories (counted in a dry run, none if one is bad)', async () => {
    await alice.delete('/api/me/data').expect(200);
    await alice.post('/api/memories', { text: 'Likes tea' }).expect(201);
    await alice.post('/api/memories', { text: 'Lives in Utrecht', pinned: true }).expect(201);
    await alice.post('/api/chat', { message: 'hello there' }).expect(200);
    const exported = (await alice.get('/api/me/export').expect(200)).body;
    await alice.delete('/api/me/data').expect(200);
    const upload = (doc: object, query = '') =>
      t
        .http()
        .post(`/api/imports${query}`)
        .set(auth(ALICE_KEY))
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(doc));

    const items = [
      { text: 'Likes tea', pinned: false },
      { text: 'Lives in Utrecht', pinned: true },
    ];
    const dry = (await upload(exported, '?dryRun=true&memories=true&pinMemories=true').expect(200)).body;
    expect(dry.memories).toEqual({ imported: 2, skipped: 0, reason: null, items });
    expect((await alice.get('/api/memories').expect(200)).body.items).toEqual([]);

    const report = (await upload(exported, '?memories=true&pinMemories=true').expect(200)).body;
    expect(report).toMatchObject({ format: 'chat-memory', memories: { imported: 2, skipped: 0, reason: null, items } });
    expect(report.imported).toHaveLength(1);
    const back = (await alice.get('/api/memories').expect(200)).body.items;
    expect(back.map((m: { text: string; pinned: boolean }) => [m.text, m.pinned]).sort()).toEqual([
      ['Likes tea', false],
      ['Lives in Utrecht', true],
    ]);

    // One bad memory: none of them is taken, the conversations still are, and the report says why.
    await alice.delete('/api/me/data').expect(200);
    const bad = { ...exported, memories: [...exported.memories, { text: 'x'.repeat(1001) }] };
    const partial = (await upload(bad, '?memories=true').expect(200)).body;
    expect(partial.memories).toMatchObject({
      imported: 0,
      skipped: 3,
      reason: expect.stringMatching(/1001 characters/),
    });
    expect(partial.imported).toHaveLength(1);
    expect((await alice.get('/api/memories').expect(200)).body.items).toEqual([]);
  });

  it('refuses a bad import whole (400, nothing created)', async () => {
    const before = (await alice.get('/api/memories').expect(200)).body.items.length;
    await alice.post('/api/memories/import', { memories: [{ text: 'fine' }, { text: '' }] }).expect(400);
    await alice.post('/api/memories/import', { memories: [{ text: 'x'.repeat(1001) }] }).expect(400);
    await alice.post('/api/memories/import', { memories: [{ text: 'ok', createdAt: 'yesterday' }] }).expect(400);
    await alice
      .post('/api/memories/import', { memories: Array.from({ length: 1001 }, () => ({ text: 'x' })) })
      .expect(400);
    await alice.post('/api/memories/import', {}).expect(400);
    expect((await alice.get('/api/memories').expect(200)).body.items.length).toBe(before);
  });
});
