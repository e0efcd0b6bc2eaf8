import type { Response } from 'supertest';
import { OpenApiContract } from '../../support/openapi-contract.js';
import { routeBody, routePath, specRoutes, type SpecRoute } from '../../support/spec-routes.js';
import { useApp, useAppStarter } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, type TestApp } from '../../support/test-app.js';

/** Last, in this order: each removes what the operations before it use. */
const LAST = ['revokeShare', 'deleteMemory', 'deleteConversation', 'deleteAgent', 'eraseAccountData'];
const ordered = (routes: SpecRoute[]) =>
  [...routes].sort((a, b) => LAST.indexOf(a.operationId) - LAST.indexOf(b.operationId));

const mediaTypeOf = (res: Response) =>
  String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
const bodyOf = (res: Response) => (mediaTypeOf(res) === 'application/json' ? JSON.parse(res.text) : res.text);

/**
 * A representative valid request for every operation of docs/openapi.json, and its answer
 * checked by a strict OpenAPI 3.0 validator (ajv over the document's schemas): the status is
 * documented, the documented headers are there, the body fits its schema (nulls included).
 */
describe('the answers of every operation conform to docs/openapi.json', () => {
  const contract = new OpenApiContract();
  const fixture = useApp();
  const apps = useAppStarter();
  let t: TestApp;

  beforeAll(() => (t = fixture.app));

  const send = (method: string, url: string, body?: object) => {
    const req = t.http()[method as 'get'](url).set(auth(ALICE_KEY));
    return body === undefined ? req : req.send(body);
  };
  const expectConforms = (method: string, url: string, res: Response) => {
    const problems = contract.responseProblems(method, url, res.status, res.headers, bodyOf(res), mediaTypeOf(res));
    expect({ request: `${method.toUpperCase()} ${url}`, status: res.status, problems }).toEqual({
      request: `${method.toUpperCase()} ${url}`,
      status: res.status,
      problems: [],
    });
  };

  it('replays one valid request per operation: a documented success, headers and body as documented', async () => {
    const first = await send('post', '/api/chat', { message: 'Plan a trip to Lisbon' }).expect(200);
    expectConforms('post', '/api/chat', first);
    const agent = (await send('post', '/api/agents', { name: 'Guide', systemPrompt: 'Be brief.' }).expect(201)).body
      .id as string;
    const exported = (await send('get', `/api/conversations/${first.body.conversationId}/export`).expect(200))
      .body as object;
    const memory = (await send('post', '/api/memories', { text: 'Likes Lisbon' }).expect(201)).body.id as string;
    const share = (await send('post', `/api/conversations/${first.body.conversationId}/shares`, {}).expect(201))
      .body as { id: string; token: string };
    const ids = {
      conversation: first.body.conversationId as string,
      message: first.body.messageId as string,
      userMessage: first.body.userMessageId as string,
      agent,
      exported,
      memory,
      share: share.id,
      shareToken: share.token,
    };
    const answered: string[] = [];
    for (const route of ordered(specRoutes())) {
      // An agent without conversations, so that deleting it succeeds.
      const spare =
        route.operationId === 'deleteAgent'
          ? (await send('post', '/api/agents', { name: 'Spare' }).expect(201)).body.id
          : agent;
      const url = routePath(route, { ...ids, agent: spare });
      const body = routeBody(route, ids);
      const problems = contract.requestProblems(route.method, url, body);
      expect({ operation: route.operationId, request: problems }).toEqual({
        operation: route.operationId,
        request: [],
      });
      const res = await send(route.method, url, body);
      expectConforms(route.method, url, res);
      if (res.status < 300) answered.push(route.operationId);
    }
    expect(answered.sort()).toEqual(
      specRoutes()
        .map((r) => r.operationId)
        .sort(),
    );
  });

  it('documents the nulls the server really sends (a reply without error, a conversation without summary or agent)', async () => {
    const chat = await send('post', '/api/chat', { message: 'hello' }).expect(200);
    const messages = await send('get', `/api/conversations/${chat.body.conversationId}/messages`).expect(200);
    expect(messages.body.items.some((m: { error: unknown }) => m.error === null)).toBe(true);
    expectConforms('get', `/api/conversations/${chat.body.conversationId}/messages`, messages);
    const detail = await send('get', `/api/conversations/${chat.body.conversationId}`).expect(200);
    expectConforms('get', `/api/conversations/${chat.body.conversationId}`, detail);
    const exported = await send('get', `/api/conversations/${chat.body.conversationId}/export`).expect(200);
    expectConforms('get', `/api/conversations/${chat.body.conversationId}/export`, exported);
    // What a strict 3.0 validator reads `nullable` beside `allOf: [$ref]` as: null refused.
    expect(
      contract.problems({ nullable: true, allOf: [{ $ref: '#/components/schemas/MessageErrorDto' }] }, null),
    ).not.toEqual([]);
  });

  it('documents the error answers: bodies with a code, Location-free 4xx, WWW-Authenticate on 401', async () => {
    const cases: Array<[string, string, object | undefined, Record<string, string>]> = [
      ['post', '/api/chat', { message: '' }, auth(ALICE_KEY)],
      ['post', '/api/chat', { message: 'hi', unknown: 1 }, auth(ALICE_KEY)],
      ['get', '/api/conversations/00000000-0000-4000-8000-000000000000', undefined, auth(ALICE_KEY)],
      ['get', '/api/conversations/not-a-uuid', undefined, auth(ALICE_KEY)],
      ['get', '/api/agents', undefined, {}],
    ];
    for (const [method, url, body, headers] of cases) {
      const req = t.http()[method as 'get'](url).set(headers);
      const res = await (body === undefined ? req : req.send(body));
      expect(res.status).toBeGreaterThanOrEqual(400);
      expectConforms(method, url, res);
      if (res.status === 401) expect(res.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('refuses, like the server, what the server refuses: non-UUID ids, unknown fields, blank messages, fractions, repeated tools', async () => {
    const chat = await send('post', '/api/chat', { message: 'Plan a trip' }).expect(200);
    const agent = (await send('post', '/api/agents', { name: 'Refusals' }).expect(201)).body.id as string;
    const ids = { conversation: chat.body.conversationId as string, message: chat.body.messageId as string, agent };
    const invalid: Array<[string, string, object | undefined]> = [
      ['post', '/api/chat', { message: '' }],
      ['post', '/api/chat', { message: '  \n ' }],
      ['post', '/api/agents', { name: 'twice', tools: ['update_state', 'update_state'] }],
      ['get', '/api/conversations?limit=1.5', undefined],
      ['get', '/api/conversations?agentId=someone', undefined],
      ['get', `/api/conversations/${ids.conversation}/messages?before=2.5`, undefined],
      // A null where the document has none used to reach the database (a 500).
      ['patch', `/api/conversations/${ids.conversation}`, { pinned: null }],
      ['get', '/api/conversations?q=%20', undefined],
      ['get', `/api/conversations/${ids.conversation}/messages?before=2147483648`, undefined],
    ];
    for (const route of specRoutes()) {
      // A useChat chat id is any 1-128 of [A-Za-z0-9_-], not only a UUID: a dot is what it refuses.
      const notAnId = route.path.startsWith('/api/ui/chat/') ? 'not.an-id' : 'not-a-uuid';
      // A share token is any text: a malformed one is an unknown link (404), as the document says.
      if (route.path.includes('{') && !route.path.includes('{token}'))
        invalid.push([route.method, route.path.replace(/\{\w+\}/g, notAnId), routeBody(route, ids)]);
      const body = routeBody(route, ids);
      const schema = contract.operationOf(route.method, route.path)?.operation.requestBody?.content?.[
        'application/json'
      ]?.schema;
      // The session state is a free-form object: any field is state.
      if (body && schema?.$ref && route.operationId !== 'importConversation')
        invalid.push([route.method, routePath(route, ids), { ...body, unexpected: 1 }]);
    }
    const disagreements: string[] = [];
    for (const [method, url, body] of invalid) {
      const documentRefuses = contract.requestProblems(method, url, body).length > 0;
      const res = await send(method, url, body);
      if (!documentRefuses || res.status !== 400)
        disagreements.push(
          `${method.toUpperCase()} ${url} ${JSON.stringify(body)}: server ${res.status}, document ${documentRefuses ? 'refuses' : 'accepts'}`,
        );
    }
    expect(disagreements).toEqual([]);
  });

  it("checks a useChat stream's chunks against x-sse-events: a chunk the AI SDK would not read is a problem", () => {
    const problems = (text: string) =>
      contract.responseProblems('post', '/api/ui/chat', 200, {}, text, 'text/event-stream');
    const good =
      'data: {"type":"start","messageId":"6f1c0b7d-5a9e-4f0e-9a53-2d8c1e4b7a10","messageMetadata":{"conversationId":"6f1c0b7d-5a9e-4f0e-9a53-2d8c1e4b7a10"}}\n\n' +
      'data: {"type":"text-start","id":"text"}\n\ndata: {"type":"text-delta","id":"text","delta":"Hi"}\n\ndata: {"type":"text-end","id":"text"}\n\n' +
      'data: {"type":"finish","finishReason":"stop"}\n\ndata: [DONE]\n\n';
    expect(problems(good)).toEqual([]);
    expect(problems('data: {"type":"text-delta","id":"text"}\n\n')).not.toEqual([]);
    expect(problems('data: {"type":"finish","finishReason":"done"}\n\n')).not.toEqual([]);
    expect(problems('data: {"type":"made-up"}\n\n')).not.toEqual([]);
  });

  it('answers 405 with Allow for a wrong method on an existing path, 404 for a path that does not exist', async () => {
    const wrong = await send('put', '/api/chat', { message: 'hi' }).expect(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(wrong.body).toMatchObject({ statusCode: 405, code: 'method_not_allowed' });
    const item = await send('post', '/api/conversations/00000000-0000-4000-8000-000000000000').expect(405);
    expect(item.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
    await send('get', '/api/no-such-route').expect(404);
  });

  it('documents the 429 of every keyed route with Retry-After, and the answer of a real limit conforms', async () => {
    for (const { operation } of contract.operations().filter((o) => o.operation.security?.length)) {
      expect({
        op: operation.operationId,
        retryAfter: operation.responses['429']?.headers?.['Retry-After']?.required,
      }).toEqual({ op: operation.operationId, retryAfter: true });
    }
    expect(contract.operationOf('post', '/api/conversations')?.operation.responses['409']).toBeDefined();
    const limited = await apps.start({ RATE_LIMIT_PER_MINUTE: '1' });
    await limited.http().get('/api/agents').set(auth(ALICE_KEY)).expect(200);
    const refused = await limited.http().get('/api/agents').set(auth(ALICE_KEY)).expect(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expectConforms('get', '/api/agents', refused);
  });
});
