import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, asActor, BOB_KEY, type TestApp } from '../../support/test-app.js';

type Sent = { role: string; content: string };

describe('memories: read into every turn', () => {
  const fixture = useAppWithFakeModel({ MEMORY_TOKEN_BUDGET: '120' });
  let t: TestApp;
  let fake: FakeOpenAiServer;
  beforeAll(() => ({ app: t, fake } = fixture));

  const as = (key: string) => asActor(() => t, key);
  const alice = as(ALICE_KEY);
  const bob = as(BOB_KEY);
  const remember = async (text: string, extra: object = {}, who = alice) =>
    (await who.post('/api/memories', { text, ...extra }).expect(201)).body.id as string;
  const lastSent = (): Sent[] => fake.completions.at(-1)!.body.messages as Sent[];
  const memoryMessage = () =>
    lastSent().find((m) => m.role === 'system' && m.content.includes('earlier conversations'));

  it('sends pinned memories first, then those sharing words with the message, and records them on the reply', async () => {
    const pinned = await remember('Always answer in British English', { pinned: true });
    const cat = await remember('Has a ginger cat called Marmalade');
    await remember('Works night shifts at the hospital');
    const res = await alice.post('/api/chat', { message: 'What food suits my ginger cat?' }).expect(200);
    const sent = lastSent();
    const memory = memoryMessage()!;
    // After the instructions, before the question.
    expect(sent.indexOf(memory)).toBeLessThan(sent.length - 1);
    expect(memory.content.split('\n').slice(1)).toEqual([
      '- Always answer in British English',
      '- Has a ginger cat called Marmalade',
    ]);
    const messages = (await alice.get(`/api/conversations/${res.body.conversationId}/messages`).expect(200)).body.items;
    expect(messages.map((m: { memoryIds: string[] }) => m.memoryIds)).toEqual([[], [pinned, cat]]);

    // The preview has no message to match: the pinned memory only, counted in its budget.
    const preview = (await alice.get(`/api/conversations/${res.body.conversationId}/context`).expect(200)).body;
    const part = preview.messages.find((m: { kind: string }) => m.kind === 'memory');
    expect(part).toMatchObject({ role: 'system', content: expect.stringContaining('British English') });
    expect(part.tokens).toBeLessThanOrEqual(120);
    expect(preview.memoryIds).toEqual([pinned]);
    for (const id of [pinned, cat]) await alice.delete(`/api/memories/${id}`).expect(204);
  });

  it('keeps the memories within MEMORY_TOKEN_BUDGET', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(await remember(`Budget fact ${i}: enjoys sailing on lake number ${i} every summer with friends`));
    await alice.post('/api/chat', { message: 'Any sailing plans for the lake this summer?' }).expect(200);
    const lines = memoryMessage()!.content.split('\n').slice(1);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(12);
    for (const id of ids) await alice.delete(`/api/memories/${id}`).expect(204);
  });

  it("never gives one actor's memories to another, nor an agent's memories to other conversations", async () => {
    await remember('Bob keeps bees on his roof', {}, bob);
    const agent = (await alice.post('/api/agents', { name: 'Gardener' }).expect(201)).body;
    const scoped = await remember('Grows tomatoes on the balcony', { agentId: agent.id });
    await alice.post('/api/chat', { message: 'Do bees like tomatoes on a roof balcony?' }).expect(200);
    expect(memoryMessage()).toBeUndefined();
    const res = await alice
      .post('/api/chat', { message: 'Do bees like tomatoes on a roof balcony?', agentId: agent.id })
      .expect(200);
    expect(memoryMessage()!.content).toContain('Grows tomatoes on the balcony');
    expect(memoryMessage()!.content).not.toContain('Bob');
    const reply = (await alice.get(`/api/conversations/${res.body.conversationId}/messages`).expect(200)).body.items[1];
    expect(reply.memoryIds).toEqual([scoped]);
  });

  it('sends nothing of memory to a temporary chat (memory: false)', async () => {
    await remember('Plays the violin in an orchestra', { pinned: true });
    const temp = (await alice.post('/api/conversations', { memory: false }).expect(201)).body;
    expect(temp.memory).toBe(false);
    await alice
      .post('/api/chat', { message: 'Which violin strings for the orchestra?', conversationId: temp.id })
      .expect(200);
    expect(memoryMessage()).toBeUndefined();
    await alice.post('/api/chat', { message: 'Which violin strings for the orchestra?' }).expect(200);
    expect(memoryMessage()!.content).toContain('violin');
  });
});
