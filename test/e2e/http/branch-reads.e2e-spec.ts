import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { callTool, connectMcp, textOf } from '../../support/mcp-client.js';
import { ALICE_KEY, auth, BOB_KEY, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

interface Hit {
  id: string;
  snippet: string;
  messageId: string | null;
  messageSeq: number | null;
  messageThread: string | null;
  onPath: boolean | null;
}

/**
 * What reads other than the message pages make of branches, on both databases: search finds
 * every branch and says which hits are on the active path (and how to open them); the context
 * preview and the MCP history tools see the active path only.
 */
describe('branches in search, the context preview and the MCP tools', () => {
  let fake: FakeOpenAiServer;
  let tmp: ReturnType<typeof tempDir>;
  let t: TestApp;
  let mcp: Client;
  let id: string;
  let umbrella: { userMessageId: string; messageId: string };
  let sunscreen: { userMessageId: string; messageId: string };

  const as = auth(ALICE_KEY);
  const search = async (q: string, key = ALICE_KEY) =>
    (
      await t
        .http()
        .get(`/api/conversations?q=${encodeURIComponent(q)}`)
        .set(auth(key))
        .expect(200)
    ).body.items as Hit[];

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
    t = await startTestApp({ dbPath: `${tmp.dir}/r.sqlite`, llmBaseUrl: fake.url });
    const say = async (body: object, reply: string) => {
      fake.enqueue({ kind: 'reply', text: reply });
      return (await t.http().post('/api/chat').set(as).send(body).expect(200)).body;
    };
    // The path: "Plan a trip to Porto" > "ok" > "Pack the sunscreen" > "sunscreen packed";
    // off it, the first version of the second question and its answer.
    const first = await say({ message: 'Plan a trip to Porto' }, 'ok');
    id = first.conversationId;
    umbrella = await say({ message: 'Pack the umbrella', conversationId: id }, 'umbrella packed');
    fake.enqueue({ kind: 'reply', text: 'sunscreen packed' });
    sunscreen = (
      await t
        .http()
        .post(`/api/conversations/${id}/messages/${umbrella.userMessageId}/edit`)
        .set(as)
        .send({ message: 'Pack the sunscreen' })
        .expect(200)
    ).body;
    mcp = await connectMcp(await t.url(), ALICE_KEY);
  });
  afterAll(async () => {
    await mcp?.close();
    await t.close();
    await fake.close();
    tmp.remove();
  });

  it('a hit says whether its message is on the active path, with what opening it needs', async () => {
    const [off] = await search('umbrella');
    expect(off).toMatchObject({
      id,
      messageThread: 'main',
      onPath: false,
      snippet: expect.stringMatching(/\[umbrella\]/i),
    });
    expect([umbrella.userMessageId, umbrella.messageId]).toContain(off.messageId);
    const tree = (await t.http().get(`/api/conversations/${id}/tree`).set(as).expect(200)).body.items as Array<{
      id: string;
      seq: number;
      onPath: boolean;
    }>;
    expect(tree.find((m) => m.id === off.messageId)).toMatchObject({ seq: off.messageSeq, onPath: false });
    const [on] = await search('sunscreen');
    expect(on).toMatchObject({ id, onPath: true });
    expect([sunscreen.userMessageId, sunscreen.messageId]).toContain(on.messageId);
    // Another actor finds nothing of either branch.
    expect(await search('umbrella', BOB_KEY)).toEqual([]);
  });

  it('a title-only hit has no message and no onPath; selecting the hit of another branch makes it the path', async () => {
    await t.http().patch(`/api/conversations/${id}`).set(as).send({ title: 'Zanzibar notes' }).expect(200);
    expect((await search('zanzibar'))[0]).toMatchObject({
      id,
      messageId: null,
      messageSeq: null,
      messageThread: null,
      onPath: null,
    });
    const [off] = await search('umbrella');
    await t.http().post(`/api/conversations/${id}/messages/${off.messageId}/select`).set(as).expect(200);
    expect((await search('umbrella'))[0]).toMatchObject({ messageId: off.messageId, onPath: true });
    expect((await search('sunscreen'))[0]).toMatchObject({ onPath: false });
    // Back as it was for the other tests.
    await t.http().post(`/api/conversations/${id}/messages/${sunscreen.userMessageId}/select`).set(as).expect(200);
    expect((await search('umbrella'))[0]).toMatchObject({ onPath: false });
  });

  it('the context preview shows the active path only', async () => {
    const preview = (await t.http().get(`/api/conversations/${id}/context`).set(as).expect(200)).body as {
      messages: Array<{ content: string }>;
    };
    const contents = preview.messages.map((m) => m.content);
    expect(contents).toEqual(
      expect.arrayContaining(['Plan a trip to Porto', 'ok', 'Pack the sunscreen', 'sunscreen packed']),
    );
    expect(contents.join('\n')).not.toMatch(/umbrella/);
  });

  it('the MCP tools read the active path, and their search hits say which branch', async () => {
    const read = await callTool(mcp, 'get_conversation', { id });
    const messages = (read.structuredContent as { messages: Array<{ content: string }> }).messages.map(
      (m) => m.content,
    );
    expect(messages).toEqual(['sunscreen packed', 'Pack the sunscreen', 'ok', 'Plan a trip to Porto']);
    expect(textOf(read)).not.toMatch(/umbrella/);
    const found = await callTool(mcp, 'search_conversations', { query: 'umbrella' });
    expect((found.structuredContent as { hits: Hit[] }).hits).toEqual([
      expect.objectContaining({ conversationId: id, onPath: false }),
    ]);
    expect(textOf(found)).toMatch(/another branch/);
    const onPath = await callTool(mcp, 'search_conversations', { query: 'sunscreen' });
    expect((onPath.structuredContent as { hits: Hit[] }).hits).toEqual([
      expect.objectContaining({ conversationId: id, onPath: true }),
    ]);
    expect(textOf(onPath)).not.toMatch(/another branch/);
  });
});
