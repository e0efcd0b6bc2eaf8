import { readFileSync } from 'node:fs';
import {
  createChatMemoryClient,
  readEvents,
  type ChatMemoryClient,
  type StreamEvent,
} from '../../../clients/typescript/src/index.js';
import { OPENAPI_FILE } from '../../../scripts/paths.js';
import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { ALICE_KEY, BOB_KEY, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

// The main flows through the client generated from docs/openapi.json (clients/typescript), and
// every answer checked against the schema that document gives for it.

type Schema = Record<string, any>;
const spec = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
const operations: Record<string, Schema> = Object.fromEntries(
  Object.values(spec.paths as Schema).flatMap((item) =>
    Object.values(item as Schema).map((op: Schema) => [op.operationId, op]),
  ),
);

/** Where a value departs from a schema of the document; properties it does not list count too. */
function problems(schema: Schema, value: unknown, at: string): string[] {
  if (schema.$ref) return problems(spec.components.schemas[schema.$ref.split('/').pop()], value, at);
  if (schema.anyOf)
    return schema.anyOf.some((s: Schema) => !problems(s, value, at).length) ? [] : [`${at} matches no anyOf schema`];
  if (value === null) return schema.nullable ? [] : [`${at} is null`];
  if (schema.oneOf)
    return schema.oneOf.some((s: Schema) => !problems(s, value, at).length) ? [] : [`${at} matches no oneOf schema`];
  const found = (schema.allOf ?? []).flatMap((s: Schema) => problems(s, value, at));
  if (schema.enum && !schema.enum.includes(value))
    found.push(`${at}: ${JSON.stringify(value)} is not in ${schema.enum}`);
  const type = Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  const expected = schema.type === 'number' && type === 'integer' ? 'integer' : schema.type;
  if (expected && expected !== type) return [...found, `${at} is ${type}, not ${schema.type}`];
  if (schema.format === 'uuid' && !/^[0-9a-f-]{36}$/.test(value as string)) found.push(`${at} is not a uuid`);
  if (schema.format === 'date-time' && Number.isNaN(Date.parse(value as string)))
    found.push(`${at} is not a date-time`);
  if (type === 'array') (value as unknown[]).forEach((v, i) => found.push(...problems(schema.items, v, `${at}[${i}]`)));
  if (type === 'object' && !schema.allOf) {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in object)) found.push(`${at}.${key} is missing`);
    for (const [key, v] of Object.entries(object)) {
      if (schema.properties?.[key]) found.push(...problems(schema.properties[key], v, `${at}.${key}`));
      else if (!schema.additionalProperties) found.push(`${at}.${key} is not documented`);
    }
  }
  return found;
}

/** The answer conforms to what the document says `operationId` answers with `status`. */
function expectDocumented(operationId: string, status: number, body: unknown, mediaType = 'application/json'): void {
  const response = operations[operationId]?.responses?.[status];
  expect({ operationId, status, documented: Boolean(response) }).toEqual({ operationId, status, documented: true });
  // A stream's body is a string; each parsed event has its schema in x-sse-events, by name.
  const media = response.content?.[mediaType];
  const schema =
    mediaType === 'text/event-stream' ? media?.['x-sse-events']?.[(body as { event: string }).event] : media?.schema;
  expect({ operationId, status, problems: schema ? problems(schema, body, 'body') : ['no schema'] }).toEqual({
    operationId,
    status,
    problems: [],
  });
}

async function collect(
  stream: ReadableStream<Uint8Array> | null | undefined,
  operationId: string,
): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of readEvents(stream!)) {
    expectDocumented(operationId, 200, event, 'text/event-stream');
    events.push(event);
  }
  return events;
}

const replyText = (events: StreamEvent[]) => events.map((e) => (e.event === 'delta' ? e.data.text : '')).join('');

describe('the generated TypeScript client against the real server', () => {
  let fake: FakeOpenAiServer;
  let t: TestApp;
  let tmp: ReturnType<typeof tempDir>;
  let alice: ChatMemoryClient;
  let bob: ChatMemoryClient;
  let url: string;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
    t = await startTestApp({ dbPath: `${tmp.dir}/client.sqlite`, llmBaseUrl: fake.url });
    url = await t.url();
    alice = createChatMemoryClient({ baseUrl: url, apiKey: ALICE_KEY });
    bob = createChatMemoryClient({ baseUrl: `${url}/`, apiKey: BOB_KEY });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    tmp.remove();
  });
  beforeEach(() => fake.reset());

  it('checks health without a key', async () => {
    const { data, response } = await createChatMemoryClient({ baseUrl: url }).GET('/health');
    expect(response.status).toBe(200);
    expectDocumented('health', 200, data);
    expect(data).toEqual({ status: 'ok', database: 'ok', writable: true });
  });

  it('chats, resumes, lists, gets and deletes a conversation', async () => {
    const first = await alice.POST('/api/chat', { body: { message: 'My name is Ada.' } });
    expectDocumented('chat', 200, first.data);
    expect(first.data).toMatchObject({
      reply: 'reply to: My name is Ada.',
      created: true,
      status: 'complete',
      model: 'fake-model',
    });
    const conversationId = first.data!.conversationId;

    const second = await alice.POST('/api/chat', { body: { message: 'What is my name?', conversationId } });
    expectDocumented('chat', 200, second.data);
    expect(second.data).toMatchObject({ conversationId, created: false, title: 'My name is Ada.' });
    expect(fake.lastCompletion.body.messages!.map((m) => m.content)).toEqual([
      'My name is Ada.',
      'reply to: My name is Ada.',
      'What is my name?',
    ]);

    await alice.POST('/api/chat', { body: { message: 'Another conversation' } });
    const page = await alice.GET('/api/conversations', { params: { query: { limit: 1 } } });
    expectDocumented('listConversations', 200, page.data);
    expect(page.data!.items).toHaveLength(1);
    expect(page.data!.items[0].title).toBe('Another conversation');
    const next = await alice.GET('/api/conversations', {
      params: { query: { limit: 1, cursor: page.data!.nextCursor! } },
    });
    expect(next.data!.items.map((c) => c.id)).toEqual([conversationId]);

    const got = await alice.GET('/api/conversations/{id}', { params: { path: { id: conversationId } } });
    expectDocumented('getConversation', 200, got.data);
    expect(got.data!.messages.map((m) => [m.seq, m.role, m.content])).toEqual([
      [1, 'user', 'My name is Ada.'],
      [2, 'assistant', 'reply to: My name is Ada.'],
      [3, 'user', 'What is my name?'],
      [4, 'assistant', 'reply to: What is my name?'],
    ]);

    const foreign = await bob.GET('/api/conversations/{id}', { params: { path: { id: conversationId } } });
    expect(foreign.response.status).toBe(404);
    expectDocumented('getConversation', 404, foreign.error);

    const deleted = await alice.DELETE('/api/conversations/{id}', { params: { path: { id: conversationId } } });
    expect(deleted.response.status).toBe(204);
    const gone = await alice.GET('/api/conversations/{id}', { params: { path: { id: conversationId } } });
    expect(gone.error).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('streams a reply as typed events, then follows it and regenerates it, streamed and not', async () => {
    const { data, response } = await alice.POST('/api/chat/stream', {
      body: { message: 'Tell me a story' },
      parseAs: 'stream',
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await collect(data, 'chatStream');
    const names = events.map((e) => e.event);
    expect([names[0], names.at(-1), new Set(names.slice(1, -1))]).toEqual(['conversation', 'done', new Set(['delta'])]);
    const [start, done] = [events[0], events.at(-1)!];
    if (start.event !== 'conversation' || done.event !== 'done') throw new Error('unexpected events');
    expect(replyText(events)).toBe('reply to: Tell me a story');
    expect(done.data).toMatchObject({
      messageId: start.data.messageId,
      reply: 'reply to: Tell me a story',
      status: 'complete',
    });
    const path = { id: start.data.conversationId, messageId: start.data.messageId };

    const followed = await alice.GET('/api/conversations/{id}/messages/{messageId}/stream', {
      params: { path },
      parseAs: 'stream',
    });
    const again = await collect(followed.data, 'followMessage');
    expect(again.map((e) => e.event)).toEqual(['delta', 'done']);
    expect(replyText(again)).toBe('reply to: Tell me a story');

    fake.enqueue({ kind: 'reply', text: 'A second story.' });
    const regenerated = await alice.POST('/api/conversations/{id}/regenerate', {
      params: { path: { id: path.id } },
      body: {},
    });
    expectDocumented('regenerateReply', 200, regenerated.data);
    // A regenerated answer is a new reply beside the first (a sibling of it).
    expect(regenerated.data).toMatchObject({ reply: 'A second story.', created: false });
    expect(regenerated.data!.messageId).not.toBe(path.messageId);

    fake.enqueue({ kind: 'stream', chunks: ['A third ', 'story.'] });
    const streamed = await alice.POST('/api/conversations/{id}/regenerate/stream', {
      params: { path: { id: path.id } },
      body: {},
      parseAs: 'stream',
    });
    const third = await collect(streamed.data, 'regenerateReplyStream');
    expect(replyText(third)).toBe('A third story.');
    const thirdStart = third[0];
    if (thirdStart.event !== 'conversation') throw new Error('the stream starts with its conversation event');

    const thirdPath = { id: path.id, messageId: thirdStart.data.messageId };
    const cancelled = await alice.POST('/api/conversations/{id}/messages/{messageId}/cancel', {
      params: { path: thirdPath },
    });
    expectDocumented('cancelMessage', 200, cancelled.data);
    expect(cancelled.data).toMatchObject({
      id: thirdPath.messageId,
      status: 'complete',
      content: 'A third story.',
      siblingCount: 3,
    });
    expect(cancelled.data!.versions.map((v) => v.content)).toEqual(['reply to: Tell me a story', 'A second story.']);
  });

  it('stops a reply being streamed, and answers 409 meanwhile with the reply in progress', async () => {
    let release!: () => void;
    fake.enqueue({
      kind: 'stream',
      chunks: ['Counting: ', 'one, ', 'two'],
      hold: new Promise<void>((r) => (release = r)),
    });
    const { data } = await alice.POST('/api/chat/stream', { body: { message: 'count' }, parseAs: 'stream' });
    const events = readEvents(data!);
    const start = (await events.next()).value as StreamEvent;
    if (start.event !== 'conversation') throw new Error(`expected conversation, got ${start.event}`);
    const { conversationId, messageId } = start.data;

    const busy = await alice.POST('/api/chat', { body: { message: 'hello?', conversationId } });
    expect(busy.response.status).toBe(409);
    expectDocumented('chat', 409, busy.error);
    expect(busy.error).toMatchObject({ conversationId, messageId });

    const cancelled = await alice.POST('/api/conversations/{id}/messages/{messageId}/cancel', {
      params: { path: { id: conversationId, messageId } },
    });
    expect(cancelled.data!.status).toBe('cancelled');
    const rest: StreamEvent[] = [];
    for await (const event of events) rest.push(event);
    release();
    expect(rest.at(-1)).toMatchObject({ event: 'done', data: { status: 'cancelled' } });
  });

  it('uses agents, the active conversation and the session state', async () => {
    const agent = await alice.POST('/api/agents', {
      body: { name: 'Planner', emoji: '🧭', systemPrompt: 'Plan trips.', temperature: 0.2 },
    });
    expect(agent.response.status).toBe(201);
    expectDocumented('createAgent', 201, agent.data);
    const agentId = agent.data!.id;
    const list = await alice.GET('/api/agents');
    expectDocumented('listAgents', 200, list.data);
    expect(list.data!.items.map((a) => a.name)).toContain('Planner');
    const updated = await alice.PATCH('/api/agents/{id}', { params: { path: { id: agentId } }, body: { emoji: null } });
    expectDocumented('updateAgent', 200, updated.data);
    expect(updated.data).toMatchObject({ emoji: null, temperature: 0.2 });

    const turn = await alice.POST('/api/chat', { body: { message: 'Plan Rome', agentId } });
    expect(turn.data).toMatchObject({ agentId, thread: 'main' });
    expect(fake.lastCompletion.body.messages![0]).toEqual({
      role: 'system',
      content: expect.stringContaining('Plan trips.'),
    });
    const active = await alice.GET('/api/conversations/active', { params: { query: { agentId } } });
    expectDocumented('getActiveConversation', 200, active.data);
    expect(active.data!.id).toBe(turn.data!.conversationId);

    const id = turn.data!.conversationId;
    const replaced = await alice.PUT('/api/conversations/{id}/state', {
      params: { path: { id } },
      body: { city: 'Rome', days: 3 },
    });
    expectDocumented('replaceState', 200, replaced.data);
    const patched = await alice.PATCH('/api/conversations/{id}/state', {
      params: { path: { id } },
      body: { days: null, budget: 'low' },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(patched.data).toEqual({ city: 'Rome', budget: 'low' });
    const state = await alice.GET('/api/conversations/{id}/state', { params: { path: { id } } });
    expect(state.data).toEqual({ city: 'Rome', budget: 'low' });

    const created = await alice.POST('/api/conversations', { body: { title: 'Empty', agentId } });
    expectDocumented('createConversation', 201, created.data);
    const refused = await alice.DELETE('/api/agents/{id}', { params: { path: { id: agentId } } });
    expect(refused.response.status).toBe(409);
    expectDocumented('deleteAgent', 409, refused.error);
    const removed = await alice.DELETE('/api/agents/{id}', {
      params: { path: { id: agentId }, query: { conversations: 'detach' } },
    });
    expectDocumented('deleteAgent', 200, removed.data);
    expect(removed.data).toEqual({ conversations: 2 });
  });

  it('gets the documented error bodies for bad input and a bad key', async () => {
    const invalid = await alice.POST('/api/chat', { body: { message: '   ' } });
    expect(invalid.response.status).toBe(400);
    expectDocumented('chat', 400, invalid.error);
    const badLimit = await alice.GET('/api/conversations', { params: { query: { limit: 0 } } });
    expect(badLimit.response.status).toBe(400);
    expectDocumented('listConversations', 400, badLimit.error);

    const stranger = createChatMemoryClient({ baseUrl: url, apiKey: 'not-a-key-at-all' });
    const refused = await stranger.POST('/api/chat/stream', { body: { message: 'hi' }, parseAs: 'stream' });
    expect(refused.response.status).toBe(401);
    expectDocumented('chatStream', 401, refused.error);
    expect(refused.error).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });
});
