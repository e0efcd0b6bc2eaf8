import { randomUUID } from 'node:crypto';
import { Conversation } from '../../../src/conversations/conversation.entity.js';
import { Thread } from '../../../src/conversations/thread.entity.js';
import { linearChatGptConversation } from '../../../src/portability/archives/archive-builders.js';
import { DatabaseService } from '../../../src/database/database.service.js';
import { RETENTION_BATCH, RetentionService } from '../../../src/retention/retention.service.js';
import { ALICE_KEY, auth, BOB_KEY, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('RETENTION_DAYS', () => {
  let tmp: ReturnType<typeof tempDir>;

  beforeAll(() => {
    tmp = tempDir();
  });
  afterAll(() => tmp.remove());

  const chat = async (t: TestApp, key: string, message: string) =>
    (await t.http().post('/api/chat').set(auth(key)).send({ message }).expect(200)).body.conversationId as string;

  /** Moves a conversation's last update (and its threads') into the past, as if nobody had touched it since. */
  const age = (t: TestApp, id: string, days: number) =>
    t.app.get(DatabaseService).transaction(async (em) => {
      const updatedAt = new Date(Date.now() - days * DAY_MS);
      await em.update(Conversation, { id }, { updatedAt });
      await em.update(Thread, { conversationId: id }, { updatedAt });
    });

  it('deletes the conversations of every actor not updated for that many days, with their messages', async () => {
    const t = await startTestApp({ dbPath: `${tmp.dir}/retention.sqlite`, env: { RETENTION_DAYS: '30' } });
    try {
      expect(t.config.retentionDays).toBe(30);
      const aliceOld = await chat(t, ALICE_KEY, 'alice old');
      const aliceRecent = await chat(t, ALICE_KEY, 'alice recent');
      const aliceAlmost = await chat(t, ALICE_KEY, 'alice almost');
      const bobOld = await chat(t, BOB_KEY, 'bob old');
      await t
        .http()
        .patch(`/api/conversations/${aliceOld}`)
        .set(auth(ALICE_KEY))
        .send({ tags: ['old'], pinned: true })
        .expect(200);
      await age(t, aliceOld, 31);
      await age(t, bobOld, 45);
      await age(t, aliceAlmost, 29);

      const result = await t.app.get(RetentionService).sweep();
      expect(result).toEqual({ conversations: 2, messages: 4, memories: 0 });

      await t.http().get(`/api/conversations/${aliceOld}`).set(auth(ALICE_KEY)).expect(404);
      await t.http().get(`/api/conversations/${bobOld}`).set(auth(BOB_KEY)).expect(404);
      await t.http().get(`/api/conversations/${aliceRecent}`).set(auth(ALICE_KEY)).expect(200);
      const almost = (await t.http().get(`/api/conversations/${aliceAlmost}`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(almost.messages).toHaveLength(2);

      // Nothing more is due.
      expect(await t.app.get(RetentionService).sweep()).toEqual({ conversations: 0, messages: 0, memories: 0 });
      // A conversation used again is young again.
      await age(t, aliceAlmost, 40);
      await t
        .http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ message: 'still here', conversationId: aliceAlmost })
        .expect(200);
      expect(await t.app.get(RetentionService).sweep()).toEqual({ conversations: 0, messages: 0, memories: 0 });
    } finally {
      await t.close();
    }
  });

  it(`deletes in batches of ${RETENTION_BATCH} until none is left`, async () => {
    const t = await startTestApp({ dbPath: `${tmp.dir}/batches.sqlite`, env: { RETENTION_DAYS: '1' } });
    try {
      const old = new Date(Date.now() - 3 * DAY_MS);
      const total = 2 * RETENTION_BATCH + 10;
      await t.app.get(DatabaseService).transaction(async (em) => {
        for (let i = 0; i < total; i += 100) {
          const rows = Array.from({ length: Math.min(100, total - i) }, (_, n) => ({
            id: randomUUID(),
            actor: n % 2 ? 'api:alice' : 'api:bob',
            title: `old ${i + n}`,
            agentId: null,
            state: {},
            archived: false,
            pinned: false,
            lastSeq: 0,
            createdAt: old,
            updatedAt: old,
          }));
          await em.createQueryBuilder().insert().into(Conversation).values(rows).execute();
        }
      });
      const kept = await chat(t, ALICE_KEY, 'new');
      expect(await t.app.get(RetentionService).sweep()).toEqual({ conversations: total, messages: 0, memories: 0 });
      const left = (await t.http().get('/api/conversations?limit=100').set(auth(ALICE_KEY)).expect(200)).body.items;
      expect(left.map((c: { id: string }) => c.id)).toEqual([kept]);
      expect((await t.http().get('/api/conversations?limit=100').set(auth(BOB_KEY)).expect(200)).body.items).toEqual(
        [],
      );
    } finally {
      await t.close();
    }
  });

  it('counts an imported archive from its import, while the conversation shows the source’s last activity', async () => {
    const t = await startTestApp({ dbPath: `${tmp.dir}/imported.sqlite`, env: { RETENTION_DAYS: '30' } });
    try {
      // Used in ChatGPT two years ago (its messages at 1_700_000_000 s, November 2023).
      const archive = [linearChatGptConversation('gpt-old', 1)];
      const report = (
        await t
          .http()
          .post('/api/imports')
          .set(auth(ALICE_KEY))
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(archive))
          .expect(200)
      ).body;
      const id = report.imported[0].id as string;
      const listed = (await t.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200)).body.items;
      expect(listed).toEqual([
        expect.objectContaining({ id, updatedAt: new Date((archive[0].update_time as number) * 1000).toISOString() }),
      ]);

      expect(await t.app.get(RetentionService).sweep()).toEqual({ conversations: 0, messages: 0, memories: 0 });
      await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200);
      // 31 days after the import, untouched since: due like any other.
      await t.app
        .get(DatabaseService)
        .transaction((em) =>
          em.update(Thread, { conversationId: id }, { updatedAt: new Date(Date.now() - 31 * DAY_MS) }),
        );
      expect(await t.app.get(RetentionService).sweep()).toEqual({ conversations: 1, messages: 2, memories: 0 });
      await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(404);
    } finally {
      await t.close();
    }
  });

  it('is off by default: nothing is deleted, however old', async () => {
    const t = await startTestApp({ dbPath: `${tmp.dir}/off.sqlite` });
    try {
      expect(t.config.retentionDays).toBeNull();
      const id = await chat(t, ALICE_KEY, 'ancient');
      await age(t, id, 10_000);
      expect(await t.app.get(RetentionService).sweep()).toEqual({ conversations: 0, messages: 0, memories: 0 });
      await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200);
    } finally {
      await t.close();
    }
  });
});
