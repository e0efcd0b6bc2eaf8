import { connect } from 'node:net';
import { ApiKeysService } from '../../../src/actor-auth/api-keys.service.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { sendRaw, type RawAnswer } from '../../support/raw-http.js';
import { routeBody, routePath, specRoutes, type RouteIds, type SpecRoute } from '../../support/spec-routes.js';
import { userMaker, useTelegramApp } from '../../support/telegram-fixture.js';
import { ALICE_KEY, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

/**
 * DNS rebinding: a page on a domain the attacker controls re-resolves it to 127.0.0.1 and is
 * then same-origin with the service. Its requests still carry the attacker's Host (and, on
 * writes, its Origin), so single-user mode answers only loopback names.
 */

/** Routes of the service that are not in the spec: the web page, its files, the API docs, a 404. */
const PAGES = ['/', '/index.html', '/app.js', '/vendor/marked.esm.js', '/api/docs', '/api/docs-json', '/no-such-file'];

const FORGED_HOSTS = [
  'attacker.example:3000',
  'attacker.example',
  'ATTACKER.example.',
  'localhost.attacker.example',
  '127.0.0.1.nip.io:3000',
  'evil.localhost:3000',
  '0.0.0.0:3000',
  '192.168.1.20',
  '[::]:3000',
  '::1', // IPv6 without brackets is not a valid Host
  '[::1',
  'localhost:3000:1',
  'localhost:http',
  'localhost:',
  'local host',
  'user@localhost',
  'localhost/',
];

const FOREIGN_ORIGINS = [
  'http://attacker.example:3000',
  'https://attacker.example',
  'http://localhost.attacker.example',
  'http://127.0.0.1.nip.io',
  'null',
  'file://',
  'chrome-extension://abcdefghijklmnop',
  'http://localhost:3000/path',
];

const LOOPBACK_HOSTS = [
  'localhost',
  'localhost:3000',
  'LOCALHOST:3000',
  'localhost.:3000',
  '127.0.0.1',
  '127.0.0.1:3000',
  '127.0.0.2:80',
  '[::1]',
  '[::1]:3000',
  '[0:0:0:0:0:0:0:1]:3000',
];
const LOOPBACK_ORIGINS = ['http://localhost:3000', 'http://127.0.0.1:5173', 'https://localhost', 'http://[::1]:3000'];

/** A call to `route` with exactly these headers (Host included), its body as JSON. */
function callRoute(base: string, route: SpecRoute, ids: RouteIds, headers: Record<string, string>): Promise<RawAnswer> {
  const body = routeBody(route, ids);
  return sendRaw(base, {
    method: route.method.toUpperCase(),
    path: routePath(route, ids),
    headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

/** Writes `head` (request line and headers) on a socket of its own and reads the answer until the server closes. */
function rawExchange(base: string, head: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(`${head}\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

function expectRefusal(answer: RawAnswer, what: string, label: string): void {
  expect({ label, status: answer.status }).toEqual({ label, status: 403 });
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(answer.text)).toEqual({
    statusCode: 403,
    error: 'Forbidden',
    code: 'forbidden',
    message: expect.stringContaining(what),
  });
}

describe('single-user mode: only loopback Hosts and Origins (DNS rebinding)', () => {
  const fixture = useAppWithFakeModel({ API_KEYS: '' });
  let base: string;
  let ids: RouteIds;
  const routes = specRoutes();

  /** What an attacker could have read or changed, as the owner sees it through 127.0.0.1. */
  const snapshot = async () => {
    const get = async (path: string) => JSON.parse((await sendRaw(base, { method: 'GET', path, headers: {} })).text);
    return {
      conversations: await get('/api/conversations?limit=100'),
      agents: await get('/api/agents'),
      messages: await get(`/api/conversations/${ids.conversation}/messages`),
      state: await get(`/api/conversations/${ids.conversation}/state`),
      usage: (await get('/api/usage')).totals,
    };
  };

  beforeAll(async () => {
    const t = fixture.app;
    base = await t.url();
    const chat = await t.http().post('/api/chat').send({ message: 'my private plan' }).expect(200);
    const agent = await t.http().post('/api/agents').send({ name: 'Mine' }).expect(201);
    const exported = (await t.http().get(`/api/conversations/${chat.body.conversationId}/export`).expect(200)).body;
    ids = { conversation: chat.body.conversationId, message: chat.body.messageId, agent: agent.body.id, exported };
  });

  it('walks every route of the spec', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.map((r) => r.operationId)).toEqual(
      expect.arrayContaining(['chat', 'listConversations', 'health', 'importConversation']),
    );
  });

  it('refuses a forged Host with a JSON 403 on every route, the page and the docs, and stores nothing', async () => {
    const before = await snapshot();
    for (const host of FORGED_HOSTS) {
      for (const route of routes) {
        expectRefusal(await callRoute(base, route, ids, { Host: host }), 'Host', `${host} ${route.operationId}`);
      }
      for (const path of PAGES)
        expectRefusal(await sendRaw(base, { method: 'GET', path, headers: { Host: host } }), 'Host', `${host} ${path}`);
    }
    // A CORS preflight too.
    const preflight = await sendRaw(base, {
      method: 'OPTIONS',
      path: '/api/chat',
      headers: {
        Host: 'attacker.example:3000',
        Origin: 'http://attacker.example:3000',
        'Access-Control-Request-Method': 'POST',
      },
    });
    expectRefusal(preflight, 'Host', 'preflight');
    expect(fixture.fake.completions).toHaveLength(0);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a foreign Origin on a loopback Host on every route and the page, and stores nothing', async () => {
    const before = await snapshot();
    for (const origin of FOREIGN_ORIGINS) {
      for (const route of routes) {
        expectRefusal(
          await callRoute(base, route, ids, { Host: new URL(base).host, Origin: origin }),
          'Origin',
          `${origin} ${route.operationId}`,
        );
      }
      expectRefusal(
        await sendRaw(base, { method: 'GET', path: '/', headers: { Origin: origin } }),
        'Origin',
        `${origin} /`,
      );
    }
    expect(fixture.fake.completions).toHaveLength(0);
    expect(await snapshot()).toEqual(before);
  });

  it('does not read the body of a refused request', async () => {
    // Malformed JSON would be a 400 from the body parser: the refusal comes first.
    const answer = await sendRaw(base, {
      method: 'POST',
      path: '/api/chat',
      headers: { Host: 'attacker.example', 'Content-Type': 'application/json' },
      body: '{not json',
    });
    expectRefusal(answer, 'Host', 'malformed body');
  });

  it('answers loopback names and addresses, in any case, with or without a port, a trailing dot or an Origin of its own', async () => {
    for (const host of LOOPBACK_HOSTS) {
      const answer = await sendRaw(base, { method: 'GET', path: '/api/conversations', headers: { Host: host } });
      expect({ host, status: answer.status }).toEqual({ host, status: 200 });
      expect(JSON.parse(answer.text).items.map((c: { id: string }) => c.id)).toEqual([ids.conversation]);
    }
    for (const origin of LOOPBACK_ORIGINS) {
      const answer = await sendRaw(base, {
        method: 'POST',
        path: '/api/chat',
        headers: { Host: 'localhost:3000', Origin: origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ message: `from ${origin}`, conversationId: ids.conversation }),
      });
      expect({ origin, status: answer.status }).toEqual({ origin, status: 200 });
    }
    expect((await sendRaw(base, { method: 'GET', path: '/', headers: { Host: 'localhost' } })).status).toBe(200);
  });

  it('answers an HTTP/1.0 request without Host (only non-browser clients send none), but not an empty Host or a foreign Origin', async () => {
    expect(await rawExchange(base, 'GET /api/conversations HTTP/1.0\r\n')).toMatch(/^HTTP\/1\.[01] 200 /);
    expect(await rawExchange(base, 'GET /api/conversations HTTP/1.0\r\nOrigin: http://attacker.example\r\n')).toMatch(
      /^HTTP\/1\.[01] 403 /,
    );
    const empty = await rawExchange(base, 'GET /api/conversations HTTP/1.1\r\nHost: \r\nConnection: close\r\n');
    expect(empty).toMatch(/^HTTP\/1\.1 403 /);
    expect(empty).toContain('"statusCode":403');
  });
});

describe('the host rule outside plain single-user mode', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.remove());

  const withApp = async (env: Record<string, string>, body: (t: TestApp, base: string) => Promise<void>) => {
    const t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, env });
    try {
      await body(t, await t.url());
    } finally {
      await t.close();
    }
  };
  const list = (base: string, headers: Record<string, string>) =>
    sendRaw(base, { method: 'GET', path: '/api/conversations', headers });

  it('adds the names of ALLOWED_HOSTS (any case, port or trailing dot), and their origins', async () => {
    await withApp({ API_KEYS: '', ALLOWED_HOSTS: 'chat.example.com, [fd00::7]' }, async (_t, base) => {
      for (const host of [
        'chat.example.com',
        'Chat.Example.COM:443',
        'chat.example.com.',
        '[fd00::7]:3000',
        'localhost:3000',
      ]) {
        expect({ host, status: (await list(base, { Host: host })).status }).toEqual({ host, status: 200 });
      }
      expect((await list(base, { Host: 'chat.example.com', Origin: 'https://chat.example.com' })).status).toBe(200);
      expectRefusal(await list(base, { Host: 'api.chat.example.com' }), 'Host', 'subdomain');
      expectRefusal(await list(base, { Host: 'attacker.example' }), 'Host', 'other');
      expectRefusal(
        await list(base, { Host: 'chat.example.com', Origin: 'https://attacker.example' }),
        'Origin',
        'origin',
      );
    });
  });

  it('lets the origins of CORS_ORIGINS call in single-user mode', async () => {
    await withApp({ API_KEYS: '', CORS_ORIGINS: 'https://app.example.com' }, async (_t, base) => {
      const ok = await list(base, { Origin: 'https://app.example.com' });
      expect(ok.status).toBe(200);
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expectRefusal(await list(base, { Origin: 'https://other.example.com' }), 'Origin', 'other origin');
      // CORS_ORIGINS names origins, not hosts.
      expectRefusal(await list(base, { Host: 'app.example.com' }), 'Host', 'cors host');
    });
  });

  it('stops applying as soon as a key is stored (npm run keys), and applies again once it is revoked', async () => {
    await withApp({ API_KEYS: '' }, async (t, base) => {
      const foreign = { Host: 'proxy.example.com', Origin: 'https://proxy.example.com' };
      expectRefusal(await list(base, foreign), 'Host', 'single-user');
      const keys = t.app.get(ApiKeysService);
      const created = await keys.create('ops');
      // The key is now the protection: without it 401, with it 200.
      expect((await list(base, foreign)).status).toBe(401);
      expect((await list(base, { ...foreign, Authorization: `Bearer ${created.key}` })).status).toBe(200);
      await keys.revoke(created.id);
      expectRefusal(await list(base, foreign), 'Host', 'after revoke');
    });
  });

  it('changes nothing with API keys, unless ALLOWED_HOSTS is set', async () => {
    const withKey = { Authorization: `Bearer ${ALICE_KEY}` };
    await withApp({}, async (_t, base) => {
      expect(
        (await list(base, { ...withKey, Host: 'attacker.example', Origin: 'https://attacker.example' })).status,
      ).toBe(200);
      expect((await list(base, { Host: 'attacker.example' })).status).toBe(401);
    });
    await withApp({ ALLOWED_HOSTS: 'chat.example.com' }, async (_t, base) => {
      expect((await list(base, { ...withKey, Host: 'chat.example.com' })).status).toBe(200);
      expect((await list(base, { ...withKey, Host: '127.0.0.1:3000' })).status).toBe(200);
      expectRefusal(await list(base, { ...withKey, Host: 'attacker.example' }), 'Host', 'keys + ALLOWED_HOSTS');
      // The Origin rule is single-user mode's: with keys, CORS and the key decide.
      expect(
        (await list(base, { ...withKey, Host: 'chat.example.com', Origin: 'https://attacker.example' })).status,
      ).toBe(200);
    });
  });
});

describe('the Telegram webhook in single-user mode', () => {
  const SECRET = 'webhook-secret-0123456789';
  const HOOK_PATH = '/telegram/hook-5d2e';
  const fixture = useTelegramApp({
    env: { API_KEYS: '', TELEGRAM_WEBHOOK_URL: `https://bot.example.com${HOOK_PATH}`, TELEGRAM_WEBHOOK_SECRET: SECRET },
  });
  const newUser = userMaker(7100);

  it('is not host-checked: Telegram comes through a proxy with its own Host, and its secret authenticates it', async () => {
    const base = await fixture.app.url();
    const user = newUser();
    const update = fixture.tg.makeUpdate({
      message: {
        message_id: 1,
        date: 0,
        chat: { id: user.id, type: 'private', first_name: user.first_name },
        from: { ...user, is_bot: false },
        text: 'hello bot',
      },
    } as never);
    const post = (secret: string) =>
      sendRaw(base, {
        method: 'POST',
        path: HOOK_PATH,
        headers: {
          Host: 'bot.example.com',
          'X-Telegram-Bot-Api-Secret-Token': secret,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(update),
      });
    expect((await post('wrong-secret-0123456789')).status).toBe(401);
    expect((await post(SECRET)).status).toBe(200);
    await fixture.tg.waitForText(user.id, 'reply to: hello bot');
    // The API behind the same name stays closed.
    expectRefusal(
      await sendRaw(base, { method: 'GET', path: '/api/conversations', headers: { Host: 'bot.example.com' } }),
      'Host',
      'api via bot host',
    );
  });
});
