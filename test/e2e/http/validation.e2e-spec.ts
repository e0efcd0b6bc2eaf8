import { DataSource } from 'typeorm';
import { useApp } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, type TestApp } from '../../support/test-app.js';

/** Bad input gets a clear 4xx with the JSON error body, never a 500, and stores nothing. */
describe('input validation', () => {
  const fixture = useApp({ MAX_MESSAGE_CHARS: '100' });
  let t: TestApp;

  beforeAll(() => (t = fixture.app));

  const messageCount = async () =>
    Number((await t.app.get(DataSource).query('SELECT count(*) AS n FROM messages'))[0].n);
  const post = (body: string | object, type = 'application/json') =>
    t
      .http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .set('Content-Type', type)
      .send(typeof body === 'string' ? body : JSON.stringify(body));

  it.each([
    ['a missing message', {}, /message/],
    ['an empty message', { message: '' }, /message should not be empty/],
    ['a blank message', { message: '  \n\t ' }, /must not be empty/],
    ['a number as message', { message: 42 }, /message must be a string/],
    ['an array as message', { message: ['a'] }, /message must be a string/],
    ['null as message', { message: null }, /message/],
    ['a malformed conversationId', { message: 'hi', conversationId: 'not-a-uuid' }, /conversationId must be a UUID/],
    ['a numeric conversationId', { message: 'hi', conversationId: 7 }, /conversationId must be a UUID/],
    ['an unknown field', { message: 'hi', role: 'system' }, /property role should not exist/],
    ['a message one character over MAX_MESSAGE_CHARS', { message: 'x'.repeat(101) }, /101 characters.*limit is 100/],
    ['options as an array', { message: 'hi', options: [] }, /options must be an object/],
    ['a NUL character', { message: 'a\u0000b' }, /NUL characters/],
    ['a lone surrogate', { message: 'a\uD800b' }, /well-formed Unicode/],
  ])('answers 400 for %s', async (_label, body, pattern) => {
    const before = await messageCount();
    const res = await post(body).expect(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      code: 'invalid_input',
      message: expect.stringMatching(pattern),
    });
    expect(await messageCount()).toBe(before);
  });

  it('accepts a message of exactly MAX_MESSAGE_CHARS', async () => {
    await post({ message: 'x'.repeat(100) }).expect(200);
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await post('{"message": "unterminated').expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
  });

  it('answers 400 for a JSON body that is not an object', async () => {
    const res = await post('"just a string"').expect(400);
    expect(res.body.statusCode).toBe(400);
  });

  it('answers 413 for a body over 1 MB, with the error body', async () => {
    const res = await post({ message: 'x'.repeat(1024 * 1024 + 10) }).expect(413);
    expect(res.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large', code: 'payload_too_large' });
  });

  it.each([
    ['text/plain', 'this request\'s is "text/plain"'],
    ['application/x-www-form-urlencoded', 'this request\'s is "application/x-www-form-urlencoded"'],
  ])('answers 415 naming the content type when a body comes as %s, storing nothing', async (type, named) => {
    const before = await messageCount();
    const res = await post(type === 'text/plain' ? '{"message":"hi"}' : 'message=hi', type).expect(415);
    expect(res.body).toMatchObject({
      statusCode: 415,
      error: 'Unsupported Media Type',
      code: 'unsupported_media_type',
    });
    expect(res.body.message).toBe(`The body must be JSON sent with Content-Type: application/json; ${named}`);
    expect(await messageCount()).toBe(before);
  });

  it('answers 415 for a body without any Content-Type', async () => {
    const res = await t
      .http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .set('Content-Length', '2')
      .send(Buffer.from('{}'))
      .unset('Content-Type')
      .expect(415);
    expect(res.body.message).toBe(
      'The body must be JSON sent with Content-Type: application/json; this request has none',
    );
  });

  it.each([
    ['a malformed id on GET', 'get', '/api/conversations/123'],
    ['a malformed id on DELETE', 'delete', '/api/conversations/abc'],
    ['limit=0', 'get', '/api/conversations?limit=0'],
    ['limit=101', 'get', '/api/conversations?limit=101'],
    ['limit=abc', 'get', '/api/conversations?limit=abc'],
    ['a forged cursor', 'get', '/api/conversations?cursor=bm90LWEtY3Vyc29y'],
    ['an unknown query parameter', 'get', '/api/conversations?sort=asc'],
  ] as const)('answers 400 for %s', async (_label, method, path) => {
    const res = await t.http()[method](path).set(auth(ALICE_KEY)).expect(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
  });

  it('answers requests the HTTP parser refuses with the JSON error body too (431, 417)', async () => {
    const base = await t.url();
    const { request } = await import('node:http');
    const send = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${base}/health`, { headers }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const big = await send({ 'X-Big': 'x'.repeat(20_000) });
    expect(big.status).toBe(431);
    expect(JSON.parse(big.body)).toMatchObject({
      statusCode: 431,
      error: 'Request Header Fields Too Large',
      code: 'headers_too_large',
    });
    const expect417 = await send({ Expect: 'something-else' });
    expect(expect417.status).toBe(417);
    expect(JSON.parse(expect417.body)).toMatchObject({ statusCode: 417 });
  });

  it('answers 404 with the error body for an unknown route', async () => {
    const res = await t.http().get('/api/nothing-here').set(auth(ALICE_KEY)).expect(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found', code: 'not_found' });
  });
});
