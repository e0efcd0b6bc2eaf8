import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { callTool, connectMcp, roundRobinFetch, textOf } from '../../support/mcp-client.js';
import { sendRaw } from '../../support/raw-http.js';
import { ALICE_KEY, auth, BOB_KEY, DIALECT, startTestApp, tempDir } from '../../support/test-app.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const SOME_ID = '00000000-0000-4000-8000-000000000000';
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** A JSON-RPC batch of `n` tool calls, as a client of protocol version 2025-03-26 (the one version with batches) may send. */
const batchOf = (n: number, name = 'recent_conversations', args: Record<string, unknown> = {}) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name, arguments: args },
    })),
  );
const sendBatch = (base: string, key: string, body: string, version?: string) =>
  sendRaw(base, {
    method: 'POST',
    path: '/mcp',
    headers: { ...auth(key), ...MCP_HEADERS, ...(version ? { 'MCP-Protocol-Version': version } : {}) },
    body,
  });

describe('MCP server at /mcp (official SDK client, Streamable HTTP)', () => {
  const fixture = useAppWithFakeModel();
  let base: string;
  let alice: Client;
  let bob: Client;
  let long: string;
  let paged: string;

  beforeAll(async () => {
    const t = fixture.app;
    base = await t.url();
    long = (
      await t
        .http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ message: `zebra migration ${'x'.repeat(5_000)}` })
        .expect(200)
    ).body.conversationId;
    paged = (
      await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'turn 1 of the walrus plan' }).expect(200)
    ).body.conversationId;
    for (let i = 2; i <= 5; i++) {
      await t
        .http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ conversationId: paged, message: `turn ${i} of the walrus plan` })
        .expect(200);
    }
    await t.http().post('/api/chat').set(auth(BOB_KEY)).send({ message: 'bob keeps his own walrus notes' }).expect(200);
    alice = await connectMcp(base, ALICE_KEY);
    bob = await connectMcp(base, BOB_KEY);
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
  });

  it('lists the read-only history tools, each with input and output schemas', async () => {
    const { tools } = await alice.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'get_conversation',
      'recent_conversations',
      'search_conversations',
      'search_messages',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
  });

  it('search_conversations finds the caller’s conversation with id, title, snippet, message id and date', async () => {
    const result = await callTool(alice, 'search_conversations', { query: 'walrus' });
    expect(result.isError).toBeFalsy();
    const hits = (result.structuredContent as { hits: Array<Record<string, unknown>> }).hits;
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({
      conversationId: paged,
      title: expect.stringContaining('walrus'),
      snippet: expect.stringMatching(/walrus/i),
      messageId: expect.any(String),
    });
    expect(new Date(hits[0].updatedAt as string).getTime()).not.toBeNaN();
    expect(textOf(result)).toContain(paged);
    const none = await callTool(alice, 'search_conversations', { query: 'nonexistentword' });
    expect(none.structuredContent).toEqual({ hits: [] });
    expect(textOf(none)).toContain('No conversation matches');
  });

  it('recent_conversations answers the newest first, narrowed by n, before and after', async () => {
    const all = (await callTool(alice, 'recent_conversations')).structuredContent as {
      conversations: Array<{ id: string; updatedAt: string }>;
    };
    expect(all.conversations.map((c) => c.id)).toEqual([paged, long]);
    const one = (await callTool(alice, 'recent_conversations', { n: 1 })).structuredContent as typeof all;
    expect(one.conversations.map((c) => c.id)).toEqual([paged]);
    const older = (await callTool(alice, 'recent_conversations', { before: all.conversations[0].updatedAt }))
      .structuredContent as typeof all;
    expect(older.conversations.map((c) => c.id)).toEqual([long]);
    const newer = (await callTool(alice, 'recent_conversations', { after: all.conversations[1].updatedAt }))
      .structuredContent as typeof all;
    expect(newer.conversations.map((c) => c.id)).toEqual([paged]);
  });

  it('get_conversation pages the thread newest first with a cursor, every message exactly once', async () => {
    const seen: Array<{ seq: number; role: string; content: string }> = [];
    let before: number | undefined;
    let pages = 0;
    do {
      const result = await callTool(alice, 'get_conversation', {
        id: paged,
        limit: 3,
        ...(before === undefined ? {} : { before }),
      });
      expect(result.isError).toBeFalsy();
      const page = result.structuredContent as {
        title: string;
        agent: unknown;
        messages: typeof seen;
        nextBefore: number | null;
      };
      expect(page).toMatchObject({ id: paged, title: expect.stringContaining('walrus'), agent: null });
      expect(page.messages.length).toBeLessThanOrEqual(3);
      seen.push(...page.messages);
      before = page.nextBefore ?? undefined;
      pages++;
    } while (before !== undefined);
    expect(pages).toBe(4);
    expect(seen.map((m) => m.seq)).toEqual([...seen.map((m) => m.seq)].sort((a, b) => b - a));
    expect(seen).toHaveLength(10);
    expect(seen.at(-1)).toMatchObject({ role: 'user', content: 'turn 1 of the walrus plan' });
    expect(seen[0]).toMatchObject({ role: 'assistant', content: 'reply to: turn 5 of the walrus plan' });
  });

  it('writes nothing: reading through the tools leaves the conversations as they were', async () => {
    const snapshot = async () =>
      (await fixture.app.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200)).body;
    const before = await snapshot();
    await callTool(alice, 'get_conversation', { id: long });
    await callTool(alice, 'search_conversations', { query: 'zebra' });
    await callTool(alice, 'recent_conversations');
    expect(await snapshot()).toEqual(before);
  });

  it('cuts a long message with a note saying how much is left and where to read it', async () => {
    const result = await callTool(alice, 'get_conversation', { id: long });
    const { messages } = result.structuredContent as {
      messages: Array<{ role: string; content: string; cutCharacters: number }>;
    };
    const question = messages.find((m) => m.role === 'user')!;
    expect(question.cutCharacters).toBe(5_000 + 'zebra migration '.length - 4_000);
    expect(question.content).toContain(
      `[cut: ${question.cutCharacters} more characters; the whole text is in the REST API, GET /api/conversations/${long}]`,
    );
    expect(question.content.length).toBeLessThan(4_200);
  });

  it('keeps two keys apart: another actor’s conversation answers as not found, and search never crosses', async () => {
    const foreign = await callTool(bob, 'get_conversation', { id: paged });
    const unknown = await callTool(bob, 'get_conversation', { id: '00000000-0000-4000-8000-000000000000' });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toBe(`Conversation ${paged} not found`);
    expect(textOf(unknown)).toBe('Conversation 00000000-0000-4000-8000-000000000000 not found');
    const hits = (await callTool(bob, 'search_conversations', { query: 'walrus' })).structuredContent as {
      hits: Array<{ conversationId: string; title: string }>;
    };
    expect(hits.hits).toHaveLength(1);
    expect(hits.hits[0].title).toContain('bob');
    const recent = (await callTool(bob, 'recent_conversations')).structuredContent as {
      conversations: Array<{ id: string }>;
    };
    expect(recent.conversations.map((c) => c.id)).not.toContain(paged);
  });

  it.each([
    ['search_conversations', {}, /query/],
    ['search_conversations', { query: '   ' }, /query/],
    ['search_conversations', { query: 'walrus', limit: 51 }, /limit/],
    ['recent_conversations', { n: 21 }, /n/],
    ['recent_conversations', { before: 'yesterday' }, /before/],
    ['get_conversation', { id: SOME_ID, limit: 0 }, /limit/],
    ['get_conversation', { id: SOME_ID, before: 'x' }, /before/],
    ['get_conversation', {}, /id/],
  ])('answers bad arguments to %s %j as a tool error with a clear message', async (name, args, field) => {
    const result = await callTool(alice, name, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Invalid arguments/);
    expect(textOf(result)).toMatch(field);
  });

  it('refuses a caller without a valid key with the usual JSON 401, its WWW-Authenticate naming the resource metadata', async () => {
    await expect(connectMcp(base)).rejects.toThrow(/401/);
    await expect(connectMcp(base, 'not-a-real-key-000')).rejects.toThrow(/401/);
    const res = await sendRaw(base, { method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: INITIALIZE });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(JSON.parse(res.text)).toMatchObject({
      statusCode: 401,
      error: 'Unauthorized',
      message: expect.stringContaining('API key'),
    });
  });

  it('answers GET and DELETE with 405: the server keeps no sessions', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await sendRaw(base, {
        method,
        path: '/mcp',
        headers: { ...auth(ALICE_KEY), Accept: 'text/event-stream' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
  });

  it('answers HTTP mistakes with clear errors: a body that is not JSON, an Accept without event streams', async () => {
    const headers = { ...auth(ALICE_KEY), ...MCP_HEADERS };
    const wrongType = await sendRaw(base, {
      method: 'POST',
      path: '/mcp',
      headers: { ...headers, 'Content-Type': 'text/plain' },
      body: INITIALIZE,
    });
    expect(wrongType.status).toBe(415);
    const wrongAccept = await sendRaw(base, {
      method: 'POST',
      path: '/mcp',
      headers: { ...headers, Accept: 'application/json' },
      body: INITIALIZE,
    });
    expect(wrongAccept.status).toBe(406);
  });

  it('answers malformed JSON with a JSON-RPC Parse error (-32700), as the JSON-RPC specification requires', async () => {
    const headers = { ...auth(ALICE_KEY), ...MCP_HEADERS };
    for (const body of ['{"jsonrpc":', '{"jsonrpc": "2.0", "id": 1,}', 'nonsense']) {
      const res = await sendRaw(base, { method: 'POST', path: '/mcp', headers, body });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringContaining('Parse error') },
      });
    }
    // JSON the shape check refuses (here a NUL in a string) is an Invalid Request.
    const nul = await sendRaw(base, {
      method: 'POST',
      path: '/mcp',
      headers,
      body: '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\\u0000"}}',
    });
    expect(nul.status).toBe(400);
    expect(JSON.parse(nul.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining('Invalid Request') },
    });
  });

  it('advertises no list-change notifications: a stateless server can never send one', () => {
    expect(alice.getServerCapabilities()?.tools).toEqual({ listChanged: false });
  });

  it('refuses a foreign Origin with 403 even with a valid key (DNS rebinding), and serves its own pages and clients without Origin', async () => {
    const withOrigin = (origin: string): typeof fetch =>
      ((input: string | URL | Request, init?: RequestInit) =>
        fetch(input, {
          ...init,
          headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), Origin: origin },
        })) as typeof fetch;
    await expect(connectMcp(base, ALICE_KEY, { fetch: withOrigin('http://attacker.example') })).rejects.toThrow(/403/);
    const res = await sendRaw(base, {
      method: 'POST',
      path: '/mcp',
      headers: { ...auth(ALICE_KEY), ...MCP_HEADERS, Origin: 'http://attacker.example' },
      body: INITIALIZE,
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toMatchObject({ statusCode: 403, message: expect.stringContaining('Origin') });
    const local = await connectMcp(base, ALICE_KEY, { fetch: withOrigin(base) });
    expect((await callTool(local, 'recent_conversations')).isError).toBeFalsy();
    await local.close();
  });

  it('answers a small JSON-RPC batch under protocol version 2025-03-26 (or no version header), one answer per call', async () => {
    for (const version of ['2025-03-26', undefined]) {
      const res = await sendBatch(base, ALICE_KEY, batchOf(3, 'get_conversation', { id: paged, limit: 1 }), version);
      expect(res.status).toBe(200);
      const answers = JSON.parse(res.text) as Array<{ id: number; result: { structuredContent: { id: string } } }>;
      expect(answers.map((a) => [a.id, a.result.structuredContent.id]).sort()).toEqual([
        [1, paged],
        [2, paged],
        [3, paged],
      ]);
    }
  });

  it('refuses a batch under the protocol versions without batches (2025-06-18 on), and a batch over 10 calls, running none of it', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await sendBatch(base, ALICE_KEY, batchOf(2), version);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringContaining(`protocol version ${version}`) },
      });
    }
    const large = await sendBatch(base, ALICE_KEY, batchOf(11, 'get_conversation', { id: paged }), '2025-03-26');
    expect(large.status).toBe(400);
    expect(JSON.parse(large.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining('at most 10') },
    });
    // The largest allowed batch still runs.
    expect((await sendBatch(base, ALICE_KEY, batchOf(10), '2025-03-26')).status).toBe(200);
  });

  it('is not part of the REST OpenAPI document', async () => {
    const spec = (await fixture.app.http().get('/api/docs-json').expect(200)).body as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(spec.paths).filter((p) => p.startsWith('/mcp'))).toEqual([]);
  });
});

describe('MCP server limits and single-user mode', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.remove());

  it('counts MCP requests against the per-actor rate limit, as on REST', async () => {
    const t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, env: { RATE_LIMIT_PER_MINUTE: '5' } });
    try {
      const base = await t.url();
      // Connecting costs a few requests (initialize, initialized, the GET the client tries); each call one more.
      const alice = await connectMcp(base, ALICE_KEY);
      const outcomes: string[] = [];
      for (let i = 0; i < 6; i++) {
        outcomes.push(
          await callTool(alice, 'recent_conversations').then(
            (r) => (r.isError ? 'tool error' : 'ok'),
            (e: Error) => e.message,
          ),
        );
      }
      expect(outcomes[0]).toBe('ok');
      expect(outcomes.at(-1)).toMatch(/429/);
      expect(outcomes.at(-1)).toContain('RATE_LIMIT_PER_MINUTE');
      // Another actor has a budget of its own.
      const bob = await connectMcp(base, BOB_KEY);
      expect((await callTool(bob, 'recent_conversations')).isError).toBeFalsy();
      await alice.close();
      await bob.close();
    } finally {
      await t.close();
    }
  });

  it('counts every call of a JSON-RPC batch against the rate limit, not the batch as one request', async () => {
    const t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, env: { RATE_LIMIT_PER_MINUTE: '5' } });
    try {
      const base = await t.url();
      // Six calls in one request are six requests: over a limit of five.
      const six = await sendBatch(base, ALICE_KEY, batchOf(6));
      expect(six.status).toBe(429);
      expect(six.headers['retry-after']).toBeDefined();
      // Three and three: the second batch goes over.
      expect((await sendBatch(base, BOB_KEY, batchOf(3))).status).toBe(200);
      const again = await sendBatch(base, BOB_KEY, batchOf(3));
      expect(again.status).toBe(429);
      expect(JSON.parse(again.text)).toMatchObject({ statusCode: 429, code: 'too_many_requests' });
    } finally {
      await t.close();
    }
  });

  it('answers eight concurrent largest batches of get_conversation with bounded answers, /health answered throughout', async () => {
    const t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite` });
    try {
      const base = await t.url();
      // A conversation whose page of 50 messages is as large as a tool answers: every message cut at 4,000 characters.
      const id = (
        await t
          .http()
          .post('/api/chat')
          .set(auth(ALICE_KEY))
          .send({ message: 'w'.repeat(10_000) })
          .expect(200)
      ).body.conversationId;
      for (let i = 0; i < 24; i++)
        await t
          .http()
          .post('/api/chat')
          .set(auth(ALICE_KEY))
          .send({ conversationId: id, message: `${i} ${'w'.repeat(10_000)}` })
          .expect(200);
      let polling = true;
      const health: number[] = [];
      const poll = (async () => {
        while (polling) {
          health.push((await t.http().get('/health')).status);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          sendBatch(base, ALICE_KEY, batchOf(10, 'get_conversation', { id, limit: 50 }), '2025-03-26'),
        ),
      );
      polling = false;
      await poll;
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        const results = JSON.parse(answer.text) as Array<{ result: { structuredContent: { messages: unknown[] } } }>;
        expect(results).toHaveLength(10);
        for (const r of results) expect(r.result.structuredContent.messages).toHaveLength(50);
        // Ten answers of at most 50 messages of at most 4,000 characters, each twice (text and structured).
        expect(answer.text.length).toBeLessThan(10 * 50 * 4_000 * 2 * 1.25);
      }
      expect(health.length).toBeGreaterThan(0);
      expect(health.every((status) => status === 200)).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('applies the Host/Origin guard in single-user mode (no keys): a foreign Origin is refused before the body is read', async () => {
    const t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, env: { API_KEYS: '' } });
    try {
      const base = await t.url();
      const local = await connectMcp(base);
      expect((await callTool(local, 'recent_conversations')).isError).toBeFalsy();
      await local.close();
      const res = await sendRaw(base, {
        method: 'POST',
        path: '/mcp',
        headers: { ...MCP_HEADERS, Origin: 'http://attacker.example' },
        body: INITIALIZE,
      });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.text)).toMatchObject({ statusCode: 403 });
    } finally {
      await t.close();
    }
  });
});

(DIALECT === 'postgres' ? describe : describe.skip)('MCP server behind several instances', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(() => {
    tmp = tempDir();
  });
  afterAll(() => tmp.remove());

  it('serves one client whose requests alternate between two instances on one database', async () => {
    const dbPath = `${tmp.dir}/shared`;
    const a = await startTestApp({ dbPath });
    const b = await startTestApp({ dbPath });
    try {
      const id = (
        await a
          .http()
          .post('/api/conversations')
          .set(auth(ALICE_KEY))
          .send({ title: 'Shared narwhal notes' })
          .expect(201)
      ).body.id;
      const balancer = roundRobinFetch([await a.url(), await b.url()]);
      const client = await connectMcp(await a.url(), ALICE_KEY, { fetch: balancer.fetch });
      for (let i = 0; i < 4; i++) {
        const result = await callTool(client, 'get_conversation', { id });
        expect(result.structuredContent).toMatchObject({
          id,
          title: 'Shared narwhal notes',
          messages: [],
          nextBefore: null,
        });
      }
      expect(balancer.sent.every((n) => n >= 3)).toBe(true);
      await client.close();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
