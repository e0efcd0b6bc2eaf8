import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { startBuiltServer, type ServerProcess } from '../../support/server-process.js';
import { ALICE_KEY, databaseUrlFor, tempDir } from '../../support/test-app.js';

/** The built server's own output (npm run build first): what an operator sees in a log collector. */
describe('logs of the built server', () => {
  let fake: FakeOpenAiServer;
  let tmp: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
  });
  afterEach(async () => {
    await server?.stop('SIGTERM');
    server = undefined;
  });
  afterAll(async () => {
    await fake.close();
    tmp.remove();
  });

  const start = (env: Record<string, string>) =>
    startBuiltServer({
      DATABASE_URL: databaseUrlFor(`${tmp.dir}/${Object.values(env).join('-') || 'default'}.sqlite`),
      API_KEYS: `alice:${ALICE_KEY}`,
      LLM_BASE_URL: fake.url,
      LLM_API_KEY: 'sk-test-secret',
      LLM_MAX_RETRIES: '0',
      SUMMARY_MODE: 'off',
      ...env,
    });
  const failTurn = async (url: string) => {
    fake.enqueue({ kind: 'status', status: 500, message: 'boom' });
    const res = await fetch(`${url}/api/chat`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ALICE_KEY}`, 'Content-Type': 'application/json', 'X-Request-Id': 'trace-42' },
      body: JSON.stringify({ message: 'a secret question' }),
    });
    expect(res.status).toBe(502);
  };
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  };

  it('starts with one line, no colours, and names the request and actor on lines written while serving it', async () => {
    server = await start({});
    // The line may reach the pipe a moment after the port answers.
    const started = server;
    await until(() => /Listening on/.test(started.output()));
    const startUp = server.output();
    expect(startUp).not.toMatch(/\x1b\[/);
    expect(startUp).not.toMatch(/RouterExplorer|RoutesResolver|InstanceLoader/);
    expect(startUp).toMatch(/Listening on http:\/\/127\.0\.0\.1:\d+/);
    // One line at the default level, naming where it listens, the model and the keys.
    expect(startUp.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`Listening on http://127\\.0\\.0\\.1:\\d+ with model \\S+ at ${fake.url.replace(/[.]/g, '\\.')}`),
      ),
    ]);

    await failTurn(server.url);
    await until(() => /POST \/api\/chat 502/.test(server!.output()));
    const failed = server
      .output()
      .split('\n')
      .find((line) => line.includes('[ReplyGenerator]') && line.includes('failed'));
    expect(failed).toMatch(/actor=api:alice request=trace-42$/);
    expect(server.output()).not.toContain('a secret question');
    expect(server.output()).not.toContain(ALICE_KEY);
  });

  it('writes JSON objects with requestId and actor fields with LOG_FORMAT=json, and the route lines at LOG_LEVEL=debug', async () => {
    server = await start({ LOG_FORMAT: 'json', LOG_LEVEL: 'debug' });
    await failTurn(server.url);
    await until(() => /POST \/api\/chat 502/.test(server!.output()));
    const records = server
      .output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.some((r) => r.context === 'RouterExplorer')).toBe(true);
    expect(records.find((r) => r.context === 'ReplyGenerator' && String(r.message).includes('failed'))).toMatchObject({
      level: 'warn',
      requestId: 'trace-42',
      actor: 'api:alice',
    });
  });
});
