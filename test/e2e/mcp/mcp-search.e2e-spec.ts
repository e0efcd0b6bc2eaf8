import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectMcp, textOf } from '../../support/mcp-client.js';
import { ALICE_KEY, auth, BOB_KEY, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

/** An agent asks in whole sentences, through the official MCP client: both search tools rank as GET /api/search does. */
describe('MCP search with natural-language questions', () => {
  let t: TestApp;
  let tmp: ReturnType<typeof tempDir>;
  let mcp: Client;
  const ids: Record<string, { conversationId: string; userMessageId: string }> = {};

  const chat = async (key: string, message: string, conversationId?: string) =>
    (await t.http().post('/api/chat').set(auth(key)).send({ message, conversationId }).expect(200)).body as {
      conversationId: string;
      userMessageId: string;
    };

  beforeAll(async () => {
    tmp = tempDir();
    t = await startTestApp({ dbPath: `${tmp.dir}/mcp-search.sqlite` });
    ids.trip = await chat(ALICE_KEY, 'We are planning a camping trip to the Rocky Mountains in July');
    ids.tripFollow = await chat(ALICE_KEY, 'I bought a new tent for the camping trip', ids.trip.conversationId);
    ids.paint = await chat(ALICE_KEY, 'I started painting sunsets last week');
    ids.bob = await chat(BOB_KEY, 'Bob is camping in the Rocky Mountains too');
    mcp = await connectMcp(await t.url(), ALICE_KEY);
  });
  afterAll(async () => {
    await mcp?.close();
    await t.close();
    tmp.remove();
  });

  it('search_messages answers a whole question with the messages holding its words, several per conversation', async () => {
    const result = await callTool(mcp, 'search_messages', {
      query: 'When is the user going camping in the Rocky Mountains?',
      role: 'user',
    });
    expect(result.isError).toBeFalsy();
    const { hits, nextCursor } = result.structuredContent as {
      hits: Array<{ messageId: string; conversationId: string; snippet: string; onPath: boolean }>;
      nextCursor: string | null;
    };
    expect(hits.map((h) => h.messageId)).toEqual([ids.trip.userMessageId, ids.tripFollow.userMessageId]);
    expect(hits[0]).toMatchObject({
      conversationId: ids.trip.conversationId,
      onPath: true,
      snippet: expect.stringMatching(/\[camping\]/i),
    });
    expect(nextCursor).toBeNull();
    expect(textOf(result)).toContain(ids.trip.conversationId);
    expect(JSON.stringify(result)).not.toContain('Bob');
  });

  it('search_messages stems, pages with its cursor, and refuses a bad one as a tool error', async () => {
    const painted = await callTool(mcp, 'search_messages', { query: 'What did she paint?', role: 'user' });
    expect((painted.structuredContent as { hits: Array<{ messageId: string }> }).hits.map((h) => h.messageId)).toEqual([
      ids.paint.userMessageId,
    ]);
    const first = (await callTool(mcp, 'search_messages', { query: 'camping trip tent painting', limit: 1 }))
      .structuredContent as { hits: unknown[]; nextCursor: string };
    expect(first.hits).toHaveLength(1);
    const second = (
      await callTool(mcp, 'search_messages', {
        query: 'camping trip tent painting',
        limit: 1,
        cursor: first.nextCursor,
      })
    ).structuredContent as { hits: unknown[] };
    expect(second.hits).toHaveLength(1);
    expect(second.hits).not.toEqual(first.hits);
    const bad = await callTool(mcp, 'search_messages', { query: 'camping', cursor: 'nope' });
    expect(bad.isError).toBe(true);
    const odd = await callTool(mcp, 'search_messages', { query: 'NEAR("camping" ^tent:*' });
    expect(odd.isError).toBeFalsy();
  });

  it('search_conversations ranks conversations for a whole question', async () => {
    const result = await callTool(mcp, 'search_conversations', { query: 'Which tent did I buy for the camping trip?' });
    const { hits } = result.structuredContent as { hits: Array<{ conversationId: string; messageId: string }> };
    expect(hits[0]).toMatchObject({ conversationId: ids.trip.conversationId });
    expect(hits.map((h) => h.conversationId)).not.toContain(ids.bob.conversationId);
    const none = await callTool(mcp, 'search_conversations', { query: 'the of and' });
    expect(none.isError).toBeFalsy();
    expect((none.structuredContent as { hits: unknown[] }).hits).toEqual([]);
  });
});
