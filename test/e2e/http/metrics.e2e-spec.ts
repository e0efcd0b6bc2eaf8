import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { deltaText, openEventStream } from '../../support/sse-client.js';
import { ALICE_KEY, auth, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

const TOKEN = 'scrape-token-0123456789';

/** The Prometheus text format: `# HELP`/`# TYPE` comments and `name{labels} value` samples. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (-?[0-9.e+-]+|NaN|[+-]Inf)$/.exec(line);
    if (!match) throw new Error(`Not an exposition line: ${line}`);
    samples.set(match[1], Number(match[2]));
  }
  return samples;
}

describe('GET /metrics (Prometheus)', () => {
  let fake: FakeOpenAiServer;
  let tmp: ReturnType<typeof tempDir>;
  const apps: TestApp[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const app = await startTestApp({ dbPath: `${tmp.dir}/chat-${apps.length}.sqlite`, llmBaseUrl: fake.url, env });
    apps.push(app);
    return app;
  };
  const scrape = async (app: TestApp) => {
    const res = await app.http().get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(res.text);
  };

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await fake.close();
    tmp.remove();
  });
  beforeEach(() => fake.reset());

  it('counts turns, tokens, model calls, time to first token, commits and errors, per app', async () => {
    const app = await start();
    const other = await start();
    fake.enqueue(
      { kind: 'reply', text: 'hello', usage: { prompt_tokens: 11, completion_tokens: 4 } },
      { kind: 'status', status: 500, message: 'boom' },
    );
    await app.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'hi' }).expect(200);
    await app.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'again' }).expect(502);
    await app.http().get('/api/conversations/00000000-0000-4000-8000-000000000000').set(auth(ALICE_KEY)).expect(404);

    const m = await scrape(app);
    expect(m.get('chat_turns_total{outcome="complete"}')).toBe(1);
    expect(m.get('chat_turns_total{outcome="failed"}')).toBe(1);
    expect(m.get('chat_turn_duration_seconds_count{outcome="complete"}')).toBe(1);
    expect(m.get('llm_tokens_total{direction="prompt"}')).toBe(11);
    expect(m.get('llm_tokens_total{direction="completion"}')).toBe(4);
    expect(m.get('llm_request_duration_seconds_count{result="ok"}')).toBe(1);
    expect(m.get('llm_request_duration_seconds_count{result="error"}')).toBe(1);
    expect(m.get('chat_time_to_first_token_seconds_count')).toBe(1);
    expect(m.get('db_commit_duration_seconds_count')).toBeGreaterThanOrEqual(4);
    expect(m.get('db_queue_depth')).toBe(0);
    expect(m.get('http_errors_total{status="502",code="chat_turn_failed"}')).toBe(1);
    expect(m.get('http_errors_total{status="404",code="conversation_not_found"}')).toBe(1);
    expect(m.get('http_active_streams')).toBe(0);
    expect(m.get('chat_active_followers')).toBe(0);
    // The other app in this process keeps its own registry.
    expect((await scrape(other)).get('chat_turns_total{outcome="complete"}')).toBeUndefined();
  });

  it('counts open streams while a reply streams, and none after', async () => {
    const app = await start();
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    fake.enqueue({ kind: 'stream', chunks: ['a', 'b'], hold });
    const res = await openEventStream(`${await app.url()}/api/chat/stream`, {
      method: 'POST',
      headers: auth(ALICE_KEY),
      body: { message: 'hi' },
    });
    expect((await scrape(app)).get('http_active_streams')).toBe(1);
    release();
    expect(deltaText(await res.collect())).toBe('ab');
    expect((await scrape(app)).get('http_active_streams')).toBe(0);
  });

  it('counts a follower while it follows a reply, and none after', async () => {
    const app = await start({ STREAM_FLUSH_MS: '30' });
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    fake.enqueue({ kind: 'stream', chunks: ['a', 'b'], hold });
    const base = await app.url();
    const client = await openEventStream(`${base}/api/chat/stream`, {
      method: 'POST',
      headers: auth(ALICE_KEY),
      body: { message: 'hi' },
    });
    const { conversationId, messageId } = (await client.next())!.data as { conversationId: string; messageId: string };
    const follower = await openEventStream(`${base}/api/conversations/${conversationId}/messages/${messageId}/stream`, {
      headers: auth(ALICE_KEY),
    });
    expect(follower.status).toBe(200);
    expect((await scrape(app)).get('chat_active_followers')).toBe(1);
    expect((await scrape(app)).get('http_active_streams')).toBe(2);
    release();
    await client.collect();
    await follower.collect();
    expect((await scrape(app)).get('chat_active_followers')).toBe(0);
  });

  it('is public on loopback without METRICS_TOKEN, refused to a forwarded outside caller, and absent from the API document', async () => {
    const app = await start({ TRUST_PROXY: 'loopback' });
    await app.http().get('/metrics').expect(200);
    const outside = await app.http().get('/metrics').set('X-Forwarded-For', '203.0.113.5').expect(403);
    expect(outside.body.message).toMatch(/METRICS_TOKEN/);
    const spec = (await app.http().get('/api/docs-json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths)).not.toContain('/metrics');
  });

  it('refuses a loopback caller that names another host (a DNS-rebinding page), with API keys configured too', async () => {
    // The test apps have API keys, so the Host/Origin guard of single-user mode lets these through to the route.
    const app = await start();
    for (const [header, value] of [
      ['Host', 'attacker.example'],
      ['Host', 'attacker.example:3000'],
      ['Origin', 'http://attacker.example'],
    ]) {
      const res = await app.http().get('/metrics').set(header, value).expect(403);
      expect({ header, code: res.body.code, message: res.body.message }).toEqual({
        header,
        code: 'forbidden',
        message: expect.stringMatching(/METRICS_TOKEN/),
      });
    }
    // This machine's names, and the operator's own (ALLOWED_HOSTS), still read it.
    await app.http().get('/metrics').set('Host', 'localhost:3000').expect(200);
    await app.http().get('/metrics').set('Origin', 'http://127.0.0.1:3000').expect(200);
    await (
      await start({ ALLOWED_HOSTS: 'chat.example.com' })
    )
      .http()
      .get('/metrics')
      .set('Host', 'chat.example.com')
      .expect(200);
    // With METRICS_TOKEN the token decides, under any Host.
    const tokened = await start({ METRICS_TOKEN: TOKEN });
    await tokened.http().get('/metrics').set('Host', 'attacker.example').expect(401);
    await tokened.http().get('/metrics').set('Host', 'metrics.internal').set(auth(TOKEN)).expect(200);
  });

  it('needs Authorization: Bearer <METRICS_TOKEN> once it is set, even on loopback', async () => {
    const app = await start({ METRICS_TOKEN: TOKEN });
    const none = await app.http().get('/metrics').expect(401);
    expect(none.body.message).toMatch(/Bearer <METRICS_TOKEN>/);
    await app
      .http()
      .get('/metrics')
      .set(auth(`${TOKEN}x`))
      .expect(401);
    await app.http().get('/metrics').set(auth(ALICE_KEY)).expect(401);
    await app.http().get('/metrics').set(auth(TOKEN)).expect(200);
  });
});
