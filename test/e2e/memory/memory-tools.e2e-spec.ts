import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, asActor, BOB_KEY, type TestApp } from '../../support/test-app.js';

type Sent = { role: string; content: string };

describe('memories: the remember and forget tools', () => {
  const fixture = useAppWithFakeModel();
  let t: TestApp;
  let fake: FakeOpenAiServer;
  beforeAll(() => ({ app: t, fake } = fixture));

  const as = (key: string) => asActor(() => t, key);
  const alice = as(ALICE_KEY);
  const bob = as(BOB_KEY);
  const toolNames = (i: number) =>
    ((fake.completions[i].body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map(
      (x) => x.function.name,
    );
  const toolResult = (i: number) =>
    JSON.parse((fake.completions[i].body.messages!.at(-1) as unknown as { content: string }).content);
  const memories = async (who = alice) =>
    (await who.get('/api/memories').expect(200)).body.items as Array<{
      id: string;
      text: string;
      sourceConversationId: string | null;
      sourceMessageId: string | null;
    }>;

  it('remembers through the tool, in the bounded tool rounds, with where it was learned; later turns read it', async () => {
    const agent = (await alice.post('/api/agents', { name: 'Helper', tools: ['remember', 'forget'] }).expect(201)).body;
    fake.enqueue(
      { kind: 'toolCalls', calls: [{ name: 'remember', arguments: JSON.stringify({ text: 'Is vegetarian' }) }] },
      { kind: 'reply', text: 'Noted.' },
    );
    const res = await alice
      .post('/api/chat', { message: 'Remember that I am vegetarian', agentId: agent.id })
      .expect(200);
    expect(res.body.reply).toBe('Noted.');
    expect(toolNames(0)).toEqual(['remember', 'forget']);
    const saved = await memories();
    expect(saved).toEqual([
      expect.objectContaining({
        text: 'Is vegetarian',
        sourceConversationId: res.body.conversationId,
        sourceMessageId: res.body.messageId,
      }),
    ]);
    expect(toolResult(1)).toEqual({ ok: true, id: saved[0].id });

    // A later conversation reads it, with its id shown (the model may forget it).
    await alice.post('/api/chat', { message: 'Suggest a vegetarian dinner', agentId: agent.id }).expect(200);
    const memoryMessage = (fake.completions.at(-1)!.body.messages as Sent[]).find((m) =>
      m.content.includes('earlier conversations'),
    )!;
    expect(memoryMessage.content).toContain(`- [${saved[0].id}] Is vegetarian`);

    // replaces corrects it; forget deletes it.
    fake.enqueue(
      {
        kind: 'toolCalls',
        calls: [{ name: 'remember', arguments: JSON.stringify({ text: 'Is vegan', replaces: saved[0].id }) }],
      },
      { kind: 'reply', text: 'Updated.' },
    );
    await alice.post('/api/chat', { message: 'Actually I am vegan now', agentId: agent.id }).expect(200);
    expect((await memories()).map((m) => m.text)).toEqual(['Is vegan']);
    fake.enqueue(
      { kind: 'toolCalls', calls: [{ name: 'forget', arguments: JSON.stringify({ id: saved[0].id }) }] },
      { kind: 'reply', text: 'Forgotten.' },
    );
    await alice.post('/api/chat', { message: 'Forget my diet', agentId: agent.id }).expect(200);
    expect(await memories()).toEqual([]);
  });

  it("reports bad calls to the model and never touches another actor's memory", async () => {
    const bobs = (await bob.post('/api/memories', { text: "Bob's secret" }).expect(201)).body;
    const agent = (await alice.post('/api/agents', { name: 'Clumsy', tools: ['remember', 'forget'] }).expect(201)).body;
    fake.enqueue(
      { kind: 'toolCalls', calls: [{ name: 'forget', arguments: JSON.stringify({ id: bobs.id }) }] },
      {
        kind: 'toolCalls',
        calls: [{ name: 'remember', arguments: JSON.stringify({ text: 'mine now', replaces: bobs.id }) }],
      },
      { kind: 'toolCalls', calls: [{ name: 'remember', arguments: JSON.stringify({ text: 'x'.repeat(1001) }) }] },
      { kind: 'toolCalls', calls: [{ name: 'remember', arguments: '{not json' }] },
      { kind: 'reply', text: 'Done.' },
    );
    await alice.post('/api/chat', { message: 'go', agentId: agent.id }).expect(200);
    expect(toolResult(1)).toEqual({ ok: false, error: `Memory ${bobs.id} not found` });
    expect(toolResult(2)).toEqual({ ok: false, error: `Memory ${bobs.id} not found` });
    expect(toolResult(3)).toMatchObject({ ok: false, error: expect.stringMatching(/limit is 1000/) });
    expect(toolResult(4)).toEqual({ ok: false, error: 'arguments are not a JSON object' });
    expect((await bob.get(`/api/memories/${bobs.id}`).expect(200)).body.text).toBe("Bob's secret");
    expect(await memories()).toEqual([]);
  });

  it('offers the tools only to an agent that enables them, and never when memory is read-only or off', async () => {
    const plain = (await alice.post('/api/agents', { name: 'Plain' }).expect(201)).body;
    const reader = (
      await alice.post('/api/agents', { name: 'Reader', tools: ['remember', 'forget'], memoryMode: 'read' }).expect(201)
    ).body;
    expect(reader.memoryMode).toBe('read');
    const off = (await alice.post('/api/agents', { name: 'Off', tools: ['remember'], memoryMode: 'off' }).expect(201))
      .body;
    const writer = (await alice.post('/api/agents', { name: 'Writer', tools: ['remember'] }).expect(201)).body;
    await alice.post('/api/memories', { text: 'Pinned: likes jazz', pinned: true }).expect(201);
    for (const agent of [plain, reader, off])
      await alice.post('/api/chat', { message: 'hello', agentId: agent.id }).expect(200);
    expect([0, 1, 2].map(toolNames)).toEqual([[], [], []]);
    const read = (i: number) =>
      (fake.completions[i].body.messages as Sent[]).some((m) => m.content.includes('likes jazz'));
    expect([0, 1, 2].map(read)).toEqual([true, true, false]);
    // A temporary chat: no tools, nothing read.
    const temp = (await alice.post('/api/conversations', { agentId: writer.id, memory: false }).expect(201)).body;
    await alice.post('/api/chat', { message: 'hello', conversationId: temp.id }).expect(200);
    expect(toolNames(3)).toEqual([]);
    expect(read(3)).toBe(false);
    // A tool the agent does not enable is unknown to the turn, even if the model calls it.
    fake.enqueue(
      { kind: 'toolCalls', calls: [{ name: 'forget', arguments: '{"id":"00000000-0000-4000-8000-000000000000"}' }] },
      { kind: 'reply', text: 'ok' },
    );
    await alice.post('/api/chat', { message: 'hello', agentId: writer.id }).expect(200);
    expect(toolResult(5)).toEqual({ ok: false, error: 'unknown tool forget' });
    await alice.patch(`/api/agents/${writer.id}`, { memoryMode: 'sometimes' }).expect(400);
  });
});
