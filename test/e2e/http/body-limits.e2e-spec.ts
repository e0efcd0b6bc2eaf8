import { sendHeadOnly, sendRaw } from '../../support/raw-http.js';
import { useApp } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, type TestApp } from '../../support/test-app.js';

const UNAUTHORIZED = {
  statusCode: 401,
  error: 'Unauthorized',
  code: 'unauthorized',
  message: 'Missing or invalid API key: send "Authorization: Bearer <key>"',
};

/** `{"message":"hi","k0":1,"k1":1,…}`: `keys` unknown keys next to a valid message. */
function manyKeys(keys: number, base: Record<string, unknown> = { message: 'hi' }): string {
  const body: Record<string, unknown> = { ...base };
  for (let i = 0; i < keys; i++) body[`k${i}`] = 1;
  return JSON.stringify(body);
}

/**
 * Bodies are bounded before anything walks them (keys per object, items per array, values in
 * all), a validation error lists only its first problems, and an unauthenticated body is
 * refused before it is read.
 */
describe('request bodies: shape limits and authentication before the body', () => {
  // Large enough for a 50 MB body: only the missing key may refuse it.
  const fixture = useApp({ BODY_LIMIT_BYTES: String(64 * 1024 * 1024) });
  let t: TestApp;
  let url: string;

  beforeAll(async () => {
    t = fixture.app;
    url = await t.url();
  });

  const post = (path: string, body: string, headers: Record<string, string> = auth(ALICE_KEY)) =>
    sendRaw(url, { method: 'POST', path, headers: { 'Content-Type': 'application/json', ...headers }, body }, 60_000);

  describe('shape limits', () => {
    it('refuses a 1 MB body of 90,000 keys with a short 400, on every route', async () => {
      const body = manyKeys(90_000);
      expect(body.length).toBeGreaterThan(900_000);
      for (const path of ['/api/chat', '/api/agents', '/api/conversations']) {
        const res = await post(path, body);
        expect(res.status).toBe(400);
        expect(Buffer.byteLength(res.text)).toBeLessThan(1024);
        expect(JSON.parse(res.text)).toEqual({
          statusCode: 400,
          error: 'Bad Request',
          code: 'invalid_input',
          message: 'An object has more than 10000 keys',
        });
      }
    });

    it('keeps at most 1,000 keys per object, 1,000 items per array in a body validated against a DTO', async () => {
      const keys = await post('/api/chat', manyKeys(2_000));
      expect(keys.status).toBe(400);
      expect(JSON.parse(keys.text).message).toBe('An object has more than 1000 keys in this request');
      // ArrayUnique compares every pair of distinct items: 30,000 would take seconds.
      const tools = await post(
        '/api/agents',
        JSON.stringify({ name: 'many tools', tools: Array.from({ length: 30_000 }, (_, i) => `t${i}`) }),
      );
      expect(tools.status).toBe(400);
      expect(JSON.parse(tools.text).message).toBe('An array has more than 1000 items in this request');
      // Past the 1,000-item bound, the DTO's own bound (as many as there are agent tools) still holds.
      const few = await post(
        '/api/agents',
        JSON.stringify({ name: 'four tools', tools: ['update_state', 'remember', 'forget', 'update_state'] }),
      );
      expect(few.status).toBe(400);
      expect(JSON.parse(few.text).message).toMatch(/tools must contain no more than 3 elements/);
    });

    it('lists the first 10 validation problems and counts the rest', async () => {
      const res = await post('/api/chat', manyKeys(500));
      expect(res.status).toBe(400);
      const { message } = JSON.parse(res.text);
      expect(message.split('; ')).toHaveLength(10);
      expect(message).toMatch(
        /^property k0 should not exist; property k1 should not exist; .*property k9 should not exist \(and 490 more problems\)$/,
      );
    });

    it('refuses too many values in a DTO body and too long arrays anywhere', async () => {
      const state = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`a${i}`, new Array(900).fill(0)]));
      const values = await post('/api/conversations', JSON.stringify({ title: 'x', state }));
      expect(values.status).toBe(400);
      expect(JSON.parse(values.text).message).toBe('The body has more than 40000 values in this request');
      const items = await post('/api/conversations/import', JSON.stringify({ a: new Array(100_001).fill(0) }));
      expect(items.status).toBe(400);
      expect(JSON.parse(items.text).message).toBe('An array has more than 100000 items');
    });

    it('still takes a session state of 5,000 keys and an export of 12,000 messages', async () => {
      const created = await t
        .http()
        .post('/api/conversations')
        .set(auth(ALICE_KEY))
        .send({ title: 'big state' })
        .expect(201);
      const state = JSON.parse(manyKeys(5_000, {}));
      await t.http().put(`/api/conversations/${created.body.id}/state`).set(auth(ALICE_KEY)).send(state).expect(200);

      const doc = (await t.http().get(`/api/conversations/${created.body.id}/export`).set(auth(ALICE_KEY)).expect(200))
        .body;
      const at = doc.exportedAt;
      doc.conversation.messages = Array.from({ length: 12_000 }, (_, i) => ({
        id: `m${i}`,
        parentId: i === 0 ? null : `m${i - 1}`,
        seq: i + 1,
        thread: 'main',
        role: i % 2 ? 'assistant' : 'user',
        content: `message ${i}`,
        status: 'complete',
        createdAt: at,
      }));
      const imported = await post('/api/conversations/import', JSON.stringify(doc));
      expect(imported.status).toBe(201);
      const { id } = JSON.parse(imported.text);
      const last = await t.http().get(`/api/conversations/${id}/messages?limit=1`).set(auth(ALICE_KEY)).expect(200);
      expect(last.body.items.map((m: { content: string }) => m.content)).toEqual(['message 11999']);
    });

    it('keeps /health answering while bodies of 90,000 keys arrive', async () => {
      const body = manyKeys(90_000);
      const order: string[] = [];
      const big = Array.from({ length: 4 }, (_, i) =>
        post('/api/chat', body).then((r) => order.push(`big${i}:${r.status}`)),
      );
      const health = Array.from({ length: 4 }, (_, i) =>
        sendRaw(url, { method: 'GET', path: '/health', headers: {} }).then((r) => order.push(`health${i}:${r.status}`)),
      );
      await Promise.all([...big, ...health]);
      expect(order.filter((o) => o.startsWith('health'))).toEqual(
        expect.arrayContaining(['health0:200', 'health1:200', 'health2:200', 'health3:200']),
      );
      expect(order.filter((o) => o.startsWith('big')).every((o) => o.endsWith(':400'))).toBe(true);
    });
  });

  describe('authentication before the body', () => {
    const head = (path: string, headers: string[]) =>
      [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...headers, '', ''].join('\r\n');

    it('answers 401 to an unauthenticated 50 MB body before any of it is sent, and does not read it', async () => {
      const res = await sendHeadOnly(
        url,
        head('/api/chat', ['Content-Type: application/json', `Content-Length: ${50 * 1024 * 1024}`]),
        {
          offerBytes: 50 * 1024 * 1024,
        },
      );
      expect(res.text).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
      expect(res.text).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(res.text.slice(res.text.indexOf('\r\n\r\n') + 4))).toEqual(UNAUTHORIZED);
      // The connection is closed, not drained: what goes in is what the kernel buffers, far from 50 MB.
      expect(res.bodyBytesTaken).toBeLessThan(20 * 1024 * 1024);
    });

    it('does the same for a chunked body and for a wrong key', async () => {
      const chunked = await sendHeadOnly(
        url,
        head('/api/conversations/import', ['Content-Type: application/json', 'Transfer-Encoding: chunked']),
      );
      expect(chunked.text).toMatch(/^HTTP\/1\.1 401 /);
      const wrongKey = await sendHeadOnly(
        url,
        head('/api/agents', [
          'Content-Type: application/json',
          'Authorization: Bearer not-a-key',
          `Content-Length: ${50 * 1024 * 1024}`,
        ]),
      );
      expect(wrongKey.text).toMatch(/^HTTP\/1\.1 401 /);
    });

    it('lets a client still sending a large body with a wrong key see the 401, not a reset', async () => {
      const body = JSON.stringify({ message: 'x'.repeat(4 * 1024 * 1024) });
      for (let i = 0; i < 3; i++) {
        const res = await post('/api/conversations/import', body, auth('a-wrong-key'));
        expect([res.status, JSON.parse(res.text)]).toEqual([401, UNAUTHORIZED]);
      }
    });

    it('answers the same 401 body with and without a body, and reads the body of an authenticated caller', async () => {
      const withBody = await post('/api/chat', JSON.stringify({ message: 'hi' }), {});
      const withoutBody = await sendRaw(url, { method: 'GET', path: '/api/conversations', headers: {} });
      expect([withBody.status, withoutBody.status]).toEqual([401, 401]);
      expect(JSON.parse(withBody.text)).toEqual(UNAUTHORIZED);
      expect(JSON.parse(withoutBody.text)).toEqual(UNAUTHORIZED);
      const ok = await post('/api/conversations', JSON.stringify({ title: 'read after the key' }));
      expect(ok.status).toBe(201);
    });

    it('keeps public routes public, with or without a body', async () => {
      const res = await sendRaw(url, {
        method: 'GET',
        path: '/health',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(200);
      await t.http().get('/api/docs-json').expect(200);
    });
  });
});

describe('authentication before the body, in single-user mode', () => {
  const fixture = useApp({ API_KEYS: '' });
  it('reads the body of a caller without a key', async () => {
    await fixture.app.http().post('/api/conversations').send({ title: 'no key needed' }).expect(201);
  });
});
