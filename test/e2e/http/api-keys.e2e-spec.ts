import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { ALICE_KEY, auth, databaseUrlFor, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

const run = promisify(execFile);
const CLI = 'dist/src/surfaces/cli/keys.js';

/** `npm run keys` on the built code (the test command builds first), against the test database. */
const keys = (dbUrl: string, ...args: string[]) => run('node', [CLI, ...args], { env: { ...process.env, DATABASE_URL: dbUrl } });

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

  it('creates a key shown once, lists keys without them, and revokes at once', async () => {
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
    await expect(keys(dbUrl, 'create')).rejects.toMatchObject({ code: 64 });
    await expect(keys(dbUrl, 'create', '--actor', 'bad name')).rejects.toMatchObject({ code: 64 });
  });
});
