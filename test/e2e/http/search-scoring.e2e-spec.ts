import { DataSource } from 'typeorm';
import { ConversationSearchRepository } from '../../../src/conversations/conversation-search.repository.js';
import { ALICE_KEY, auth, BOB_KEY, DIALECT, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

type Scored = Array<{ messageId: string | null; score: number }>;

/**
 * SQLite's search for common words: the walk through `messages_fts_owners` and the scores
 * computed from bm25's formula instead of bm25() must give the caller exactly what bm25() gave.
 */
(DIALECT === 'sqlite' ? describe : describe.skip)('SQLite search: owners of matches and bm25 scored from kept counts', () => {
  let t: TestApp;
  let tmp: ReturnType<typeof tempDir>;
  let ds: DataSource;
  let repo: ConversationSearchRepository;

  const chat = async (key: string, message: string, conversationId?: string) =>
    (await t.http().post('/api/chat').set(auth(key)).send({ message, conversationId }).expect(200)).body as { conversationId: string };
  const search = async (q: string, key = ALICE_KEY) =>
    (await t.http().get(`/api/conversations?q=${encodeURIComponent(q)}&limit=50`).set(auth(key)).expect(200)).body.items as Array<{ id: string; messageId: string; snippet: string }>;
  /** The statements of the last `candidates` call. */
  let statements: string[] = [];
  /** The caller's candidates, best first, scored here (`own`) or by bm25(); their statements in `statements`. */
  const candidates = (q: string, own: boolean): Promise<Scored> => {
    statements = [];
    const recording = new Proxy(ds.manager, {
      get: (target, name) => {
        if (name === 'query') return (text: string, params?: unknown[]) => (statements.push(text), target.query(text, params));
        const value: unknown = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return repo['sqliteMessages'](recording, 'api:alice', q, own) as Promise<Scored>;
  };
  /** Whether the last `candidates` call ranked with bm25() itself (own scoring fell back, or was not asked for). */
  const usedBm25 = () => statements.some((text) => text.includes('bm25(messages_fts)'));
  /** Rows of messages_fts_owners that differ from what messages and conversations say (either way). */
  const ownerMismatches = async () =>
    Number(
      (
        await ds.query(
          `SELECT count(*) AS n FROM (
             SELECT m.rowid AS mr, c.rowid AS cr FROM messages m JOIN conversations c ON c.id = m.conversation_id
             EXCEPT SELECT message_rowid, conversation_rowid FROM messages_fts_owners
             UNION ALL
             SELECT message_rowid, conversation_rowid FROM messages_fts_owners
             EXCEPT SELECT m.rowid, c.rowid FROM messages m JOIN conversations c ON c.id = m.conversation_id)`,
        )
      )[0].n,
    );

  beforeAll(async () => {
    tmp = tempDir();
    t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite` });
    ds = t.app.get(DataSource);
    repo = t.app.get(ConversationSearchRepository);
    // Words in different mixes and lengths, so that rows differ in frequency and length.
    const words = ['ravioli', 'basil', 'ravioli ravioli basil', 'basil sauce with ravioli and a long tail of other words here', 'ravioli'];
    for (let i = 0; i < 12; i++) {
      const id = (await chat(ALICE_KEY, `${words[i % words.length]} ${i}`)).conversationId;
      await chat(ALICE_KEY, `${words[(i + 2) % words.length]} again`, id);
      await chat(BOB_KEY, `bob ${words[(i + 1) % words.length]} ravioli`);
    }
  });
  afterEach(() => {
    repo.scoreFromHits = 100_000;
    repo.driveFromCallerRows = 2_000;
  });
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it('scores the caller\'s matches exactly as bm25() does, to the last bit, and answers the same', async () => {
    repo.scoreFromHits = Number.POSITIVE_INFINITY;
    const byBm25 = { one: await search('ravioli'), two: await search('Ravioli BASIL') };
    repo.scoreFromHits = 0;
    for (const q of ['ravioli', 'Ravioli BASIL', 'basil basil', 'again ravioli']) {
      const own = await candidates(q, true);
      expect(usedBm25()).toBe(false);
      expect(own.length).toBeGreaterThan(3);
      expect(own).toEqual(await candidates(q, false));
    }
    expect(await search('ravioli')).toEqual(byBm25.one);
    expect(await search('Ravioli BASIL')).toEqual(byBm25.two);
    expect(JSON.stringify(byBm25)).not.toContain('bob');
  });

  it("looks up a small caller's messages one by one, with the same candidates and scores as the walk over every actor's matches", async () => {
    repo.scoreFromHits = 0;
    const lookedUp: Record<string, Scored> = {};
    for (const q of ['ravioli', 'Ravioli BASIL', 'again ravioli', 'bob']) {
      lookedUp[q] = await candidates(q, true);
      expect(statements.some((text) => text.includes('own.rowid'))).toBe(true);
      expect(usedBm25()).toBe(false);
    }
    // Walking the index instead (the caller counts as large).
    repo.driveFromCallerRows = -1;
    for (const [q, scored] of Object.entries(lookedUp)) {
      expect(scored).toEqual(await candidates(q, true));
      expect(statements.some((text) => text.includes('own.rowid'))).toBe(false);
      expect(usedBm25()).toBe(false);
      expect(scored).toEqual(await candidates(q, false));
    }
    expect(lookedUp['ravioli'].length).toBeGreaterThan(10);
    // Bob's messages hold "bob": none of them is Alice's.
    expect(lookedUp['bob']).toEqual([]);
  });

  it('leaves to bm25() what it cannot read with certainty: a mark character in a message, a word FTS5 folds', async () => {
    repo.scoreFromHits = 0;
    const odd = (await chat(ALICE_KEY, 'ravioli \u0001ravioli\u0002 basil')).conversationId;
    expect(await candidates('ravioli', true)).toEqual(await candidates('ravioli', false));
    expect((await search('ravioli')).map((h) => h.id)).toContain(odd);
    const folded = (await chat(ALICE_KEY, 'Crème brûlée, creme brulee')).conversationId;
    expect((await search('creme')).map((h) => h.id)).toEqual([folded]);
    expect(await candidates('creme', true)).toEqual(await candidates('creme', false));
    expect(await candidates('crème', true)).toEqual(await candidates('crème', false));
  });

  it('keeps messages_fts_owners equal to the messages, through replies, branches and deletes', async () => {
    const id = (await chat(ALICE_KEY, 'gnocchi for the owners table')).conversationId;
    await chat(ALICE_KEY, 'more gnocchi', id);
    const gone = (await chat(BOB_KEY, 'a conversation to delete')).conversationId;
    await t.http().delete(`/api/conversations/${gone}`).set(auth(BOB_KEY)).expect(204);
    expect(Number((await ds.query(`SELECT count(*) AS n FROM messages_fts_owners`))[0].n)).toBeGreaterThan(50);
    expect(await ownerMismatches()).toBe(0);
    // Counted afresh after the deletes (FTS5's vocabulary table), the scores are still bm25()'s.
    const fresh = new ConversationSearchRepository();
    fresh.scoreFromHits = 0;
    const scored = (own: boolean) => fresh['sqliteMessages'](ds.manager, 'api:alice', 'ravioli basil', own) as Promise<Scored>;
    expect(await scored(true)).toEqual(await scored(false));
  });

  it("never returns another actor's message, even when messages_fts_owners is wrong", async () => {
    const bobs = (await chat(BOB_KEY, 'a conversation of Bob')).conversationId;
    await chat(BOB_KEY, 'the secret word is pappardelle', bobs);
    const alices = (await chat(ALICE_KEY, 'nothing to see')).conversationId;
    await ds.query(
      `UPDATE messages_fts_owners SET conversation_rowid = (SELECT rowid FROM conversations WHERE id = ?)
        WHERE message_rowid IN (SELECT rowid FROM messages WHERE conversation_id = ?)`,
      [alices, bobs],
    );
    expect(await search('pappardelle')).toEqual([]);
    // A wrong row can hide a match from its owner, never show it to someone else.
    expect(await search('pappardelle', BOB_KEY)).toEqual([]);
    // Rebuilt as docs/operations.md says, Bob finds it again.
    await ds.query(`DELETE FROM messages_fts_owners`);
    await ds.query(`INSERT INTO messages_fts_owners SELECT m.rowid, c.rowid FROM messages m JOIN conversations c ON c.id = m.conversation_id`);
    expect((await search('pappardelle', BOB_KEY)).map((h) => h.id)).toEqual([bobs]);
    expect(await ownerMismatches()).toBe(0);
  });

  it('the migration fills messages_fts_owners from the stored messages, and undoes cleanly', async () => {
    const before = await search('ravioli');
    const names = ds.migrations.map((m) => m.name ?? m.constructor.name);
    const index = names.findIndex((name) => /SearchOwners/.test(name));
    expect(index).toBeGreaterThan(0);
    for (let i = names.length - 1; i >= index; i--) await ds.undoLastMigration();
    expect(await ds.query(`SELECT name FROM sqlite_master WHERE name LIKE 'messages_fts_owners%' OR name = 'messages_fts_rows'`)).toEqual([]);
    await ds.runMigrations();
    expect(await ownerMismatches()).toBe(0);
    expect(await search('ravioli')).toEqual(before);
  });
});
