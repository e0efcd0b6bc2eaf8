import type { LoggerService } from '@nestjs/common';
import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { ALICE_KEY, auth, BOB_KEY, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';
import { until } from '../../support/until.js';

describe('hardening: headers, CORS, rate limit, quotas, request logs', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.remove());

  const withApp = async (env: Record<string, string>, body: (t: TestApp) => Promise<void>, logger?: LoggerService) => {
    const t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, env, logger });
    try {
      await body(t);
    } finally {
      await t.close();
    }
  };

  it('closes a connection whose headers do not arrive in time fully (Slowloris), after a JSON 408', async () => {
    await withApp({}, async (t) => {
      const server = t.app.getHttpServer() as Server & { connectionsCheckingInterval: number };
      // Low, so the test does not wait out Node's minute (set before it listens: the check timer starts then).
      server.headersTimeout = 300;
      server.connectionsCheckingInterval = 50;
      const url = new URL(await t.url());
      const open = (head: string) => {
        // A client that never ends its side: only the server can free the connection.
        const socket: Socket = connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
        const seen = { text: '', ended: false };
        socket.on('data', (chunk: Buffer) => (seen.text += chunk.toString('utf8')));
        socket.on('end', () => (seen.ended = true));
        socket.on('error', () => undefined);
        socket.write(head);
        return { socket, seen };
      };
      const connections = () =>
        new Promise<number>((resolve, reject) =>
          server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
        );
      const clients = [
        open('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n'),
        open('GET /health HTTP/1.1\r\nHost: 127.0'),
      ];
      try {
        await until(() => clients.every((c) => c.seen.ended), 10_000);
        for (const { seen } of clients) {
          expect(seen.text).toMatch(/^HTTP\/1\.1 408 /);
          expect(JSON.parse(seen.text.slice(seen.text.indexOf('\r\n\r\n') + 4))).toMatchObject({
            statusCode: 408,
            code: 'request_timeout',
          });
        }
        // The server let go of the connections although the clients keep theirs open.
        await until(async () => (await connections()) === 0, 5_000);
      } finally {
        for (const { socket } of clients) socket.destroy();
      }
      // And it still serves.
      await t.http().get('/health').expect(200);
    });
  });

  it('sends security headers: a strict policy for the API, a looser one for the docs pages', async () => {
    await withApp({}, async (t) => {
      const api = await t.http().get('/health').expect(200);
      expect(api.headers['content-security-policy']).toContain("default-src 'self'");
      expect(api.headers['content-security-policy']).toContain("script-src 'self';");
      expect(api.headers['x-content-type-options']).toBe('nosniff');
      expect(api.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(api.headers['x-powered-by']).toBeUndefined();
      const docs = await t.http().get('/api/docs').expect(200);
      expect(docs.headers['content-security-policy']).toContain("'unsafe-inline'");
    });
  });

  it('allows no cross-origin caller by default, and exactly CORS_ORIGINS when set', async () => {
    await withApp({}, async (t) => {
      const res = await t.http().get('/health').set('Origin', 'https://evil.example');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
    await withApp({ CORS_ORIGINS: 'https://app.example.com' }, async (t) => {
      const ok = await t
        .http()
        .options('/api/chat')
        .set('Origin', 'https://app.example.com')
        .set('Access-Control-Request-Method', 'POST');
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
      const other = await t.http().get('/health').set('Origin', 'https://evil.example');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  it('limits requests per actor per minute: 429 with Retry-After and the JSON error body', async () => {
    await withApp({ RATE_LIMIT_PER_MINUTE: '3' }, async (t) => {
      for (let i = 0; i < 3; i++) await t.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200);
      const refused = await t.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(429);
      expect(refused.body).toMatchObject({
        statusCode: 429,
        error: 'Too Many Requests',
        code: 'too_many_requests',
        message: expect.stringMatching(/retry in \d+ s/),
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another actor has a budget of its own.
      await t.http().get('/api/conversations').set(auth(BOB_KEY)).expect(200);
    });
  });

  it('limits failed authentications per client address: then 429 with Retry-After, even for a good key', async () => {
    await withApp({ AUTH_FAILURES_PER_MINUTE: '3', TRUST_PROXY: 'loopback' }, async (t) => {
      const from = (address: string) => ({ 'X-Forwarded-For': address });
      for (let i = 0; i < 3; i++)
        await t
          .http()
          .get('/api/conversations')
          .set(from('203.0.113.7'))
          .set(auth(`wrong-key-${i}-0000`))
          .expect(401);
      const refused = await t
        .http()
        .get('/api/conversations')
        .set(from('203.0.113.7'))
        .set(auth('wrong-key-3-0000'))
        .expect(429);
      expect(refused.body).toMatchObject({
        statusCode: 429,
        error: 'Too Many Requests',
        message: expect.stringMatching(/AUTH_FAILURES_PER_MINUTE.*retry in \d+ s/),
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      // The address is refused before its key is even looked at.
      await t.http().get('/api/conversations').set(from('203.0.113.7')).set(auth(ALICE_KEY)).expect(429);
      await t.http().get('/api/conversations').set(from('203.0.113.7')).expect(429);
      // Other addresses keep their own budget, and the probes are never refused.
      await t.http().get('/api/conversations').set(from('198.51.100.2')).set(auth(ALICE_KEY)).expect(200);
      await t.http().get('/api/conversations').set(from('198.51.100.2')).set(auth('wrong-key-x-0000')).expect(401);
      await t.http().get('/health').set(from('203.0.113.7')).expect(200);
    });
  });

  it('never limits /health nor the docs, however many requests and failed authentications an address sends', async () => {
    await withApp({ RATE_LIMIT_PER_MINUTE: '2', AUTH_FAILURES_PER_MINUTE: '2' }, async (t) => {
      for (let i = 0; i < 3; i++) await t.http().get('/api/conversations').set(auth('wrong-key-flood-00'));
      await t.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(429); // the address is now refused
      const probes = await Promise.all(Array.from({ length: 60 }, () => t.http().get('/health')));
      expect(probes.map((r) => r.status)).toEqual(Array(60).fill(200));
      for (const r of probes) expect(r.headers['ratelimit']).toBeUndefined();
      await t.http().get('/api/docs-json').expect(200);
      await t.http().get('/api/docs').expect(200);
    });
  });

  it('enforces MAX_CONVERSATIONS_PER_ACTOR and MAX_MESSAGES_PER_CONVERSATION with a clear 409, storing nothing', async () => {
    await withApp({ MAX_CONVERSATIONS_PER_ACTOR: '2', MAX_MESSAGES_PER_CONVERSATION: '4' }, async (t) => {
      const first = (await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'one' }).expect(200)).body
        .conversationId;
      await t.http().post('/api/conversations').set(auth(ALICE_KEY)).send({}).expect(201);
      const third = await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'three' }).expect(409);
      expect(third.body.message).toMatch(/limit of 2 conversations \(MAX_CONVERSATIONS_PER_ACTOR\)/);
      await t.http().post('/api/conversations').set(auth(ALICE_KEY)).send({}).expect(409);
      await t.http().post('/api/chat').set(auth(BOB_KEY)).send({ message: 'bob has his own quota' }).expect(200);

      await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'two', conversationId: first }).expect(200);
      const full = await t
        .http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ message: 'overflow', conversationId: first })
        .expect(409);
      expect(full.body.message).toMatch(/limit of 4 messages/);
      const stored = (await t.http().get(`/api/conversations/${first}`).set(auth(ALICE_KEY)).expect(200)).body.messages;
      expect(stored).toHaveLength(4);
    });
  });

  it('logs one line per request with a request id and the actor, never a key or any content', async () => {
    const logger = new CapturingLogger();
    await withApp(
      {},
      async (t) => {
        const secretText = 'my secret diary entry number 4711';
        const res = await t
          .http()
          .post('/api/chat')
          .set(auth(ALICE_KEY))
          .set('X-Request-Id', 'trace-123')
          .send({ message: secretText })
          .expect(200);
        expect(res.headers['x-request-id']).toBe('trace-123');
        const other = await t
          .http()
          .get(`/api/conversations?q=${encodeURIComponent('diary')}`)
          .set(auth(ALICE_KEY))
          .expect(200);
        expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        await t.http().get('/api/conversations').set(auth('wrong-key-000000')).expect(401);

        const http = logger.lines.filter((l) => l.includes('request='));
        expect(http.find((l) => l.includes('trace-123'))).toMatch(
          /^POST \/api\/chat 200 [\d.]+ms actor=api:alice request=trace-123/,
        );
        expect(http.some((l) => l.startsWith('GET /api/conversations 401'))).toBe(true);
        const all = logger.lines.join('\n');
        for (const secret of [ALICE_KEY, 'wrong-key-000000', secretText, 'diary', 'Bearer', 'sk-test-secret'])
          expect(all).not.toContain(secret);
      },
      logger,
    );
  });
});
