import { DataSource } from 'typeorm';
import { RecallService } from '../../../src/recall/recall.service.js';
import { useApp } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, BOB_KEY, DIALECT, type TestApp } from '../../support/test-app.js';

interface Hit {
  messageId: string;
  conversationId: string;
  conversationTitle: string;
  seq: number;
  thread: string;
  role: string;
  createdAt: string;
  snippet: string;
  onPath: boolean;
  score: number;
}

/**
 * GET /api/search, on both databases: any word matches, stemmed, stop words ignored, more
 * (and rarer) words first, several hits per conversation; query syntax taken literally;
 * only the caller's messages, ranked by the caller's own statistics.
 */
describe('ranked message search (GET /api/search)', () => {
  const fixture = useApp();
  let t: TestApp;
  let recall: RecallService;
  const ids: Record<string, string> = {};

  const chat = async (key: string, message: string, conversationId?: string) =>
    (await t.http().post('/api/chat').set(auth(key)).send({ message, conversationId }).expect(200)).body as {
      conversationId: string;
      userMessageId: string;
    };
  const find = async (q: string, extra = '', key = ALICE_KEY) =>
    (
      await t
        .http()
        .get(`/api/search?q=${encodeURIComponent(q)}&role=user${extra}`)
        .set(auth(key))
        .expect(200)
    ).body as { items: Hit[]; nextCursor: string | null };
  const texts = async (q: string, extra = '', key = ALICE_KEY) => {
    const { items } = await find(q, extra, key);
    const all = new Map<string, string>();
    for (const [name, id] of Object.entries(ids)) all.set(id, name);
    return items.map((h) => all.get(h.messageId) ?? h.messageId);
  };

  beforeAll(async () => {
    t = fixture.app;
    recall = t.app.get(RecallService);
    const say = async (name: string, text: string, conversation?: string, key = ALICE_KEY) => {
      const r = await chat(key, text, conversation ? ids[`${conversation}:conversation`] : undefined);
      ids[name] = r.userMessageId;
      ids[`${name}:conversation`] = r.conversationId;
    };
    await say('group', 'Yesterday I went to an LGBTQ support group meeting');
    await say('groupOnly', 'The group chat was noisy', 'group');
    await say('paint', 'I like to paint landscapes');
    await say('paints', 'My sister paints portraits');
    await say('painting', 'Painting at dawn is calming');
    await say('kayakAll', 'Kayak on the lake at sunrise');
    await say('kayakOne', 'Sunrise over the city');
    await say('bob', 'Bob secretly paints too, and goes to the support group', undefined, BOB_KEY);
  });

  it('ignores stop words: the question finds the message holding its words', async () => {
    expect((await texts('the LGBTQ support group'))[0]).toBe('group');
    expect((await texts('What did she say about the LGBTQ support group?'))[0]).toBe('group');
    // Stop words alone find nothing, without an error.
    expect((await find('the of and')).items).toEqual([]);
  });

  it('stems: paint, paints and painting find each other', async () => {
    for (const q of ['paint', 'paints', 'painting', 'PAINTED'])
      expect((await texts(q)).sort()).toEqual(['paint', 'painting', 'paints']);
  });

  it('ranks messages holding more of the words first, several per conversation', async () => {
    expect(await texts('kayak lake sunrise')).toEqual(['kayakAll', 'kayakOne']);
    const both = await find('LGBTQ group');
    expect(both.items.map((h) => h.messageId)).toEqual([ids.group, ids.groupOnly]);
    expect(new Set(both.items.map((h) => h.conversationId))).toEqual(new Set([ids['group:conversation']]));
    expect(both.items[0]).toMatchObject({
      role: 'user',
      seq: 1,
      thread: 'main',
      onPath: true,
      snippet: expect.stringMatching(/\[LGBTQ\]/),
    });
    expect(both.items[0].score).toBeGreaterThan(both.items[1].score);
  });

  it('keeps phrases, exclusion and prefixes', async () => {
    expect(await texts('"support group"')).toEqual(['group']);
    expect(await texts('"group support"')).toEqual([]);
    expect(await texts('group -lgbtq')).toEqual(['groupOnly']);
    expect(await texts('group -"support group"')).toEqual(['groupOnly']);
    expect((await texts('kaya*')).sort()).toEqual(['kayakAll']);
  });

  it('takes query syntax literally: results or a clear 400, never a 500', async () => {
    const odd = [
      '"',
      '""',
      '"unbalanced',
      'NEAR(a b)',
      'NEAR',
      'a:b',
      'content:paint',
      'owner:x',
      '^paint',
      '*',
      '**',
      'x*',
      'paint*',
      '(',
      ')',
      '(paint',
      'paint)',
      '-',
      '--paint',
      '-paint',
      'OR',
      'AND NOT',
      "'; DROP TABLE messages; --",
      '{owner content}: x',
      'a & b | !c',
      "'x':*",
      '\\',
      'ü',
      '数字',
      'x'.repeat(300),
    ];
    for (const q of odd) {
      const res = await t
        .http()
        .get(`/api/search?q=${encodeURIComponent(q)}`)
        .set(auth(ALICE_KEY));
      expect([q, res.status]).toEqual([q, 200]);
      expect(Array.isArray(res.body.items)).toBe(true);
    }
    for (const bad of [
      'q=',
      'q=%20',
      `q=${'x'.repeat(501)}`,
      'q=a&limit=0',
      'q=a&limit=101',
      'q=a&limit=x',
      'q=a&cursor=abc',
      'q=a&before=yesterday',
      'q=a&role=robot',
      'q=a&conversationId=nope',
      'q=a&agentId=x',
      'q=a%00b',
      '',
    ]) {
      const res = await t.http().get(`/api/search?${bad}`).set(auth(ALICE_KEY));
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.body.message).toBeTruthy();
    }
  });

  it("never answers another actor's messages, and their writes never change the caller's ranking", async () => {
    expect(JSON.stringify(await find('paints support group secretly'))).not.toContain('Bob');
    expect((await find('secretly')).items).toEqual([]);
    expect((await find('secretly', '', BOB_KEY)).items).toHaveLength(1);
    // Two of Alice's messages, tied but for one word each; Bob then writes one of those words often.
    recall.statistics.maxAgeMs = 0;
    try {
      const a = await chat(ALICE_KEY, 'ocelot quartz');
      const b = await chat(ALICE_KEY, 'ocelot zircon');
      const before = (await find('ocelot quartz zircon')).items.filter((h) =>
        [a.userMessageId, b.userMessageId].includes(h.messageId),
      );
      expect(before).toHaveLength(2);
      for (let i = 0; i < 30; i++) await chat(BOB_KEY, `quartz quartz number ${i}`);
      const after = (await find('ocelot quartz zircon')).items.filter((h) =>
        [a.userMessageId, b.userMessageId].includes(h.messageId),
      );
      expect(after.map((h) => [h.messageId, h.score])).toEqual(before.map((h) => [h.messageId, h.score]));
    } finally {
      recall.statistics.maxAgeMs = 60_000;
    }
  });

  it('pages with an opaque cursor tied to its search, and filters by conversation, role and date', async () => {
    const all = (await t.http().get('/api/search?q=paint%20sunrise%20group&limit=100').set(auth(ALICE_KEY)).expect(200))
      .body.items as Hit[];
    expect(all.length).toBeGreaterThan(4);
    const first = (await t.http().get('/api/search?q=paint%20sunrise%20group&limit=2').set(auth(ALICE_KEY)).expect(200))
      .body;
    expect(first.items.map((h: Hit) => h.messageId)).toEqual(all.slice(0, 2).map((h) => h.messageId));
    const second = (
      await t
        .http()
        .get(`/api/search?q=paint%20sunrise%20group&limit=2&cursor=${first.nextCursor}`)
        .set(auth(ALICE_KEY))
        .expect(200)
    ).body;
    expect(second.items.map((h: Hit) => h.messageId)).toEqual(all.slice(2, 4).map((h) => h.messageId));
    await t.http().get(`/api/search?q=paint&limit=2&cursor=${first.nextCursor}`).set(auth(ALICE_KEY)).expect(400);
    const inOne = await find('group', `&conversationId=${ids['group:conversation']}`);
    expect(inOne.items.map((h) => h.messageId).sort()).toEqual([ids.group, ids.groupOnly].sort());
    const replies = (await t.http().get('/api/search?q=LGBTQ&role=assistant').set(auth(ALICE_KEY)).expect(200)).body
      .items as Hit[];
    expect(replies.map((h) => h.role)).toEqual(['assistant']);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await find('LGBTQ', `&after=${future}`)).items).toEqual([]);
    expect((await find('LGBTQ', `&before=${future}`)).items).toHaveLength(1);
  });

  it('forgets deleted conversations, and says which hits are off the active path', async () => {
    const gone = await chat(ALICE_KEY, 'ephemeral quokka facts');
    expect((await find('quokka')).items).toHaveLength(1);
    await t.http().delete(`/api/conversations/${gone.conversationId}`).set(auth(ALICE_KEY)).expect(204);
    expect((await find('quokka')).items).toEqual([]);
    const root = await chat(ALICE_KEY, 'Plan a trip to Porto');
    const asked = await chat(ALICE_KEY, 'Pack the umbrella', root.conversationId);
    await t
      .http()
      .post(`/api/conversations/${root.conversationId}/messages/${asked.userMessageId}/edit`)
      .set(auth(ALICE_KEY))
      .send({ message: 'Pack the sunscreen' })
      .expect(200);
    expect((await find('umbrella')).items).toEqual([
      expect.objectContaining({ messageId: asked.userMessageId, onPath: false }),
    ]);
    expect((await find('sunscreen')).items).toEqual([expect.objectContaining({ onPath: true })]);
  });

  it('the migration indexes the stored messages, and undoes cleanly', async () => {
    const ds = t.app.get(DataSource);
    const before = await find('paint sunrise group');
    const names = ds.migrations.map((m) => m.name ?? m.constructor.name);
    const index = names.findIndex((name) => /RankedSearch/.test(name));
    expect(index).toBeGreaterThan(0);
    // Undone back to before it (later migrations first), then run again.
    for (let i = names.length - 1; i >= index; i--) await ds.undoLastMigration();
    if (DIALECT === 'sqlite')
      expect(
        await ds.query(`SELECT name FROM sqlite_master WHERE name IN ('messages_fts_owners', 'messages_fts_rows')`),
      ).toHaveLength(2);
    await ds.runMigrations({ transaction: 'each' });
    expect(await find('paint sunrise group')).toEqual(before);
    if (DIALECT === 'sqlite')
      expect(
        await ds.query(`INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)`),
      ).toBeDefined();
  });
});
