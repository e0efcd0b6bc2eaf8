import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { ALICE_KEY, auth, databaseUrlFor, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

const run = promisify(execFile);
/** Each CLI run starts Node and Nest and opens the database: seconds on a busy machine. */
const CLI_RUNS = 180_000;
const CLI = 'dist/src/surfaces/cli/keys.js';

/** `npm run keys` on the built code (the test command builds first), against the test database. */
const keys = (dbUrl: string, ...args: string[]) =>
  run('node', [CLI, ...args], { env: { ...process.env, DATABASE_URL: dbUrl } });

(existsSync(CLI) ? describe : describe.skip)('API keys kept in the database (npm run keys)', () => {
  let t: TestApp;
  let tmp: ReturnType<typeof tempDir>;
  let dbUrl: string;

  beforeAll(async () => {
    tmp = tempDir();
    const dbPath = `${tmp.dir}/chat.sqlite`;
    dbUrl = databaseUrlFor(dbPath);
    t = await startTestApp({ dbPath });
  });
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it(
    'creates a key shown once, lists keys without them, and revokes at once',
    async () => {
      const created = await keys(dbUrl, 'create', '--actor', 'carol', '--label', 'laptop');
      const [, id] = /Created key ([0-9a-f-]{36}) for actor api:carol/.exec(created.stdout) ?? [];
      const key = created.stdout.trim().split('\n').at(-1)!;
      expect(id).toBeDefined();
      expect(key).toMatch(/^cmk_[A-Za-z0-9_-]{43}$/);

      const own = await t.http().post('/api/chat').set(auth(key)).send({ message: 'hello from carol' }).expect(200);
      const list = await t.http().get('/api/conversations').set(auth(key)).expect(200);
      expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([own.body.conversationId]);
      // Another actor's key (from API_KEYS) keeps working and sees none of carol's.
      expect((await t.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200)).body.items).toEqual([]);

      const listed = await keys(dbUrl, 'list');
      expect(listed.stdout).toContain(`${id}  api:carol  active`);
      expect(listed.stdout).toContain('laptop');
      expect(listed.stdout).not.toContain(key);

      expect((await keys(dbUrl, 'revoke', id)).stdout).toContain(`Revoked key ${id}`);
      await t.http().get('/api/conversations').set(auth(key)).expect(401);
      expect((await keys(dbUrl, 'list')).stdout).toMatch(new RegExp(`${id}  api:carol  revoked`));
      await expect(keys(dbUrl, 'revoke', id)).rejects.toMatchObject({ code: 1 });
      await expect(keys(dbUrl, 'create', '--actor', 'bad name')).rejects.toMatchObject({ code: 64 });
      // A usage error is answered before any database is opened (none is made here).
      const unopened = `${tmp.dir}/never-opened.sqlite`;
      for (const usage of [['create', '--label', 'x'], ['revoke'], ['rotate']]) {
        await expect(keys(databaseUrlFor(unopened), ...usage)).rejects.toMatchObject({
          code: 64,
          stderr: expect.stringMatching(usage[0] === 'rotate' ? /^Usage: npm run keys/ : /^Error: \w+ needs /),
        });
      }
      expect(existsSync(unopened)).toBe(false);
    },
    CLI_RUNS,
  );
});

(existsSync(CLI) ? describe : describe.skip)(
  'the first key adopts the single-user history (npm run keys -- create --adopt)',
  () => {
    let t: TestApp;
    let tmp: ReturnType<typeof tempDir>;
    let dbUrl: string;

    beforeAll(async () => {
      tmp = tempDir();
      const dbPath = `${tmp.dir}/single.sqlite`;
      dbUrl = databaseUrlFor(dbPath);
      // No API_KEYS: single-user mode until a key is made.
      t = await startTestApp({ dbPath, env: { API_KEYS: '' } });
    });
    afterAll(async () => {
      await t.close();
      tmp.remove();
    });

    it(
      'moves every row of the single-user actor to the new key, in one go, and says so',
      async () => {
        const http = () => t.http();
        const agent = (await http().post('/api/agents').send({ name: 'Helper' }).expect(201)).body;
        const first = (
          await http().post('/api/chat').send({ message: 'my zebra named Ziggy', agentId: agent.id }).expect(200)
        ).body;
        const second = (
          await http().post('/api/chat').set('Idempotency-Key', 'retry-1').send({ message: 'second chat' }).expect(200)
        ).body;
        await http().post('/api/memories').send({ text: 'Lives in Lisbon' }).expect(201);
        const share = (await http().post(`/api/conversations/${first.conversationId}/shares`).send({}).expect(201))
          .body;

        // Before any key: list names who holds conversations.
        expect((await keys(dbUrl, 'list')).stdout).toMatch(/api:owner holds 2 conversations/);

        const created = await keys(dbUrl, 'create', '--actor', 'alice', '--adopt');
        const key = created.stdout.trim().split('\n').at(-1)!;
        expect(key).toMatch(/^cmk_/);
        expect(created.stdout).toMatch(
          /Moved the single-user history \(api:owner\) to api:alice: 2 conversations, 4 messages, 1 agent, 1 memory, 1 share link/,
        );

        // The open page is locked now, and its key dialog says how keys are made and how history is adopted.
        await http().get('/api/conversations').expect(401);
        const page = (await http().get('/').expect(200)).text;
        expect(page).toContain('npm run keys -- create --actor NAME --adopt');
        expect(page).toMatch(/one of its <code>API_KEYS<\/code>.*or one made with <code>npm run keys<\/code>/s);

        // With alice's key everything is there: conversations, messages, search, agents, memories, shares, idempotency keys.
        const alice = auth(key);
        const list = (await http().get('/api/conversations').set(alice).expect(200)).body.items.map(
          (c: { id: string }) => c.id,
        );
        expect(list.sort()).toEqual([first.conversationId, second.conversationId].sort());
        const messages = (await http().get(`/api/conversations/${first.conversationId}`).set(alice).expect(200)).body
          .messages;
        expect(messages.map((m: { content: string }) => m.content)[0]).toBe('my zebra named Ziggy');
        const found = (await http().get('/api/search').query({ q: 'zebra Ziggy' }).set(alice).expect(200)).body.items;
        expect(found.map((f: { conversationId: string }) => f.conversationId)).toContain(first.conversationId);
        expect(
          (await http().get('/api/agents').set(alice).expect(200)).body.items.map((a: { id: string }) => a.id),
        ).toEqual([agent.id]);
        expect(
          (await http().get('/api/memories').set(alice).expect(200)).body.items.map((m: { text: string }) => m.text),
        ).toEqual(['Lives in Lisbon']);
        expect(
          (await http().get(`/api/conversations/${first.conversationId}/shares`).set(alice).expect(200)).body.items,
        ).toHaveLength(1);
        await http().get(`/api/shared/${share.token}`).expect(200);
        const replayed = (
          await http()
            .post('/api/chat')
            .set(alice)
            .set('Idempotency-Key', 'retry-1')
            .send({ message: 'second chat' })
            .expect(200)
        ).body;
        expect(replayed.conversationId).toBe(second.conversationId);
        // The conversation goes on as alice's.
        await http()
          .post('/api/chat')
          .set(alice)
          .send({ message: 'and on', conversationId: first.conversationId })
          .expect(200);

        const listed = (await keys(dbUrl, 'list')).stdout;
        expect(listed).toMatch(/api:alice holds 2 conversations/);
        expect(listed).not.toMatch(/api:owner holds/);

        // A later key finds nothing left to adopt, and says so.
        const again = await keys(dbUrl, 'create', '--actor', 'bob', '--adopt');
        expect(again.stdout).toContain('api:owner holds nothing: nothing moved.');
        expect(
          (
            await http()
              .get('/api/conversations')
              .set(auth(again.stdout.trim().split('\n').at(-1)!))
              .expect(200)
          ).body.items,
        ).toEqual([]);
      },
      CLI_RUNS,
    );
  },
);
