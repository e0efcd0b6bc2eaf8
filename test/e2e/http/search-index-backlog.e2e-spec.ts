import { DataSource } from 'typeorm';
import { WholeConversationsRepository } from '../../../src/conversations/whole-conversations.repository.js';
import { DatabaseService } from '../../../src/database/database.service.js';
import { useApp } from '../../support/app-fixture.js';
import { holdIndexTimer } from '../../support/index-timer.js';
import { ALICE_KEY, auth, BOB_KEY, DIALECT, type TestApp } from '../../support/test-app.js';

/** SQLite indexes messages for search in batches (migration 1764980000000); PostgreSQL indexes each row as it is written. */
const sqliteOnly = DIALECT === 'sqlite' ? describe : describe.skip;

/**
 * Messages reach SQLite's full-text index a batch at a time: a commit notes its rows in
 * `messages_fts_pending`, and they are indexed after a short delay or before any search, so a
 * search still finds every message written before it and the index always equals the messages.
 */
sqliteOnly('messages wait for the full-text index in batches (SQLite)', () => {
  const fixture = useApp();
  let t: TestApp;
  let ds: DataSource;
  const post = (path: string, body: object) => t.http().post(path).set(auth(ALICE_KEY)).send(body);
  const search = async (q: string) =>
    (
      await t
        .http()
        .get(`/api/search?q=${encodeURIComponent(q)}`)
        .set(auth(ALICE_KEY))
        .expect(200)
    ).body.items as Array<{
      messageId: string;
      role: string;
      onPath: boolean;
    }>;
  const count = async (sql: string, params: unknown[] = []) =>
    Number(((await ds.query(sql, params)) as Array<{ n: number }>)[0].n);
  const waiting = () => count(`SELECT count(*) AS n FROM messages_fts_pending`);
  const indexed = (word: string) => count(`SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ?`, [word]);
  /** Noted and indexed rows in one statement (one snapshot): the timer's catch-up may run at any moment. */
  const notedOrIndexed = (word: string) =>
    count(
      `SELECT (SELECT count(*) FROM messages_fts_pending) + (SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?) AS n`,
      [word],
    );
  /** Runs `body` with the timer's catch-ups held off (these turns recall nothing, so nothing else asks for one). */
  const withoutCatchUp = async (body: () => Promise<void>) => {
    const release = await holdIndexTimer(t);
    try {
      await body();
    } finally {
      release();
    }
  };
  /** FTS5's own check that the index holds exactly the rows of the view it indexes, with their text. */
  const checkIndex = () => ds.query(`INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)`);

  beforeAll(() => {
    t = fixture.app;
    ds = t.app.get(DataSource);
  });

  it('a turn notes its messages instead of indexing them; a search indexes them first and finds them', async () => {
    let turn: { userMessageId: string } = { userMessageId: '' };
    await withoutCatchUp(async () => {
      turn = (await post('/api/chat', { message: 'The albatross circles the lighthouse' }).expect(200)).body;
      expect(await waiting()).toBe(2);
      expect(await indexed('albatross')).toBe(0);
    });
    const hits = await search('albatross');
    expect(hits.map((h) => h.messageId)).toContain(turn.userMessageId);
    expect(await waiting()).toBe(0);
    // The question and the echoed reply.
    expect(await indexed('albatross')).toBe(2);
    await checkIndex();
  });

  it("a backlog of several batches and actors (an import) is indexed whole, batch by batch in the notes' order", async () => {
    const importAs = (key: string, word: string, n: number) => {
      const createdAt = new Date().toISOString();
      const messages = Array.from({ length: n }, (_, i) => ({
        seq: i + 1,
        thread: 'main',
        role: i % 2 ? 'assistant' : 'user',
        content: `${word} ${i + 1}`,
        status: 'complete',
        createdAt,
      }));
      const body = {
        format: 'chat-memory.conversation',
        version: 1,
        conversation: { title: word, createdAt, messages },
      };
      return t.http().post('/api/conversations/import').set(auth(key)).send(body).expect(201);
    };
    await importAs(ALICE_KEY, 'wombat', 2_500);
    await importAs(BOB_KEY, 'wombat', 1_700);
    // Noted or indexed, never both (the background catch-up may have begun).
    expect(await notedOrIndexed('wombat')).toBe(4_200);
    expect(await search('wombat')).not.toHaveLength(0);
    expect(await waiting()).toBe(0);
    expect(await indexed('wombat')).toBe(4_200);
    await checkIndex();
  });

  it('edits, regenerations, deletions and streamed replies, indexed or waiting, keep the index equal to the messages', async () => {
    // Edited while waiting, and edited after being indexed.
    const waitingEdit = (await post('/api/chat', { message: 'The walrus naps on the pier' }).expect(200)).body;
    await post(`/api/conversations/${waitingEdit.conversationId}/messages/${waitingEdit.userMessageId}/edit`, {
      message: 'The seal naps on the pier',
    }).expect(200);
    const indexedEdit = (await post('/api/chat', { message: 'The pelican steals a herring' }).expect(200)).body;
    await search('pelican');
    await post(`/api/conversations/${indexedEdit.conversationId}/messages/${indexedEdit.userMessageId}/edit`, {
      message: 'The cormorant steals a herring',
    }).expect(200);
    await post(`/api/conversations/${indexedEdit.conversationId}/regenerate`, {}).expect(200);
    // Deleted while waiting, and deleted after being indexed.
    const goneWaiting = (await post('/api/chat', { message: 'The narwhal sings' }).expect(200)).body;
    await t.http().delete(`/api/conversations/${goneWaiting.conversationId}`).set(auth(ALICE_KEY)).expect(204);
    const goneIndexed = (await post('/api/chat', { message: 'The puffin dives' }).expect(200)).body;
    await search('puffin');
    await t.http().delete(`/api/conversations/${goneIndexed.conversationId}`).set(auth(ALICE_KEY)).expect(204);
    // A streamed reply is noted once it ends, never while it streams.
    await post('/api/chat/stream', { message: 'The heron waits in the reeds' }).expect(200);

    await checkIndex();
    // The edited question and its reply stay, off the path.
    expect((await search('walrus')).map((h) => h.onPath)).toEqual([false, false]);
    expect((await search('seal')).map((h) => `${h.role}:${h.onPath}`).sort()).toEqual(['assistant:true', 'user:true']);
    expect((await search('cormorant')).length).toBeGreaterThan(0);
    expect(await search('narwhal')).toEqual([]);
    expect(await search('puffin')).toEqual([]);
    expect((await search('heron')).map((h) => h.role).sort()).toEqual(['assistant', 'user']);
    expect(await waiting()).toBe(0);
    await checkIndex();
  });

  it("a message moved to another actor, waiting or indexed, is found by the new actor's search only", async () => {
    const waitingMove = (await post('/api/chat', { message: 'The osprey hovers' }).expect(200)).body;
    await post('/api/chat', { message: 'The gannet plunges' }).expect(200);
    await search('gannet');
    expect(await waiting()).toBe(0);
    await post('/api/chat', { message: 'The osprey dives', conversationId: waitingMove.conversationId }).expect(200);
    // What adopting the single-user history does: every row of the actor's moves to another.
    await t.app
      .get(DatabaseService)
      .transaction((em) => t.app.get(WholeConversationsRepository).moveActor(em, 'api:alice', 'api:bob'));
    await checkIndex();
    expect(await search('osprey')).toEqual([]);
    expect(await search('gannet')).toEqual([]);
    const bobs = async (q: string) =>
      (await t.http().get(`/api/search?q=${q}`).set(auth(BOB_KEY)).expect(200)).body.items as unknown[];
    expect(await bobs('osprey')).toHaveLength(4);
    expect(await bobs('gannet')).toHaveLength(2);
    await checkIndex();
  });

  it('indexes the waiting messages within seconds when nothing searches', async () => {
    await withoutCatchUp(async () => {
      await post('/api/chat', { message: 'The kingfisher flashes blue' }).expect(200);
      expect(await waiting()).toBe(2);
    });
    const deadline = Date.now() + 10_000;
    while ((await waiting()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await waiting()).toBe(0);
    expect(await indexed('kingfisher')).toBe(2);
  });
});
