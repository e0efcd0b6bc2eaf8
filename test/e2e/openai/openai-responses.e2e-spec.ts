import OpenAI from 'openai';
import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { apiError, openAiClient } from '../../support/openai-client.js';
import { ALICE_KEY, auth, BOB_KEY, type TestApp } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';

type Sent = {
  role: string;
  content: string | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
};

/** OpenAI's Responses API with the official SDK as the client, served by chat turns, on both databases. */
describe('openai: responses', () => {
  const fixture = useAppWithFakeModel({ SYSTEM_PROMPT: 'sys', MAX_STREAMS_PER_ACTOR: '2' });
  let fake: FakeOpenAiServer;
  let t: TestApp;
  let alice: OpenAI;
  let bob: OpenAI;
  beforeAll(async () => {
    ({ app: t, fake } = fixture);
    const url = await t.url();
    alice = openAiClient(url, ALICE_KEY);
    bob = openAiClient(url, BOB_KEY);
  });

  const sent = () => (fake.lastCompletion.body.messages as Sent[]).map((m) => m.content);
  const texts = async (conversation: string) =>
    (await alice.conversations.items.list(conversation, { order: 'asc', limit: 100 })).data.map((i) =>
      i.type === 'message' ? `${i.role}: ${(i.content[0] as { text: string }).text}` : i.type,
    );

  it('answers in a conversation, replaying its items, and appends input and output', async () => {
    const conversation = await alice.conversations.create({
      items: [{ type: 'message', role: 'user', content: 'My name is Ada.' }],
    });
    fake.enqueue({ kind: 'reply', text: 'Hello Ada' });
    const first = await alice.responses.create({
      model: 'fake-model',
      conversation: conversation.id,
      input: 'Who am I?',
    });
    expect(first).toMatchObject({
      object: 'response',
      status: 'completed',
      output_text: 'Hello Ada',
      conversation: { id: conversation.id },
    });
    expect(first.id).toMatch(/^resp_/);
    expect(first.output).toEqual([
      {
        type: 'message',
        id: expect.stringMatching(/^msg_/),
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hello Ada', annotations: [], logprobs: [] }],
      },
    ]);
    expect(first.usage).toMatchObject({ input_tokens: 11, output_tokens: 7, total_tokens: 18 });
    expect(sent()).toEqual(['sys', 'My name is Ada.', 'Who am I?']);
    fake.enqueue({ kind: 'reply', text: 'Still Ada' });
    const second = await alice.responses.create({
      model: 'other-model',
      conversation: { id: conversation.id },
      input: [{ role: 'user', content: 'And now?' }],
      instructions: 'Be brief.',
      temperature: 0.3,
      max_output_tokens: 50,
    });
    expect(sent()).toEqual(['sys', 'Be brief.', 'My name is Ada.', 'Who am I?', 'Hello Ada', 'And now?']);
    expect(fake.lastCompletion.body).toMatchObject({ model: 'other-model', temperature: 0.3, max_tokens: 50 });
    expect(second).toMatchObject({ instructions: 'Be brief.', temperature: 0.3, max_output_tokens: 50 });
    expect(await texts(conversation.id)).toEqual([
      'user: My name is Ada.',
      'user: Who am I?',
      'assistant: Hello Ada',
      'user: And now?',
      'assistant: Still Ada',
    ]);
    // Read back as stored.
    const again = await alice.responses.retrieve(first.id);
    expect(again).toMatchObject({
      id: first.id,
      status: 'completed',
      output: first.output,
      conversation: { id: conversation.id },
    });
  });

  it('continues from any earlier response with previous_response_id: a branch of the tree', async () => {
    fake.enqueue({ kind: 'reply', text: 'a1' });
    const one = await alice.responses.create({ model: 'fake-model', input: 'one', metadata: { run: '1' } });
    expect(one.conversation).toBeNull();
    fake.enqueue({ kind: 'reply', text: 'a2' });
    const two = await alice.responses.create({ model: 'fake-model', input: 'two', previous_response_id: one.id });
    expect(sent()).toEqual(['sys', 'one', 'a1', 'two']);
    fake.enqueue({ kind: 'reply', text: 'b2' });
    const other = await alice.responses.create({ model: 'fake-model', input: 'TWO', previous_response_id: one.id });
    // The branch from `one` leaves `two` out.
    expect(sent()).toEqual(['sys', 'one', 'a1', 'TWO']);
    expect(other.previous_response_id).toBe(one.id);
    fake.enqueue({ kind: 'reply', text: 'a3' });
    await alice.responses.create({ model: 'fake-model', input: 'three', previous_response_id: two.id });
    expect(sent()).toEqual(['sys', 'one', 'a1', 'two', 'a2', 'three']);
    // One conversation holds them all, as a tree on the REST API.
    const found = await alice.responses.retrieve(one.id);
    expect(found.metadata).toEqual({ run: '1' });
    const conversationId = (await t.http().get(`/api/conversations?limit=1`).set(auth(ALICE_KEY)).expect(200)).body
      .items[0].id as string;
    const tree = (await t.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200)).body
      .messages as Array<{ content: string; siblingCount: number }>;
    expect(tree.map((m) => m.content)).toEqual(['one', 'a1', 'two', 'a2', 'three', 'a3']);
    expect(tree[2].siblingCount).toBe(2);
    // Another actor's response is unknown.
    expect(
      await apiError(bob.responses.create({ model: 'fake-model', input: 'x', previous_response_id: one.id })),
    ).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await apiError(bob.responses.retrieve(one.id))).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('a conversation started here continues on POST /api/chat, and the reverse', async () => {
    const conversation = await alice.conversations.create({});
    fake.enqueue({ kind: 'reply', text: 'from v1' });
    await alice.responses.create({ model: 'fake-model', conversation: conversation.id, input: 'hi v1' });
    fake.enqueue({ kind: 'reply', text: 'from rest' });
    const ours = conversation.id.slice('conv_'.length);
    const rest = (
      await t
        .http()
        .post('/api/chat')
        .set(auth(ALICE_KEY))
        .send({ conversationId: ours, message: 'hi rest' })
        .expect(200)
    ).body;
    expect(rest).toMatchObject({ conversationId: ours, reply: 'from rest' });
    expect(sent()).toEqual(['sys', 'hi v1', 'from v1', 'hi rest']);
    expect(await texts(conversation.id)).toEqual([
      'user: hi v1',
      'assistant: from v1',
      'user: hi rest',
      'assistant: from rest',
    ]);
    // The reverse: a conversation of the REST API is one of /v1, its reply a response.
    fake.enqueue({ kind: 'reply', text: 'r1' });
    const started = (
      await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'started on rest' }).expect(200)
    ).body;
    fake.enqueue({ kind: 'reply', text: 'r2' });
    await alice.responses.create({
      model: 'fake-model',
      conversation: `conv_${started.conversationId}`,
      input: 'and here',
    });
    expect(sent()).toEqual(['sys', 'started on rest', 'r1', 'and here']);
    expect((await alice.responses.retrieve(`resp_${started.messageId}`)).output_text).toBe('r1');
  });

  it('streams with responses.stream(): events in the order the SDK needs, and the final response', async () => {
    fake.enqueue({ kind: 'stream', chunks: ['Hel', 'lo ', 'world'] });
    const conversation = await alice.conversations.create({});
    const stream = alice.responses.stream({
      model: 'fake-model',
      conversation: conversation.id,
      input: 'stream please',
    });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (e) => deltas.push(e.delta));
    const final = await stream.finalResponse();
    expect(deltas.join('')).toBe('Hello world');
    expect(final).toMatchObject({ status: 'completed', output_text: 'Hello world' });
    expect(await texts(conversation.id)).toEqual(['user: stream please', 'assistant: Hello world']);
    expect((await alice.responses.retrieve(final.id)).output_text).toBe('Hello world');
  });

  it('raw events: types in order, increasing sequence numbers', async () => {
    fake.enqueue({ kind: 'stream', chunks: ['a', 'b'] });
    const res = await fetch(`${await t.url()}/v1/responses`, {
      method: 'POST',
      headers: { ...auth(ALICE_KEY), 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'fake-model', input: 'raw', stream: true }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await res.text())
      .split('\n\n')
      .filter((block) => block.includes('data: '))
      .map(
        (block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { type: string; sequence_number: number },
      );
    const types = events
      .map((e) => e.type)
      .filter((type, i, all) => type !== 'response.output_text.delta' || all[i - 1] !== type);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    // A model that fails mid-way ends the stream with response.failed; the partial reply is kept as failed.
    fake.enqueue({ kind: 'stream', chunks: ['half ', 'way'], end: 'break' });
    const broken = await fetch(`${await t.url()}/v1/responses`, {
      method: 'POST',
      headers: { ...auth(ALICE_KEY), 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'fake-model', input: 'break', stream: true }),
    });
    const last = (await broken.text())
      .split('\n\n')
      .filter((block) => block.includes('data: '))
      .at(-1)!;
    const failed = JSON.parse(last.slice(last.indexOf('data: ') + 6)) as {
      type: string;
      response: { id: string; status: string; error: { code: string } };
    };
    expect(failed).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'server_error' } },
    });
    expect((await alice.responses.retrieve(failed.response.id)).status).toBe('failed');
  });

  it('a client that leaves mid-stream does not lose the reply', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    fake.enqueue({ kind: 'stream', chunks: ['kept ', 'after ', 'leaving'], hold });
    const conversation = await alice.conversations.create({});
    const stream = alice.responses.stream({ model: 'fake-model', conversation: conversation.id, input: 'leave' });
    const ended = stream.done().catch((error: unknown) => error);
    await new Promise<void>((resolve) => stream.on('response.output_text.delta', () => resolve()));
    stream.abort();
    expect(await ended).toBeInstanceOf(OpenAI.APIUserAbortError);
    release();
    await until(async () => (await texts(conversation.id)).includes('assistant: kept after leaving'));
  });

  it('function tools: a call comes back as a function_call item, its output goes to the model with the call', async () => {
    const tools = [
      {
        type: 'function' as const,
        name: 'get_weather',
        description: 'Weather of a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        strict: false,
      },
    ];
    const conversation = await alice.conversations.create({});
    fake.enqueue({ kind: 'toolCalls', calls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }] });
    const asked = await alice.responses.create({
      model: 'fake-model',
      conversation: conversation.id,
      input: 'Weather in Paris?',
      tools,
    });
    expect(fake.lastCompletion.body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: tools[0].parameters,
          strict: false,
        },
      },
    ]);
    const call = asked.output.find((o) => o.type === 'function_call');
    expect(call).toMatchObject({
      type: 'function_call',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
      status: 'completed',
    });
    expect(asked.output.some((o) => o.type === 'message')).toBe(false);
    if (call?.type !== 'function_call') throw new Error('no call');
    fake.enqueue({ kind: 'reply', text: 'It is sunny in Paris' });
    const answered = await alice.responses.create({
      model: 'fake-model',
      conversation: conversation.id,
      tools,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' }],
    });
    expect(answered.output_text).toBe('It is sunny in Paris');
    const messages = fake.lastCompletion.body.messages as Sent[];
    expect(messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: call.call_id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: call.call_id, content: '{"sky":"sunny"}' },
    ]);
    const items = (await alice.conversations.items.list(conversation.id, { order: 'asc' })).data;
    expect(items.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output', 'message']);
    expect(items[2]).toMatchObject({ call_id: call.call_id, output: '{"sky":"sunny"}' });
    // With previous_response_id the same round trip works, and streamed calls arrive as function_call items too.
    fake.enqueue({ kind: 'toolCalls', calls: [{ name: 'get_weather', arguments: '{"city":"Rome"}' }] });
    const streamed = await alice.responses
      .stream({ model: 'fake-model', previous_response_id: answered.id, input: 'And Rome?', tools })
      .finalResponse();
    const rome = streamed.output.find((o) => o.type === 'function_call');
    expect(rome).toMatchObject({ name: 'get_weather', arguments: '{"city":"Rome"}' });
    fake.enqueue({ kind: 'reply', text: 'Rainy in Rome' });
    if (rome?.type !== 'function_call') throw new Error('no call');
    const last = await alice.responses.create({
      model: 'fake-model',
      previous_response_id: streamed.id,
      tools,
      input: [{ type: 'function_call_output', call_id: rome.call_id, output: 'rain' }],
    });
    expect(last.output_text).toBe('Rainy in Rome');
    expect((fake.lastCompletion.body.messages as Sent[]).slice(-2).map((m) => m.role)).toEqual(['assistant', 'tool']);
  });

  it('errors as SDK error classes: 409 while a reply is generated, 5xx for a model failure with the input kept, 400s', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    fake.enqueue({ kind: 'reply', text: 'slow', hold });
    const conversation = await alice.conversations.create({});
    const slow = alice.responses.create({ model: 'fake-model', conversation: conversation.id, input: 'first' });
    await until(async () => fake.completions.length === 1);
    const locked = await apiError(
      alice.responses.create({ model: 'fake-model', conversation: conversation.id, input: 'second' }),
    );
    expect(locked).toBeInstanceOf(OpenAI.ConflictError);
    expect(locked.code).toBe('conversation_locked');
    release();
    await slow;
    fake.enqueue({ kind: 'status', status: 500, message: 'upstream exploded' });
    const failed = await apiError(
      alice.responses.create({ model: 'fake-model', conversation: conversation.id, input: 'kept anyway' }),
    );
    expect(failed).toBeInstanceOf(OpenAI.InternalServerError);
    expect(failed.status).toBe(502);
    expect(await texts(conversation.id)).toContain('user: kept anyway');
    // At most MAX_STREAMS_PER_ACTOR streams at once (2 here), as on the REST streams.
    const held = deferred();
    fake.enqueue(
      { kind: 'stream', chunks: ['a', 'b'], hold: held.promise },
      { kind: 'stream', chunks: ['c', 'd'], hold: held.promise },
    );
    const asked = fake.completions.length;
    const open = [0, 1].map(() => alice.responses.stream({ model: 'fake-model', input: 'hold' }).finalResponse());
    await until(async () => fake.completions.length === asked + 2);
    const crowded = await apiError(alice.responses.create({ model: 'fake-model', input: 'third', stream: true }));
    expect(crowded).toBeInstanceOf(OpenAI.RateLimitError);
    held.resolve();
    await Promise.all(open);
    const both = await apiError(
      alice.responses.create({
        model: 'fake-model',
        conversation: conversation.id,
        previous_response_id: 'resp_x',
        input: 'x',
      }),
    );
    expect(both).toBeInstanceOf(OpenAI.BadRequestError);
    expect(both.param).toBe('previous_response_id');
    expect(
      await apiError(
        alice.responses.create({
          model: 'fake-model',
          input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'http://x', detail: 'auto' }] }],
        }),
      ),
    ).toBeInstanceOf(OpenAI.BadRequestError);
    expect(
      await apiError(
        alice.responses.create({
          model: 'fake-model',
          conversation: 'conv_00000000-0000-4000-8000-000000000000',
          input: 'x',
        }),
      ),
    ).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await apiError(alice.responses.create({ model: 'agent:nobody', input: 'x' }))).toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    expect(await apiError(alice.responses.create({ model: 'fake-model', input: 'x', temperature: 5 }))).toBeInstanceOf(
      OpenAI.BadRequestError,
    );
  });

  it('store: false answers from its input alone and keeps nothing', async () => {
    const count = async () =>
      (await t.http().get('/api/conversations?limit=100').set(auth(BOB_KEY)).expect(200)).body.items.length as number;
    const before = await count();
    fake.enqueue({ kind: 'reply', text: 'not kept' });
    const answer = await bob.responses.create({
      model: 'fake-model',
      store: false,
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: 'earlier' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'now' },
      ],
    });
    expect(answer).toMatchObject({ status: 'completed', output_text: 'not kept', store: false, conversation: null });
    expect(sent()).toEqual(['sys', 'Be brief.', 'earlier', 'ok', 'now']);
    fake.enqueue({ kind: 'stream', chunks: ['also ', 'not'] });
    const streamed = await bob.responses
      .stream({ model: 'fake-model', store: false, input: 'stream it' })
      .finalResponse();
    expect(streamed.output_text).toBe('also not');
    expect(await count()).toBe(before);
    expect(await apiError(bob.responses.retrieve(answer.id))).toBeInstanceOf(OpenAI.NotFoundError);
    const conversation = await bob.conversations.create({});
    expect(
      await apiError(
        bob.responses.create({ model: 'fake-model', store: false, conversation: conversation.id, input: 'x' }),
      ),
    ).toBeInstanceOf(OpenAI.BadRequestError);
  });

  it("models lists the configured model and the caller's agents; agent:<name> answers with that agent", async () => {
    const agent = (
      await t
        .http()
        .post('/api/agents')
        .set(auth(ALICE_KEY))
        .send({ name: 'pirate', systemPrompt: 'Talk like a pirate.', model: 'pirate-model' })
        .expect(201)
    ).body;
    const models = [];
    for await (const model of alice.models.list()) models.push(model.id);
    expect(models).toEqual(['fake-model', 'agent:pirate']);
    fake.enqueue({ kind: 'reply', text: 'Arr' });
    const answer = await alice.responses.create({ model: 'agent:pirate', input: 'Hello' });
    expect(answer.output_text).toBe('Arr');
    expect(fake.lastCompletion.body.model).toBe('pirate-model');
    expect(sent()).toEqual(['Talk like a pirate.', 'sys', 'Hello']);
    expect(
      (await t.http().get(`/api/conversations?limit=1`).set(auth(ALICE_KEY)).expect(200)).body.items[0].agentId,
    ).toBe(agent.id);
  });
});

/** `store: false` is generated as any reply: the same bounds, tool rounds and metrics, with nothing kept. */
describe('openai: responses that keep nothing', () => {
  const fixture = useAppWithFakeModel({ MAX_REPLY_CHARS: '1000' });
  let bob: OpenAI;
  beforeAll(async () => {
    bob = openAiClient(await fixture.app.url(), BOB_KEY);
  });
  const truncatedTurns = async () =>
    Number(
      /^chat_turns_total\{outcome="truncated"\} (\d+)/m.exec(
        (await fixture.app.http().get('/metrics').expect(200)).text,
      )?.[1] ?? 0,
    );

  it('cuts a reply at MAX_REPLY_CHARS, whole or streamed without end, as incomplete, and counts it', async () => {
    const before = await truncatedTurns();
    fixture.fake.enqueue({ kind: 'reply', text: 'x'.repeat(1500) });
    const whole = await bob.responses.create({ model: 'fake-model', store: false, input: 'Talk at length' });
    expect(whole).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      store: false,
    });
    expect(whole.output_text).toBe('x'.repeat(1000));
    fixture.fake.enqueue({ kind: 'endless', piece: 'y' });
    const streamed = await bob.responses
      .stream({ model: 'fake-model', store: false, input: 'Never stop' })
      .finalResponse();
    expect(streamed).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(streamed.output_text).toBe('y'.repeat(1000));
    expect(await truncatedTurns()).toBe(before + 2);
  });
});
