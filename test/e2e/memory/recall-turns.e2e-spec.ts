import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, asActor, BOB_KEY, type TestApp } from '../../support/test-app.js';

type Sent = { role: string; content: string };
type Json = Record<string, any>;

/**
 * Recall: before the model is called, a turn is given the messages of the actor's other
 * conversations (and of its own that left the window) that best match the new message, each
 * with its neighbour turn and date, within RECALL_TOKEN_BUDGET; the reply records which.
 */
describe('recall: the past brought into a turn', () => {
  const fixture = useAppWithFakeModel({ RECALL_MODE: 'on', RECALL_TOKEN_BUDGET: '400', HISTORY_WINDOW: '2' });
  let t: TestApp;
  let fake: FakeOpenAiServer;
  beforeAll(() => ({ app: t, fake } = fixture));

  const alice = asActor(() => t, ALICE_KEY);
  const bob = asActor(() => t, BOB_KEY);
  const lastSent = (): Sent[] => fake.completions.at(-1)!.body.messages as Sent[];
  const recallMessage = () =>
    lastSent().find((m) => m.role === 'system' && m.content.startsWith("From the user's past chats"));
  const replyOf = async (who: typeof alice, conversationId: string): Promise<Json> =>
    (await who.get(`/api/conversations/${conversationId}/messages`).expect(200)).body.items.at(-1);

  it("gives a new conversation the matching turn of another, with its answer and date, and records it on the reply; never another actor's", async () => {
    fake.enqueue({ kind: 'reply', text: 'Watercolours are a lovely hobby.' });
    const told = (
      await alice.post('/api/chat', { message: 'My sister Ana paints watercolour sunsets every Sunday' }).expect(200)
    ).body;
    await bob
      .post('/api/chat', { message: 'My sister paints murals of harbours, and the secret word is heron' })
      .expect(200);
    await alice.post('/api/chat', { message: 'Unrelated: how do I boil an egg?' }).expect(200);

    const asked = (await alice.post('/api/chat', { message: 'What does my sister paint?' }).expect(200)).body;
    const recall = recallMessage()!;
    expect(recall).toBeDefined();
    // After the instructions and memories, before the question.
    expect(lastSent().at(-1)).toEqual({ role: 'user', content: 'What does my sister paint?' });
    expect(recall.content).toContain(
      'user: My sister Ana paints watercolour sunsets every Sunday\nassistant: Watercolours are a lovely hobby.',
    );
    expect(recall.content).toMatch(/\[\d{4}-\d{2}-\d{2}, "My sister Ana paints/);
    expect(recall.content).not.toContain('heron');
    expect(recall.content).not.toContain('boil an egg');
    expect((await replyOf(alice, asked.conversationId)).recalledMessageIds).toEqual([told.userMessageId]);
    // Bob's turn, with the same words, recalls nothing of Alice's.
    await bob.post('/api/chat', { message: 'What does my sister paint, watercolour sunsets?' }).expect(200);
    expect(recallMessage()?.content ?? '').not.toContain('Ana');
  });

  it('neither recalls from nor recalls into a temporary chat (memory: false), nor a deleted conversation, nor an edited-away question', async () => {
    const temp = (await alice.post('/api/conversations', { memory: false }).expect(201)).body;
    await alice
      .post('/api/chat', { message: 'The locker code is 4711 for the kayak shed', conversationId: temp.id })
      .expect(200);
    const gone = (await alice.post('/api/chat', { message: 'The kayak shed key hangs by the door' }).expect(200)).body;
    await alice.delete(`/api/conversations/${gone.conversationId}`).expect(204);
    const edited = (await alice.post('/api/chat', { message: 'The kayak paddles are blue' }).expect(200)).body;
    await alice
      .post(`/api/conversations/${edited.conversationId}/messages/${edited.userMessageId}/edit`, {
        message: 'Pack the sunscreen',
      })
      .expect(200);

    const asked = (
      await alice.post('/api/chat', { message: 'Where is the kayak shed key and the locker code?' }).expect(200)
    ).body;
    expect(recallMessage()).toBeUndefined();
    expect((await replyOf(alice, asked.conversationId)).recalledMessageIds).toEqual([]);
    // A temporary chat recalls nothing either.
    await alice.post('/api/chat', { message: 'What does my sister paint?', conversationId: temp.id }).expect(200);
    expect(recallMessage()).toBeUndefined();
  });

  it("recalls this conversation's own turns once they left the window, never the ones the window holds", async () => {
    const first = (await alice.post('/api/chat', { message: 'My bicycle is a green Gazelle from 1987' }).expect(200))
      .body;
    const id = first.conversationId;
    await alice.post('/api/chat', { message: 'What does my bicycle look like?', conversationId: id }).expect(200);
    // HISTORY_WINDOW=2: the first turn is still in the window, so it is not recalled.
    expect(recallMessage()?.content ?? '').not.toContain('green Gazelle');
    await alice.post('/api/chat', { message: 'Tell me a joke', conversationId: id }).expect(200);
    await alice.post('/api/chat', { message: 'Which bicycle brand do I ride?', conversationId: id }).expect(200);
    expect(recallMessage()!.content).toContain('green Gazelle');
    expect((await replyOf(alice, id)).recalledMessageIds).toContain(first.userMessageId);
  });

  it('stays within RECALL_TOKEN_BUDGET', async () => {
    for (let i = 0; i < 12; i++)
      await alice
        .post('/api/chat', {
          message: `Garden note ${i}: the tomatoes in bed ${i} need water and a stake against the wind`,
        })
        .expect(200);
    const asked = (await alice.post('/api/chat', { message: 'Which tomatoes need water and a stake?' }).expect(200))
      .body;
    const reply = await replyOf(alice, asked.conversationId);
    expect(reply.recalledMessageIds.length).toBeGreaterThan(0);
    expect(reply.recalledMessageIds.length).toBeLessThan(12);
    // The message with its chat format (4 tokens) fits the budget, counted with the model's tokenizer.
    const { encode } = await import('gpt-tokenizer/encoding/o200k_base');
    expect(encode(recallMessage()!.content).length + 4).toBeLessThanOrEqual(400);
  });
});
