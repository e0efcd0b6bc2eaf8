import OpenAI from 'openai';
import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { apiError, openAiClient } from '../../support/openai-client.js';
import { ALICE_KEY, type TestApp } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';

type Sent = { role: string; content: string | null };

/**
 * What an app written against OpenAI sends reaches the model as OpenAI would use it, or is
 * refused with a 400 naming the parameter: driven with the official SDK, on both databases.
 */
describe('openai: protocol fidelity', () => {
  const fixture = useAppWithFakeModel({ SYSTEM_PROMPT: 'sys' });
  let fake: FakeOpenAiServer;
  let t: TestApp;
  let alice: OpenAI;
  beforeAll(async () => {
    ({ app: t, fake } = fixture);
    alice = openAiClient(await t.url(), ALICE_KEY);
  });

  const sent = () => (fake.lastCompletion.body.messages as Sent[]).map((m) => `${m.role}: ${m.content}`);
  const itemTexts = async (conversation: string) =>
    (await alice.conversations.items.list(conversation, { order: 'asc', limit: 100 })).data.map((i) =>
      i.type === 'message' ? `${i.role}: ${(i.content[0] as { text: string }).text}` : i.type,
    );

  describe('developer and system messages in input', () => {
    it('reach the model in their place, are stored as items, and are replayed on later turns', async () => {
      const conversation = await alice.conversations.create({});
      fake.enqueue({ kind: 'reply', text: 'Bonjour' });
      await alice.responses.create({
        model: 'fake-model',
        conversation: conversation.id,
        input: [
          { role: 'developer', content: 'Always answer in French.' },
          { role: 'user', content: 'Hello' },
        ],
      });
      expect(sent()).toEqual(['system: sys', 'system: Always answer in French.', 'user: Hello']);
      expect(await itemTexts(conversation.id)).toEqual([
        'system: Always answer in French.',
        'user: Hello',
        'assistant: Bonjour',
      ]);
      fake.enqueue({ kind: 'reply', text: 'Ça va' });
      await alice.responses.create({
        model: 'fake-model',
        conversation: conversation.id,
        input: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'How are you?' },
        ],
      });
      expect(sent()).toEqual([
        'system: sys',
        'system: Always answer in French.',
        'user: Hello',
        'assistant: Bonjour',
        'system: Be brief.',
        'user: How are you?',
      ]);
    });

    it('with store: false, reach the model in their place', async () => {
      fake.enqueue({ kind: 'reply', text: 'Bonjour' });
      await alice.responses.create({
        model: 'fake-model',
        store: false,
        input: [
          { role: 'developer', content: 'Always answer in French.' },
          { role: 'user', content: 'Hello' },
        ],
      });
      expect(sent()).toEqual(['system: sys', 'system: Always answer in French.', 'user: Hello']);
    });
  });

  it('conversations.items.list accepts include (sent as include[])', async () => {
    const conversation = await alice.conversations.create({
      items: [{ type: 'message', role: 'user', content: 'hi' }],
    });
    const page = await alice.conversations.items.list(conversation.id, { include: ['message.output_text.logprobs'] });
    expect(page.data.map((i) => i.type)).toEqual(['message']);
    const bad = await apiError(
      alice.conversations.items.list(conversation.id, { include: ['no.such.thing' as 'message.output_text.logprobs'] }),
    );
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect(bad.param).toBe('include');
  });

  describe('tool rounds', () => {
    const tools = [
      {
        type: 'function' as const,
        name: 'get_weather',
        description: 'Weather of a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        strict: null,
      },
    ];

    /** A conversation whose last response asks for get_weather: its call id and the response. */
    async function withPendingCall() {
      const conversation = await alice.conversations.create({});
      fake.enqueue({ kind: 'toolCalls', calls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }] });
      const asked = await alice.responses.create({
        model: 'fake-model',
        conversation: conversation.id,
        input: 'Weather in Paris?',
        tools,
      });
      const call = asked.output.find((o) => o.type === 'function_call');
      if (call?.type !== 'function_call') throw new Error('no call');
      return { conversation: conversation.id, callId: call.call_id, response: asked };
    }

    it('an output for an unknown call_id is a 400 naming input, and nothing is stored', async () => {
      const { conversation } = await withPendingCall();
      const before = await itemTexts(conversation);
      const calls = fake.completions.length;
      const error = await apiError(
        alice.responses.create({
          model: 'fake-model',
          conversation,
          tools,
          input: [{ type: 'function_call_output', call_id: 'call_unknown', output: 'x' }],
        }),
      );
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error.param).toBe('input');
      expect(error.message).toContain('call_unknown');
      expect(await itemTexts(conversation)).toEqual(before);
      expect(fake.completions.length).toBe(calls);
      // In a new conversation no call is pending at all.
      expect(
        await apiError(
          alice.responses.create({
            model: 'fake-model',
            input: [{ type: 'function_call_output', call_id: 'call_x', output: 'x' }],
          }),
        ),
      ).toBeInstanceOf(OpenAI.BadRequestError);
    });

    it('a user message while a call is unanswered is a 400, in the conversation or after the response', async () => {
      const { conversation, callId, response } = await withPendingCall();
      const before = await itemTexts(conversation);
      for (const where of [{ conversation }, { previous_response_id: response.id }]) {
        const error = await apiError(
          alice.responses.create({ model: 'fake-model', ...where, tools, input: 'Never mind.' }),
        );
        expect(error).toBeInstanceOf(OpenAI.BadRequestError);
        expect(error.param).toBe('input');
        expect(error.message).toContain(callId);
      }
      // The output first, then the message: a complete round.
      fake.enqueue({ kind: 'reply', text: 'Sunny. And?' });
      const answered = await alice.responses.create({
        model: 'fake-model',
        conversation,
        tools,
        input: [
          { type: 'function_call_output', call_id: callId, output: 'sunny' },
          { role: 'user', content: 'Never mind.' },
        ],
      });
      expect(answered.output_text).toBe('Sunny. And?');
      expect(await itemTexts(conversation)).toEqual([
        ...before,
        'function_call_output',
        'user: Never mind.',
        'assistant: Sunny. And?',
      ]);
    });

    it('a request that declares no tools runs none: a call the model makes anyway is not answered on the server', async () => {
      const before = fake.completions.length;
      fake.enqueue({ kind: 'toolCalls', calls: [{ name: 'get_weather', arguments: '{"city":"Oslo"}' }] });
      const error = await apiError(alice.responses.create({ model: 'fake-model', input: 'Weather in Oslo?' }));
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
      expect(fake.completions.length).toBe(before + 1);
      expect(fake.lastCompletion.body.tools).toBeUndefined();
      fake.enqueue({ kind: 'toolCalls', calls: [{ name: 'get_weather', arguments: '{"city":"Oslo"}' }] });
      expect(
        await apiError(alice.responses.create({ model: 'fake-model', store: false, input: 'Weather in Oslo?' })),
      ).toBeInstanceOf(OpenAI.InternalServerError);
    });

    it('two calls: answering one of them is a 400; answering both goes on', async () => {
      const conversation = (await alice.conversations.create({})).id;
      fake.enqueue({
        kind: 'toolCalls',
        calls: [
          { name: 'get_weather', arguments: '{"city":"Paris"}' },
          { name: 'get_weather', arguments: '{"city":"Rome"}' },
        ],
      });
      const asked = await alice.responses.create({
        model: 'fake-model',
        conversation,
        input: 'Paris and Rome?',
        tools,
      });
      const ids = asked.output.flatMap((o) => (o.type === 'function_call' ? [o.call_id] : []));
      expect(ids).toHaveLength(2);
      const error = await apiError(
        alice.responses.create({
          model: 'fake-model',
          conversation,
          tools,
          input: [{ type: 'function_call_output', call_id: ids[0], output: 'sunny' }],
        }),
      );
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error.message).toContain(ids[1]);
      fake.enqueue({ kind: 'reply', text: 'Sunny and rainy' });
      const done = await alice.responses.create({
        model: 'fake-model',
        conversation,
        tools,
        input: ids.map((id, i) => ({
          type: 'function_call_output' as const,
          call_id: id,
          output: ['sunny', 'rain'][i],
        })),
      });
      expect(done.output_text).toBe('Sunny and rainy');
    });
  });

  describe('parameters', () => {
    it('text.format json_schema is sent as response_format, parsed by responses.parse(), and echoed', async () => {
      const schema = {
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
        additionalProperties: false,
      };
      fake.enqueue({ kind: 'reply', text: '{"name":"Ada"}' });
      const parsed = await alice.responses.parse({
        model: 'fake-model',
        input: 'Who?',
        text: { format: { type: 'json_schema', name: 'person', schema, strict: true } },
      });
      expect(fake.lastCompletion.body.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'person', schema, strict: true },
      });
      expect(parsed.output_parsed).toEqual({ name: 'Ada' });
      expect(parsed.text?.format).toEqual({ type: 'json_schema', name: 'person', schema, strict: true });
      expect((await alice.responses.retrieve(parsed.id)).text?.format).toEqual({
        type: 'json_schema',
        name: 'person',
        schema,
        strict: true,
      });
      fake.enqueue({ kind: 'reply', text: '{}' });
      const json = await alice.responses.create({
        model: 'fake-model',
        input: 'JSON please',
        text: { format: { type: 'json_object' } },
      });
      expect(fake.lastCompletion.body.response_format).toEqual({ type: 'json_object' });
      expect(json.text?.format).toEqual({ type: 'json_object' });
      // Streamed and unstored alike.
      fake.enqueue({ kind: 'stream', chunks: ['{"name":', '"Bo"}'] });
      const streamed = await alice.responses
        .stream({
          model: 'fake-model',
          store: false,
          input: 'Who?',
          text: { format: { type: 'json_schema', name: 'person', schema } },
        })
        .finalResponse();
      expect(fake.lastCompletion.body.response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'person', schema },
      });
      expect(streamed.text?.format).toMatchObject({ type: 'json_schema', name: 'person' });
      // Plain text sends no response_format.
      await alice.responses.create({ model: 'fake-model', input: 'plain', text: { format: { type: 'text' } } });
      expect(fake.lastCompletion.body.response_format).toBeUndefined();
    });

    it("top_p, parallel_tool_calls and a tool's strict reach the model and are echoed as used", async () => {
      const tools = [
        {
          type: 'function' as const,
          name: 'f',
          parameters: { type: 'object', properties: {}, additionalProperties: false },
          strict: true,
        },
      ];
      const answer = await alice.responses.create({
        model: 'fake-model',
        input: 'x',
        top_p: 0.5,
        parallel_tool_calls: false,
        tools,
      });
      expect(fake.lastCompletion.body).toMatchObject({ top_p: 0.5, parallel_tool_calls: false });
      expect((fake.lastCompletion.body.tools as Array<{ function: { strict?: boolean } }>)[0].function.strict).toBe(
        true,
      );
      expect(answer).toMatchObject({ top_p: 0.5, parallel_tool_calls: false, tools: [{ name: 'f', strict: true }] });
      expect(await alice.responses.retrieve(answer.id)).toMatchObject({ top_p: 0.5, parallel_tool_calls: false });
      // Without them nothing is sent; the echo says what was used.
      const plain = await alice.responses.create({ model: 'fake-model', input: 'y' });
      expect(fake.lastCompletion.body).not.toHaveProperty('top_p');
      expect(fake.lastCompletion.body).not.toHaveProperty('parallel_tool_calls');
      expect(plain).toMatchObject({ top_p: null, truncation: 'auto', text: { format: { type: 'text' } } });
      await alice.responses.create({ model: 'fake-model', input: 'z', store: false, top_p: 0.25 });
      expect(fake.lastCompletion.body.top_p).toBe(0.25);
    });

    it('truncation: "auto" leaves the oldest items out to fit; "disabled" refuses what does not fit whole', async () => {
      const long = (i: number) => `${i} ` + 'word '.repeat(600);
      const conversation = await alice.conversations.create({
        items: Array.from({ length: 20 }, (_, i) => ({
          type: 'message' as const,
          role: 'user' as const,
          content: long(i),
        })),
      });
      const before = await itemTexts(conversation.id);
      const calls = fake.completions.length;
      const refused = await apiError(
        alice.responses.create({
          model: 'fake-model',
          conversation: conversation.id,
          input: 'Sum up.',
          truncation: 'disabled',
        }),
      );
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect(refused.code).toBe('context_length_exceeded');
      expect(fake.completions.length).toBe(calls);
      expect(await itemTexts(conversation.id)).toEqual(before);
      const auto = await alice.responses.create({
        model: 'fake-model',
        conversation: conversation.id,
        input: 'Sum up.',
        truncation: 'auto',
      });
      expect(auto.truncation).toBe('auto');
      expect((fake.lastCompletion.body.messages as Sent[]).length).toBeLessThan(22);
      // What fits whole is answered with truncation disabled, and echoed so.
      const small = await alice.responses.create({ model: 'fake-model', input: 'short', truncation: 'disabled' });
      expect(small).toMatchObject({ status: 'completed', truncation: 'disabled' });
    });

    it('what a chat-completions model cannot do is a 400 unsupported_parameter naming it', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ include: ['message.output_text.logprobs'] }, 'include'],
        [{ text: { verbosity: 'low' } }, 'text.verbosity'],
        [{ reasoning: { effort: 'low' } }, 'reasoning'],
        [{ top_logprobs: 2 }, 'top_logprobs'],
        [{ max_tool_calls: 2 }, 'max_tool_calls'],
        [{ service_tier: 'flex' }, 'service_tier'],
        [{ prompt: { id: 'pmpt_1' } }, 'prompt'],
      ];
      for (const [extra, param] of cases) {
        const error = await apiError(alice.responses.create({ model: 'fake-model', input: 'x', ...extra } as never));
        expect([param, error.status, error.code, error.param]).toEqual([param, 400, 'unsupported_parameter', param]);
      }
      // Their empty or default values ask for nothing.
      await alice.responses.create({
        model: 'fake-model',
        input: 'x',
        include: [],
        text: { verbosity: null },
      } as never);
    });
  });

  describe('response routes', () => {
    it('inputItems.list: the items a response was asked with, paged', async () => {
      const conversation = await alice.conversations.create({
        items: [{ type: 'message', role: 'user', content: 'before' }],
      });
      fake.enqueue({ kind: 'reply', text: 'ok' });
      const answer = await alice.responses.create({
        model: 'fake-model',
        conversation: conversation.id,
        input: [
          { role: 'developer', content: 'Be kind.' },
          { role: 'user', content: 'Hi' },
        ],
      });
      const texts = (items: Array<{ type: string; role?: string; content?: unknown }>) =>
        items.map((i) => `${i.role}: ${(i.content as Array<{ text: string }>)[0].text}`);
      const all = [];
      for await (const item of alice.responses.inputItems.list(answer.id, { order: 'asc', limit: 1 })) all.push(item);
      expect(texts(all as never)).toEqual(['system: Be kind.', 'user: Hi']);
      expect(texts((await alice.responses.inputItems.list(answer.id)).data as never)).toEqual([
        'user: Hi',
        'system: Be kind.',
      ]);
      // A reply made on the REST API answered the message before it.
      const rest = (
        await t
          .http()
          .post('/api/chat')
          .set('Authorization', `Bearer ${ALICE_KEY}`)
          .send({ message: 'from rest' })
          .expect(200)
      ).body;
      expect(texts((await alice.responses.inputItems.list(`resp_${rest.messageId}`)).data as never)).toEqual([
        'user: from rest',
      ]);
      expect(
        await apiError(alice.responses.inputItems.list('resp_00000000-0000-4000-8000-000000000000')),
      ).toBeInstanceOf(OpenAI.NotFoundError);
    });

    it('delete: the response is gone, its conversation goes on without it', async () => {
      const conversation = await alice.conversations.create({});
      fake.enqueue({ kind: 'reply', text: 'to delete' });
      const answer = await alice.responses.create({ model: 'fake-model', conversation: conversation.id, input: 'q' });
      await alice.responses.delete(answer.id);
      expect(await apiError(alice.responses.retrieve(answer.id))).toBeInstanceOf(OpenAI.NotFoundError);
      expect(await itemTexts(conversation.id)).toEqual(['user: q']);
      expect(await apiError(alice.responses.delete(answer.id))).toBeInstanceOf(OpenAI.NotFoundError);
    });

    it('retrieve with stream: true replays the events, numbered alike in every replay, from starting_after', async () => {
      fake.enqueue({ kind: 'reply', text: 'The whole answer' });
      const answer = await alice.responses.create({ model: 'fake-model', input: 'replay me' });
      const collect = async (starting_after?: number) => {
        const events: Array<{
          type: string;
          sequence_number: number;
          delta?: string;
          response?: { output_text?: string; status: string };
        }> = [];
        for await (const event of await alice.responses.retrieve(answer.id, {
          stream: true,
          ...(starting_after === undefined ? {} : { starting_after }),
        }))
          events.push(event as never);
        return events;
      };
      const whole = await collect();
      expect(whole.slice(0, 4).map((e) => e.type)).toEqual([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
      ]);
      expect(
        whole
          .filter((e) => e.type === 'response.output_text.delta')
          .map((e) => e.delta)
          .join(''),
      ).toBe('The whole answer');
      expect(whole.at(-1)).toMatchObject({ type: 'response.completed', response: { status: 'completed' } });
      const numbers = whole.map((e) => e.sequence_number);
      expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
      expect(new Set(numbers).size).toBe(numbers.length);
      // From the middle of the text: the rest of it, and the same numbers as the whole replay.
      const after = 3 + 'The whole'.length;
      const rest = await collect(after);
      expect(rest.every((e) => e.sequence_number > after)).toBe(true);
      expect(
        rest
          .filter((e) => e.type === 'response.output_text.delta')
          .map((e) => e.delta)
          .join(''),
      ).toBe(' answer');
      expect(rest.filter((e) => e.type !== 'response.output_text.delta').map((e) => e.sequence_number)).toEqual(
        whole
          .filter((e) => e.type !== 'response.output_text.delta' && e.sequence_number > after)
          .map((e) => e.sequence_number),
      );
      expect(rest.at(-1)!.sequence_number).toBe(whole.at(-1)!.sequence_number);
      expect(
        await apiError(alice.responses.retrieve(answer.id, { stream: true, starting_after: -1 }) as Promise<unknown>),
      ).toBeInstanceOf(OpenAI.BadRequestError);
    });

    it('a stream the client left is followed again with responses.stream({ response_id }) until the reply ends', async () => {
      let release!: () => void;
      const hold = new Promise<void>((resolve) => (release = resolve));
      const words = [
        'one two three four five six seven ',
        'eight nine ten ',
        'eleven twelve thirteen fourteen fifteen sixteen',
      ];
      fake.enqueue({ kind: 'stream', chunks: words, gates: [undefined, undefined, hold] });
      const stream = alice.responses.stream({ model: 'fake-model', input: 'leave and come back' });
      const ended = stream.done().catch(() => undefined);
      const created = await new Promise<string>((resolve) =>
        stream.on('response.created', (e) => resolve(e.response.id)),
      );
      await new Promise<void>((resolve) => stream.on('response.output_text.delta', () => resolve()));
      stream.abort();
      await ended;
      // Its replay, followed while the reply is held: the text saved so far, in chunks numbered by where they end.
      const text = words.join('');
      const seen: Array<{ delta: string; sequence_number: number }> = [];
      const first = alice.responses.stream({ response_id: created });
      first.on('response.output_text.delta', (e) => seen.push(e));
      await until(async () => seen.map((e) => e.delta).join('').length >= 32);
      first.abort();
      await first.done().catch(() => undefined);
      expect(seen[0]).toEqual(expect.objectContaining({ delta: text.slice(0, 32), sequence_number: 3 + 32 }));
      // Resumed after the first chunk, by the SDK (it filters a whole replay) and by the server: the same rest.
      const resumed = alice.responses.stream({ response_id: created, starting_after: seen[0].sequence_number });
      const deltas: string[] = [];
      resumed.on('response.output_text.delta', (e) => deltas.push(e.delta));
      const raw = alice.responses.retrieve(created, { stream: true, starting_after: seen[0].sequence_number });
      // Either follows the reply or replays it whole, depending on timing: the same events either way.
      release();
      const final = await resumed.finalResponse();
      expect(final).toMatchObject({ id: created, status: 'completed', output_text: text });
      expect(deltas.join('')).toBe(text.slice(32));
      const rawDeltas: string[] = [];
      for await (const event of await raw) if (event.type === 'response.output_text.delta') rawDeltas.push(event.delta);
      expect(rawDeltas.join('')).toBe(text.slice(32));
    });

    it('background: answered at once in progress, polled to its end, streamed, and cancelled', async () => {
      const held = deferred();
      fake.enqueue({ kind: 'reply', text: 'done in the background', hold: held.promise });
      const queued = await alice.responses.create({ model: 'fake-model', input: 'take your time', background: true });
      expect(queued).toMatchObject({ status: 'in_progress', background: true, output: [] });
      expect(await alice.responses.retrieve(queued.id)).toMatchObject({ status: 'in_progress', background: true });
      held.resolve();
      await until(async () => (await alice.responses.retrieve(queued.id)).status === 'completed');
      expect(await alice.responses.retrieve(queued.id)).toMatchObject({
        output_text: 'done in the background',
        background: true,
      });
      // Streamed: the events of the reply, followed from the database.
      fake.enqueue({ kind: 'stream', chunks: ['streamed ', 'in the ', 'background'] });
      const streamed = await alice.responses
        .stream({ model: 'fake-model', input: 'stream it', background: true })
        .finalResponse();
      expect(streamed).toMatchObject({
        status: 'completed',
        output_text: 'streamed in the background',
        background: true,
      });
      // Cancelled while the model works: the reply stops, kept as cancelled.
      fake.enqueue({ kind: 'endless', piece: 'more ', chunkDelayMs: 5 });
      const long = await alice.responses.create({
        model: 'fake-model',
        input: 'never ends',
        background: true,
        stream: false,
      });
      await until(async () => fake.endlessOpen === 1);
      const cancelled = await alice.responses.cancel(long.id);
      expect(cancelled).toMatchObject({ id: long.id, status: 'cancelled', background: true });
      expect((await alice.responses.retrieve(long.id)).status).toBe('cancelled');
      // Only a background response can be cancelled; background needs store.
      const plain = await alice.responses.create({ model: 'fake-model', input: 'plain' });
      expect(await apiError(alice.responses.cancel(plain.id))).toBeInstanceOf(OpenAI.BadRequestError);
      expect(
        await apiError(alice.responses.create({ model: 'fake-model', input: 'x', background: true, store: false })),
      ).toBeInstanceOf(OpenAI.BadRequestError);
      expect(await apiError(alice.responses.cancel('resp_00000000-0000-4000-8000-000000000000'))).toBeInstanceOf(
        OpenAI.NotFoundError,
      );
    });
  });
});
