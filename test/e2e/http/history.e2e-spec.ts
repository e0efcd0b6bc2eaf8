import { useApp } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, BOB_KEY, type TestApp } from '../../support/test-app.js';

describe('living with a long history: search, pages of messages, archive, pin, tags', () => {
  const fixture = useApp();
  let t: TestApp;

  beforeAll(() => (t = fixture.app));

  const chat = async (key: string, message: string, conversationId?: string) =>
    (await t.http().post('/api/chat').set(auth(key)).send({ message, conversationId }).expect(200)).body;
  const list = async (query: string, key = ALICE_KEY) =>
    (await t.http().get(`/api/conversations${query}`).set(auth(key)).expect(200)).body;

  describe('search', () => {
    let pasta: string;
    let trip: string;

    beforeAll(async () => {
      pasta = (await chat(ALICE_KEY, 'How long do I boil fresh tagliatelle?')).conversationId;
      await chat(ALICE_KEY, 'And how much salt in the water?', pasta);
      trip = (await chat(ALICE_KEY, 'Plan a weekend in Lisbon')).conversationId;
      await chat(ALICE_KEY, 'We love tagliatelle and seafood', trip);
      await chat(BOB_KEY, 'Bob also asks about tagliatelle secrets');
    });

    it('finds conversations by message content, ranked, one hit each, with a snippet and the message', async () => {
      const res = await list('?q=tagliatelle');
      expect(res.nextCursor).toBeNull();
      const ids = res.items.map((i: { id: string }) => i.id);
      expect(ids.sort()).toEqual([pasta, trip].sort());
      for (const item of res.items) {
        expect(item.snippet).toMatch(/\[tagliatelle\]/i);
        expect(item.messageId).toMatch(/^[0-9a-f-]{36}$/);
      }
      const hit = res.items.find((i: { id: string }) => i.id === trip);
      const detail = (await t.http().get(`/api/conversations/${trip}`).set(auth(ALICE_KEY)).expect(200)).body;
      const found = detail.messages.find((m: { id: string }) => m.id === hit.messageId);
      expect(found.content).toContain('tagliatelle');
      // Where the message is, so a client can page straight to it.
      expect({ seq: hit.messageSeq, thread: hit.messageThread }).toEqual({ seq: found.seq, thread: found.thread });
    });

    it('matches titles and any word of the query, whatever the case', async () => {
      expect((await list('?q=LISBON%20weekend')).items.map((i: { id: string }) => i.id)).toEqual([trip]);
      // Any word matches: a word found nowhere does not hide the others.
      expect((await list('?q=lisbon%20tokyo')).items.map((i: { id: string }) => i.id)).toEqual([trip]);
      expect((await list('?q=tokyo')).items).toEqual([]);
      expect((await list('?q=salt')).items.map((i: { id: string }) => i.id)).toEqual([pasta]);
    });

    it("never returns another actor's conversations or text", async () => {
      const bob = await list('?q=tagliatelle', BOB_KEY);
      expect(bob.items).toHaveLength(1);
      expect(JSON.stringify(bob)).not.toMatch(/seafood|boil/);
      const alice = await list('?q=secrets');
      expect(alice.items).toEqual([]);
    });

    it("ranks a word found in several of the caller's conversations best first, with snippets, never another actor's", async () => {
      const once = (
        await chat(ALICE_KEY, 'A long evening of gnocchi and a great many other dishes with sauces and wines')
      ).conversationId;
      const thrice = (await chat(ALICE_KEY, 'gnocchi gnocchi gnocchi')).conversationId;
      const bobs = (await chat(BOB_KEY, 'gnocchi gnocchi gnocchi gnocchi for Bob')).conversationId;
      const res = await list('?q=gnocchi');
      expect(res.items.map((i: { id: string }) => i.id)).toEqual([thrice, once]);
      for (const item of res.items) expect(item.snippet).toMatch(/\[gnocchi\]/i);
      expect(JSON.stringify(res)).not.toContain('Bob');
      // The limit keeps the best, with its snippet.
      const best = await list('?q=gnocchi&limit=1');
      expect(best.items).toEqual([
        expect.objectContaining({ id: thrice, snippet: expect.stringMatching(/\[gnocchi\]/i) }),
      ]);
      expect((await list('?q=gnocchi', BOB_KEY)).items.map((i: { id: string }) => i.id)).toEqual([bobs]);
    });

    it('finds a reply by the text it ends with, and nothing for a query without a word', async () => {
      const id = (await chat(ALICE_KEY, 'Say something about orecchiette')).conversationId;
      // The echo model's reply is inserted empty and filled in when done: the index follows the update.
      const res = await list('?q=offline%20orecchiette');
      // The conversation holding both words first; others hold only "offline" (the echo model's replies).
      expect(res.items[0]).toEqual(
        expect.objectContaining({ id, snippet: expect.stringMatching(/\[offline\]|\[orecchiette\]/i) }),
      );
      for (const q of ['*', '"', '-', '...']) expect((await list(`?q=${encodeURIComponent(q)}`)).items).toEqual([]);
    });

    it('takes search operators and punctuation literally', async () => {
      for (const q of ['"', 'tagliatelle OR', 'NEAR(a b)', '*', 'a:b', "'; DROP TABLE messages; --"]) {
        const res = await t
          .http()
          .get(`/api/conversations?q=${encodeURIComponent(q)}`)
          .set(auth(ALICE_KEY));
        expect(res.status).toBe(200);
      }
      await t.http().get('/api/conversations?q=').set(auth(ALICE_KEY)).expect(400);
      await t
        .http()
        .get(`/api/conversations?q=${'x'.repeat(201)}`)
        .set(auth(ALICE_KEY))
        .expect(400);
      await t.http().get('/api/conversations?q=pasta&cursor=abc').set(auth(ALICE_KEY)).expect(400);
    });

    it('finds a renamed title and forgets deleted conversations', async () => {
      await t
        .http()
        .patch(`/api/conversations/${pasta}`)
        .set(auth(ALICE_KEY))
        .send({ title: 'Zucchini experiments' })
        .expect(200);
      expect((await list('?q=zucchini')).items.map((i: { id: string }) => i.id)).toEqual([pasta]);
      const temp = (await chat(ALICE_KEY, 'ephemeral quokka facts')).conversationId;
      expect((await list('?q=quokka')).items).toHaveLength(1);
      await t.http().delete(`/api/conversations/${temp}`).set(auth(ALICE_KEY)).expect(204);
      expect((await list('?q=quokka')).items).toEqual([]);
    });
  });

  describe('pages of messages', () => {
    it('pages from the newest backwards with before and limit', async () => {
      let id: string | undefined;
      for (let i = 1; i <= 6; i++) id = (await chat(ALICE_KEY, `page ${i}`, id)).conversationId;
      const first = (await t.http().get(`/api/conversations/${id}/messages?limit=5`).set(auth(ALICE_KEY)).expect(200))
        .body;
      expect(first.items.map((m: { seq: number }) => m.seq)).toEqual([8, 9, 10, 11, 12]);
      expect(first.nextBefore).toBe(8);
      const second = (
        await t.http().get(`/api/conversations/${id}/messages?limit=5&before=8`).set(auth(ALICE_KEY)).expect(200)
      ).body;
      expect(second.items.map((m: { seq: number }) => m.seq)).toEqual([3, 4, 5, 6, 7]);
      const last = (
        await t.http().get(`/api/conversations/${id}/messages?limit=5&before=3`).set(auth(ALICE_KEY)).expect(200)
      ).body;
      expect(last).toEqual({
        items: [expect.objectContaining({ seq: 1 }), expect.objectContaining({ seq: 2 })],
        nextBefore: null,
      });
      const all = (await t.http().get(`/api/conversations/${id}/messages`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(all.items).toHaveLength(12);
      for (const bad of ['limit=0', 'limit=201', 'before=0', 'before=x', 'thread=BAD']) {
        await t.http().get(`/api/conversations/${id}/messages?${bad}`).set(auth(ALICE_KEY)).expect(400);
      }
      await t.http().get(`/api/conversations/${id}/messages`).set(auth(BOB_KEY)).expect(404);
    });

    it('opens a conversation with its newest messages only, and says where older ones start', async () => {
      let id: string | undefined;
      for (let i = 1; i <= 6; i++) id = (await chat(ALICE_KEY, `open ${i}`, id)).conversationId;
      const seqs = (body: { messages: Array<{ seq: number }> }) => body.messages.map((m) => m.seq);

      const recent = (await t.http().get(`/api/conversations/${id}?limit=4`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(seqs(recent)).toEqual([9, 10, 11, 12]);
      expect(recent.nextBefore).toBe(9);
      // The rest comes from the pages of messages, from nextBefore on.
      const older = (
        await t
          .http()
          .get(`/api/conversations/${id}/messages?before=${recent.nextBefore}&limit=200`)
          .set(auth(ALICE_KEY))
          .expect(200)
      ).body;
      expect(older.items.map((m: { seq: number }) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

      const whole = (await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(seqs(whole)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(whole.nextBefore).toBeNull();
      const exact = (await t.http().get(`/api/conversations/${id}?limit=12`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(exact.nextBefore).toBeNull();

      const active = (await t.http().get('/api/conversations/active?limit=2').set(auth(ALICE_KEY)).expect(200)).body;
      expect(active.id).toBe(id);
      expect(seqs(active)).toEqual([11, 12]);
      expect(active.nextBefore).toBe(11);

      for (const bad of ['limit=0', 'limit=201', 'limit=x']) {
        const res = await t.http().get(`/api/conversations/${id}?${bad}`).set(auth(ALICE_KEY)).expect(400);
        expect(res.body.message).toMatch(/limit/);
        await t.http().get(`/api/conversations/active?${bad}`).set(auth(ALICE_KEY)).expect(400);
      }
    });

    it('caps an unbounded read: a conversation longer than the default comes back with the newest 100', async () => {
      let id: string | undefined;
      for (let i = 1; i <= 51; i++) id = (await chat(ALICE_KEY, `long ${i}`, id)).conversationId;
      const body = (await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(body.messages).toHaveLength(100);
      expect(body.messages[0].seq).toBe(3);
      expect(body.messages.at(-1).seq).toBe(102);
      expect(body.nextBefore).toBe(3);
    });
  });

  describe('archive, pin and tags', () => {
    it('hides archived conversations from the default list, and filters by pinned and tag', async () => {
      const a = (await chat(ALICE_KEY, 'to archive')).conversationId;
      const b = (await chat(ALICE_KEY, 'to pin')).conversationId;
      const patched = await t
        .http()
        .patch(`/api/conversations/${b}`)
        .set(auth(ALICE_KEY))
        .send({ pinned: true, tags: ['Work', ' urgent ', 'work'] })
        .expect(200);
      expect(patched.body).toMatchObject({ id: b, pinned: true, archived: false, tags: ['urgent', 'work'] });
      await t.http().patch(`/api/conversations/${a}`).set(auth(ALICE_KEY)).send({ archived: true }).expect(200);

      const ids = async (query: string) => (await list(query)).items.map((i: { id: string }) => i.id);
      expect(await ids('?limit=100')).not.toContain(a);
      expect(await ids('?archived=true')).toEqual([a]);
      expect(await ids('?pinned=true')).toEqual([b]);
      expect(await ids('?tag=WORK')).toEqual([b]);
      expect(await ids('?tag=none-such')).toEqual([]);
      expect(
        (await list('?q=archive')).items.map((i: { id: string; archived: boolean }) => [i.id, i.archived]),
      ).toEqual([[a, true]]);

      await t.http().patch(`/api/conversations/${b}`).set(auth(ALICE_KEY)).send({ tags: [] }).expect(200);
      expect(await ids('?tag=work')).toEqual([]);
      const detail = (await t.http().get(`/api/conversations/${b}`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(detail).toMatchObject({ pinned: true, tags: [] });
    });

    it('lists pinned conversations first with pinnedFirst=true, each part most recent first, paging across the two', async () => {
      const made: string[] = [];
      for (const n of [1, 2, 3, 4, 5]) made.push((await chat(BOB_KEY, `bob topic ${n}`)).conversationId);
      for (const id of [made[1], made[3]])
        await t.http().patch(`/api/conversations/${id}`).set(auth(BOB_KEY)).send({ pinned: true }).expect(200);
      type Item = { id: string; pinned: boolean };
      const plain: Item[] = (await list('?limit=100', BOB_KEY)).items;
      const expected = [...plain.filter((c) => c.pinned), ...plain.filter((c) => !c.pinned)].map((c) => c.id);
      expect(expected.slice(0, 2).sort()).toEqual([made[1], made[3]].sort());
      expect(expected).not.toEqual(plain.map((c) => c.id)); // the order differs from the plain one

      expect((await list('?pinnedFirst=true&limit=100', BOB_KEY)).items.map((c: Item) => c.id)).toEqual(expected);
      // Page by page, one at a time: the cursor crosses from the pinned part into the rest.
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { items: Item[]; nextCursor: string | null } = await list(
          `?pinnedFirst=true&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
          BOB_KEY,
        );
        paged.push(...page.items.map((c) => c.id));
        cursor = page.nextCursor;
      } while (cursor && paged.length <= expected.length);
      expect(paged).toEqual(expected);
      // With the pinned filter, the same as without the order.
      expect((await list('?pinnedFirst=true&pinned=false&limit=100', BOB_KEY)).items.map((c: Item) => c.id)).toEqual(
        expected.slice(2),
      );

      // A cursor of one order is refused by the other, rather than skipping or repeating rows.
      const pinnedCursor = (await list('?pinnedFirst=true&limit=1', BOB_KEY)).nextCursor;
      const plainCursor = (await list('?limit=1', BOB_KEY)).nextCursor;
      const refusals = [
        await t.http().get(`/api/conversations?cursor=${pinnedCursor}`).set(auth(BOB_KEY)).expect(400),
        await t.http().get(`/api/conversations?pinnedFirst=true&cursor=${plainCursor}`).set(auth(BOB_KEY)).expect(400),
      ];
      for (const res of refusals) expect(res.body.message).toMatch(/cursor/);
      expect(
        (await t.http().get('/api/conversations?pinnedFirst=true&q=topic').set(auth(BOB_KEY)).expect(400)).body.message,
      ).toMatch(/pinnedFirst/);
      await t.http().get('/api/conversations?pinnedFirst=1').set(auth(BOB_KEY)).expect(400);
    });

    it('validates PATCH and keeps other actors out', async () => {
      const c = (await chat(ALICE_KEY, 'patch target')).conversationId;
      for (const body of [
        { title: '' },
        { archived: 'yes' },
        { tags: 'x' },
        { tags: Array(21).fill('t') },
        { tags: ['x'.repeat(51)] },
        { owner: 'bob' },
      ]) {
        await t.http().patch(`/api/conversations/${c}`).set(auth(ALICE_KEY)).send(body).expect(400);
      }
      await t.http().patch(`/api/conversations/${c}`).set(auth(BOB_KEY)).send({ title: 'mine' }).expect(404);
      for (const bad of ['archived=yes', 'pinned=1', `tag=${'x'.repeat(51)}`]) {
        await t.http().get(`/api/conversations?${bad}`).set(auth(ALICE_KEY)).expect(400);
      }
      expect((await t.http().get(`/api/conversations/${c}`).set(auth(ALICE_KEY)).expect(200)).body.title).toBe(
        'patch target',
      );
    });
  });
});
