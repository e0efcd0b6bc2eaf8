import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { deltaText, openEventStream } from '../../support/sse-client.js';
import { ALICE_KEY, auth, BOB_KEY, type TestApp } from '../../support/test-app.js';

describe('session state, threads and the update_state tool', () => {
  const fixture = useAppWithFakeModel();
  let fake: FakeOpenAiServer;
  let t: TestApp;
  // The fixture is filled in by its own beforeAll, which runs first.
  beforeAll(() => ({ fake, app: t } = fixture));

  const http = () => t.http();
  const newConversation = async (body: object = {}) =>
    (await http().post('/api/conversations').set(auth(ALICE_KEY)).send(body).expect(201)).body;

  describe('state', () => {
    it('creates a conversation with a state, reads, replaces and merge-patches it', async () => {
      const c = await newConversation({ title: 'Trip', state: { city: 'Lisbon', days: 3 } });
      expect(c).toMatchObject({
        title: 'Trip',
        agentId: null,
        state: { city: 'Lisbon', days: 3 },
        messages: [],
        threads: [],
      });
      const path = `/api/conversations/${c.id}/state`;
      expect((await http().get(path).set(auth(ALICE_KEY)).expect(200)).body).toEqual({ city: 'Lisbon', days: 3 });

      const put = await http()
        .put(path)
        .set(auth(ALICE_KEY))
        .send({ city: 'Porto', budget: { eur: 500 } })
        .expect(200);
      expect(put.body).toEqual({ city: 'Porto', budget: { eur: 500 } });

      const patched = await http()
        .patch(path)
        .set(auth(ALICE_KEY))
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ budget: { usd: 550 }, city: null, nights: 2 }))
        .expect(200);
      expect(patched.body).toEqual({ budget: { eur: 500, usd: 550 }, nights: 2 });
      const plainJson = await http().patch(path).set(auth(ALICE_KEY)).send({ nights: 3 }).expect(200);
      expect(plainJson.body).toEqual({ budget: { eur: 500, usd: 550 }, nights: 3 });
      expect((await http().get(`/api/conversations/${c.id}`).set(auth(ALICE_KEY)).expect(200)).body.state).toEqual(
        plainJson.body,
      );
    });

    it.each([
      ['an array', 'put', '[1, 2]'],
      ['a string', 'put', '"text"'],
      ['null', 'patch', 'null'],
      ['malformed JSON', 'patch', '{"a": '],
      ['a state over 64 KB', 'put', JSON.stringify({ big: 'x'.repeat(64 * 1024) })],
    ] as const)('answers 400 for %s, leaving the state as it was', async (_label, method, raw) => {
      const c = await newConversation({ state: { keep: true } });
      const path = `/api/conversations/${c.id}/state`;
      const res = await http()
        [method](path)
        .set(auth(ALICE_KEY))
        .set('Content-Type', 'application/json')
        .send(raw)
        .expect(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect((await http().get(path).set(auth(ALICE_KEY)).expect(200)).body).toEqual({ keep: true });
    });

    it('refuses a patch that would grow the state over 64 KB', async () => {
      const c = await newConversation({ state: { a: 'x'.repeat(40_000) } });
      const res = await http()
        .patch(`/api/conversations/${c.id}/state`)
        .set(auth(ALICE_KEY))
        .send({ b: 'y'.repeat(40_000) })
        .expect(400);
      expect(res.body.message).toMatch(/limit is 65536/);
    });

    it("keeps one actor's state from another (404) and unchanged", async () => {
      const c = await newConversation({ state: { secret: 'alice' } });
      const path = `/api/conversations/${c.id}/state`;
      await http().get(path).set(auth(BOB_KEY)).expect(404);
      await http().put(path).set(auth(BOB_KEY)).send({ secret: 'bob' }).expect(404);
      await http().patch(path).set(auth(BOB_KEY)).send({ secret: 'bob' }).expect(404);
      expect((await http().get(path).set(auth(ALICE_KEY)).expect(200)).body).toEqual({ secret: 'alice' });
      await http()
        .post('/api/conversations')
        .set(auth(ALICE_KEY))
        .send({ state: [1] })
        .expect(400);
    });

    it('shows the state to the model in a system message', async () => {
      const c = await newConversation({ state: { user: 'Ada' } });
      await http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'hi', conversationId: c.id }).expect(200);
      const system = fake.lastCompletion.body.messages!.filter((m) => m.role === 'system');
      expect(system).toEqual([
        { role: 'system', content: expect.stringMatching(/^Conversation state \(JSON.*\n\{"user":"Ada"\}$/s) },
      ]);
    });
  });

  describe('the update_state tool', () => {
    it('lets the model change the state through tool calls, then stores its final answer', async () => {
      const agent = (
        await http()
          .post('/api/agents')
          .set(auth(ALICE_KEY))
          .send({ name: 'Keeper', tools: ['update_state'] })
          .expect(201)
      ).body;
      const c = await newConversation({ agentId: agent.id, state: { items: ['milk'] } });
      fake.enqueue(
        {
          kind: 'toolCalls',
          calls: [
            { name: 'update_state', arguments: JSON.stringify({ patch: { items: ['milk', 'eggs'], count: 2 } }) },
          ],
        },
        { kind: 'reply', text: 'Added eggs.' },
      );
      const res = await http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ message: 'add eggs', conversationId: c.id })
        .expect(200);
      expect(res.body.reply).toBe('Added eggs.');
      expect(res.body.usage).toEqual({ promptTokens: 22, completionTokens: 14 });

      const [first, second] = fake.completions;
      expect(first.body.tools).toEqual([
        expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'update_state' }) }),
      ]);
      expect(first.body.messages!.at(-1)).toEqual({ role: 'user', content: 'add eggs' });
      // The second call carries the tool exchange, in the API's shape.
      const tail = second.body.messages!.slice(-2) as unknown as Array<Record<string, unknown>>;
      expect(tail[0]).toMatchObject({
        role: 'assistant',
        tool_calls: [expect.objectContaining({ function: expect.objectContaining({ name: 'update_state' }) })],
      });
      expect(tail[1]).toMatchObject({
        role: 'tool',
        content: JSON.stringify({ ok: true, state: { items: ['milk', 'eggs'], count: 2 } }),
      });

      expect((await http().get(`/api/conversations/${c.id}/state`).set(auth(ALICE_KEY)).expect(200)).body).toEqual({
        items: ['milk', 'eggs'],
        count: 2,
      });
      const stored = (await http().get(`/api/conversations/${c.id}`).set(auth(ALICE_KEY)).expect(200)).body.messages;
      expect(stored.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
      expect(stored[1].toolCalls).toEqual([
        { name: 'update_state', arguments: expect.any(String), result: expect.stringContaining('"ok":true') },
      ]);

      // Later turns replay only the words, never the tool exchange: the history stays valid for the API.
      await http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'thanks', conversationId: c.id }).expect(200);
      const replay = fake.lastCompletion.body.messages!.filter((m) => m.role !== 'system');
      expect(replay).toEqual([
        { role: 'user', content: 'add eggs' },
        { role: 'assistant', content: 'Added eggs.' },
        { role: 'user', content: 'thanks' },
      ]);
    });

    it('reports a bad tool call to the model instead of failing the turn, and streams tool rounds', async () => {
      const agent = (
        await http()
          .post('/api/agents')
          .set(auth(ALICE_KEY))
          .send({ name: 'Clumsy', tools: ['update_state'] })
          .expect(201)
      ).body;
      fake.enqueue(
        { kind: 'toolCalls', calls: [{ name: 'update_state', arguments: '{"patch": "not an object"}' }] },
        { kind: 'stream', chunks: ['Sorry, ', 'fixed.'] },
      );
      const base = await t.url();
      const events = await (
        await openEventStream(`${base}/api/chat/stream`, {
          method: 'POST',
          headers: auth(ALICE_KEY),
          body: { message: 'go', agentId: agent.id },
        })
      ).collect();
      expect(deltaText(events)).toBe('Sorry, fixed.');
      expect(events.at(-1)!.event).toBe('done');
      const toolResult = (fake.completions[1].body.messages!.at(-1) as unknown as { content: string }).content;
      expect(JSON.parse(toolResult)).toEqual({ ok: false, error: 'a state patch must be a JSON object' });
    });

    it('gives up (502) on a model that keeps calling tools once none are offered', async () => {
      const agent = (
        await http()
          .post('/api/agents')
          .set(auth(ALICE_KEY))
          .send({ name: 'Stubborn', tools: ['update_state'] })
          .expect(201)
      ).body;
      const call = { kind: 'toolCalls' as const, calls: [{ name: 'update_state', arguments: '{"patch":{"n":1}}' }] };
      fake.enqueue(call, call, call, call, call);
      const res = await http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ message: 'loop', agentId: agent.id })
        .expect(502);
      expect(res.body.message).toMatch(/kept calling tools after 4 rounds/);
      expect(fake.completions).toHaveLength(5);
    });

    it('titles a conversation created empty with its first message', async () => {
      const c = await newConversation();
      expect(c.title).toBe('New conversation');
      await http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ conversationId: c.id, message: 'Plan a trip to Kyoto' })
        .expect(200);
      expect((await http().get(`/api/conversations/${c.id}`).set(auth(ALICE_KEY)).expect(200)).body.title).toBe(
        'Plan a trip to Kyoto',
      );
      const titled = await newConversation({ title: 'Kept' });
      await http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ conversationId: titled.id, message: 'hello' })
        .expect(200);
      expect((await http().get(`/api/conversations/${titled.id}`).set(auth(ALICE_KEY)).expect(200)).body.title).toBe(
        'Kept',
      );
    });

    it('does not offer tools to an agent without them', async () => {
      const agent = (await http().post('/api/agents').set(auth(ALICE_KEY)).send({ name: 'No tools' }).expect(201)).body;
      await http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'hi', agentId: agent.id }).expect(200);
      expect(fake.lastCompletion.body.tools).toBeUndefined();
    });

    it('stops offering tools after the bounded number of rounds', async () => {
      const agent = (
        await http()
          .post('/api/agents')
          .set(auth(ALICE_KEY))
          .send({ name: 'Loop', tools: ['update_state'] })
          .expect(201)
      ).body;
      const call = { kind: 'toolCalls' as const, calls: [{ name: 'update_state', arguments: '{"patch":{"n":1}}' }] };
      fake.enqueue(call, call, call, call, { kind: 'reply', text: 'done looping' });
      const res = await http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ message: 'loop', agentId: agent.id })
        .expect(200);
      expect(res.body.reply).toBe('done looping');
      expect(fake.completions).toHaveLength(5);
      expect(fake.completions[4].body.tools).toBeUndefined();
    });
  });

  describe('threads', () => {
    it('keeps a history per thread, shares the state, and keeps a thread system prompt', async () => {
      const c = await newConversation({ state: { shared: 1 } });
      const chat = (body: object) =>
        http()
          .post('/api/chat')
          .set(auth(ALICE_KEY))
          .send({ conversationId: c.id, ...body })
          .expect(200);
      await chat({ message: 'main one' });
      await chat({ message: 'side one', thread: 'side', system: 'You are the side thread.' });
      await chat({ message: 'main two' });
      expect(fake.lastCompletion.body.messages!.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
        'main one',
        'reply to: main one',
        'main two',
      ]);
      const second = await chat({ message: 'side two', thread: 'side' });
      expect(second.body.thread).toBe('side');
      expect(fake.lastCompletion.body.messages).toEqual([
        { role: 'system', content: 'You are the side thread.' },
        { role: 'system', content: expect.stringContaining('{"shared":1}') },
        { role: 'user', content: 'side one' },
        { role: 'assistant', content: 'reply to: side one' },
        { role: 'user', content: 'side two' },
      ]);

      const detail = (await http().get(`/api/conversations/${c.id}`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(
        detail.threads.map((th: { name: string; systemPrompt: string | null }) => [th.name, th.systemPrompt]),
      ).toEqual([
        ['main', null],
        ['side', 'You are the side thread.'],
      ]);
      expect(detail.messages).toHaveLength(8);
      const side = (await http().get(`/api/conversations/${c.id}?thread=side`).set(auth(ALICE_KEY)).expect(200)).body;
      expect(side.messages.map((m: { content: string; thread: string }) => [m.thread, m.content])).toEqual([
        ['side', 'side one'],
        ['side', 'reply to: side one'],
        ['side', 'side two'],
        ['side', 'reply to: side two'],
      ]);
      await http().get(`/api/conversations/${c.id}?thread=Bad Name`).set(auth(ALICE_KEY)).expect(400);
      await http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ message: 'x', conversationId: c.id, thread: 'UPPER' })
        .expect(400);
    });

    it('regenerates the last answer of a named thread', async () => {
      const c = await newConversation();
      await http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ conversationId: c.id, message: 'side question', thread: 'side' })
        .expect(200);
      await http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ conversationId: c.id, message: 'main question' })
        .expect(200);
      fake.enqueue({ kind: 'reply', text: 'better side answer' });
      const res = await http()
        .post(`/api/conversations/${c.id}/regenerate`)
        .set(auth(ALICE_KEY))
        .send({ thread: 'side' })
        .expect(200);
      expect(res.body).toMatchObject({ reply: 'better side answer', thread: 'side' });
      expect(fake.lastCompletion.body.messages).toEqual([{ role: 'user', content: 'side question' }]);
      await http()
        .post(`/api/conversations/${c.id}/regenerate`)
        .set(auth(ALICE_KEY))
        .send({ thread: 'empty' })
        .expect(409);
    });
  });
});
