import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { deltaText, openEventStream } from '../../support/sse-client.js';
import { ALICE_KEY, auth } from '../../support/test-app.js';

// Reasoning models (vLLM, Ollama, DeepSeek) stream their thinking apart from the answer: it is
// kept in a field of its own, streamed as its own event, exported, and never sent back to the model.
describe('reasoning of a reasoning model', () => {
  const fixture = useAppWithFakeModel({ MAX_REPLY_CHARS: '1000' });
  const stream = async (body: object) =>
    openEventStream(`${await fixture.app.url()}/api/chat/stream`, { method: 'POST', headers: auth(ALICE_KEY), body });
  const messages = async (id: string) =>
    (await fixture.app.http().get(`/api/conversations/${id}/messages`).set(auth(ALICE_KEY)).expect(200)).body.items;

  it('streams reasoning deltas as `reasoning` events, stores them apart from the answer, and never replays them', async () => {
    fixture.fake.enqueue({ kind: 'stream', reasoning: ['The user ', 'asks for ', 'a sum.'], chunks: ['Four', '.'] });
    const events = await (await stream({ message: 'two plus two?' })).collect();
    expect(events.map((e) => e.event)).toEqual([
      'conversation',
      'reasoning',
      'reasoning',
      'reasoning',
      'delta',
      'delta',
      'done',
    ]);
    expect(
      events
        .filter((e) => e.event === 'reasoning')
        .map((e) => e.data.text)
        .join(''),
    ).toBe('The user asks for a sum.');
    expect(deltaText(events)).toBe('Four.');
    const done = events.at(-1)!.data;
    expect(done).toMatchObject({
      reply: 'Four.',
      status: 'complete',
      reasoning: 'The user asks for a sum.',
      reasoningMs: expect.any(Number),
    });

    const id = events[0].data.conversationId;
    const [, reply] = await messages(id);
    expect(reply).toMatchObject({
      content: 'Four.',
      reasoning: 'The user asks for a sum.',
      reasoningMs: expect.any(Number),
    });
    expect(reply.reasoningMs).toBeGreaterThanOrEqual(0);

    await fixture.app
      .http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ conversationId: id, message: 'and times three?' })
      .expect(200);
    const sent = JSON.stringify(fixture.fake.lastCompletion.body.messages);
    expect(sent).toContain('Four.');
    expect(sent).not.toContain('asks for a sum');
  });

  it("reads Ollama's `reasoning` field, and a plain (not streamed) answer's reasoning", async () => {
    fixture.fake.enqueue({
      kind: 'reply',
      text: 'Paris.',
      reasoning: 'Capital of France.',
      reasoningField: 'reasoning',
    });
    const streamed = await (await stream({ message: 'capital of France?' })).collect();
    expect(streamed.at(-1)!.data.reasoning).toBe('Capital of France.');

    fixture.fake.enqueue({ kind: 'reply', text: 'Rome.', reasoning: 'Capital of Italy.' });
    const plain = (
      await fixture.app.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'capital of Italy?' }).expect(200)
    ).body;
    const [, reply] = await messages(plain.conversationId);
    expect(reply).toMatchObject({ content: 'Rome.', reasoning: 'Capital of Italy.' });
  });

  it('a reply without reasoning has none, and its done event says nothing of it', async () => {
    const events = await (await stream({ message: 'hello' })).collect();
    expect(events.map((e) => e.event)).not.toContain('reasoning');
    expect(events.at(-1)!.data).not.toHaveProperty('reasoning');
    const [, reply] = await messages(events[0].data.conversationId);
    expect(reply).toMatchObject({ reasoning: null, reasoningMs: null });
  });

  it('keeps at most MAX_REPLY_CHARS of reasoning, and the answer goes on', async () => {
    fixture.fake.enqueue({
      kind: 'stream',
      reasoning: Array.from({ length: 30 }, () => 'x'.repeat(100)),
      chunks: ['Done.'],
    });
    const events = await (await stream({ message: 'think hard' })).collect();
    expect(events.at(-1)!.data).toMatchObject({ reply: 'Done.', status: 'complete' });
    expect(
      events
        .filter((e) => e.event === 'reasoning')
        .map((e) => e.data.text)
        .join(''),
    ).toHaveLength(1000);
    const [, reply] = await messages(events[0].data.conversationId);
    expect(reply.reasoning).toHaveLength(1000);
    expect(reply.status).toBe('complete');
  });

  it('exports the reasoning (JSON and Markdown), and an import keeps it', async () => {
    fixture.fake.enqueue({ kind: 'reply', text: 'Blue.', reasoning: 'Rayleigh scattering.' });
    const { conversationId } = (
      await fixture.app.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'sky colour?' }).expect(200)
    ).body;
    const exported = (
      await fixture.app.http().get(`/api/conversations/${conversationId}/export`).set(auth(ALICE_KEY)).expect(200)
    ).body;
    const reply = exported.conversation.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(reply).toMatchObject({ content: 'Blue.', reasoning: 'Rayleigh scattering.' });
    const markdown = (
      await fixture.app
        .http()
        .get(`/api/conversations/${conversationId}/export?format=markdown`)
        .set(auth(ALICE_KEY))
        .expect(200)
    ).text;
    expect(markdown).toContain('Rayleigh scattering.');

    const imported = (
      await fixture.app.http().post('/api/conversations/import').set(auth(ALICE_KEY)).send(exported).expect(201)
    ).body;
    const [, again] = await messages(imported.id);
    expect(again).toMatchObject({ content: 'Blue.', reasoning: 'Rayleigh scattering.' });
  });
});
