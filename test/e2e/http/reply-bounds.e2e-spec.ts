import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { sendRaw } from '../../support/raw-http.js';
import { deltaText, openEventStream } from '../../support/sse-client.js';
import { ALICE_KEY, auth } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';

type Json = Record<string, any>;

/**
 * A model that never stops (or a very long answer) is cut at MAX_REPLY_CHARS or
 * LLM_MAX_REPLY_MS: the text up to the cut is stored as `truncated` with the reason, the model
 * stream is aborted, the thread takes its next turn, and the export of it all imports back.
 */
describe('bounded replies: MAX_REPLY_CHARS and LLM_MAX_REPLY_MS', () => {
  const LIMIT = 2000;
  const fixture = useAppWithFakeModel({
    MAX_REPLY_CHARS: String(LIMIT),
    LLM_MAX_REPLY_MS: '1500',
    LLM_TIMEOUT_MS: '5000',
    STREAM_FLUSH_MS: '30',
  });
  const http = () => fixture.app.http();
  const stream = async (body: object) =>
    openEventStream(`${await fixture.app.url()}/api/chat/stream`, { method: 'POST', headers: auth(ALICE_KEY), body });
  const messages = async (id: string): Promise<Json[]> =>
    (await http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(200)).body.messages;

  it('cuts an endless stream at MAX_REPLY_CHARS, aborts the model, and ends the stream with done: truncated', async () => {
    fixture.fake.enqueue({ kind: 'endless', piece: 'more ' });
    const events = await (await stream({ message: 'talk forever' })).collect();
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data).toMatchObject({
      status: 'truncated',
      reason: { code: 'reply_too_long', message: expect.stringMatching(/MAX_REPLY_CHARS \(2000/) },
    });
    expect(done.data.reply).toHaveLength(LIMIT);
    expect(deltaText(events)).toBe(done.data.reply);
    await until(() => fixture.fake.endlessOpen === 0);

    const { conversationId } = events[0].data;
    const [, reply] = await messages(conversationId);
    expect(reply).toMatchObject({
      status: 'truncated',
      content: done.data.reply,
      error: { statusCode: 413, message: done.data.reason.message },
    });
    // The thread is free again, and the cut reply, which holds text, is replayed to the model.
    await http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'next', conversationId }).expect(200);
    expect(fixture.fake.lastCompletion.body.messages).toEqual([
      { role: 'user', content: 'talk forever' },
      { role: 'assistant', content: done.data.reply },
      { role: 'user', content: 'next' },
    ]);
  });

  it('cuts a reply that streams for longer than LLM_MAX_REPLY_MS, keeping its text', async () => {
    fixture.fake.enqueue({ kind: 'endless', piece: 'slow ', chunkDelayMs: 20 });
    const events = await (await stream({ message: 'take your time' })).collect();
    const done = events.at(-1)!;
    expect(done).toMatchObject({
      event: 'done',
      data: {
        status: 'truncated',
        reason: { code: 'reply_timeout', message: expect.stringMatching(/LLM_MAX_REPLY_MS \(1500 ms\)/) },
      },
    });
    expect(done.data.reply).toMatch(/^(slow )+$/);
    await until(() => fixture.fake.endlessOpen === 0);
    const [, reply] = await messages(events[0].data.conversationId);
    expect(reply).toMatchObject({ status: 'truncated', content: done.data.reply, error: { statusCode: 504 } });
  });

  it('cuts a plain (non-streamed) answer longer than MAX_REPLY_CHARS and answers 200 with the reason', async () => {
    fixture.fake.enqueue({ kind: 'reply', text: 'x'.repeat(LIMIT * 3) });
    const res = await http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'a lot' }).expect(200);
    expect(res.body).toMatchObject({
      status: 'truncated',
      reason: { code: 'reply_too_long' },
      reply: 'x'.repeat(LIMIT),
    });
    const [, reply] = await messages(res.body.conversationId);
    expect(reply).toMatchObject({ status: 'truncated', content: 'x'.repeat(LIMIT) });
  });

  it('cuts a reply at LLM_MAX_REPLY_MS even before the model said anything, freeing the thread', async () => {
    fixture.fake.enqueue({ kind: 'hang' });
    const res = await http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'hello?' }).expect(200);
    expect(res.body).toMatchObject({
      status: 'truncated',
      reply: '',
      reason: { code: 'reply_timeout', message: expect.stringMatching(/LLM_MAX_REPLY_MS/) },
    });
    const [, reply] = await messages(res.body.conversationId);
    expect(reply).toMatchObject({ status: 'truncated', content: '', error: { statusCode: 504 } });
    await http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ message: 'again', conversationId: res.body.conversationId })
      .expect(200);
  });

  it('cuts a reply whose tool call arguments pass MAX_REPLY_CHARS, without running the tool', async () => {
    const agent = (
      await http()
        .post('/api/agents')
        .set(auth(ALICE_KEY))
        .send({ name: 'Stateful', tools: ['update_state'] })
        .expect(201)
    ).body;
    const huge = JSON.stringify({ set: { note: 'n'.repeat(LIMIT) } });
    fixture.fake.enqueue({ kind: 'toolCalls', calls: [{ name: 'update_state', arguments: huge }] });
    const res = await http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ message: 'remember this', agentId: agent.id })
      .expect(200);
    expect(res.body).toMatchObject({ status: 'truncated', reason: { code: 'reply_too_long' } });
    const state = (await http().get(`/api/conversations/${res.body.conversationId}`).set(auth(ALICE_KEY)).expect(200))
      .body.state;
    expect(state).toEqual({});
  });

  it('exports every kind of stored message, and the export imports back with the same content', async () => {
    const agent = (
      await http()
        .post('/api/agents')
        .set(auth(ALICE_KEY))
        .send({ name: 'Keeper', tools: ['update_state'] })
        .expect(201)
    ).body;
    const chat = (body: object) => http().post('/api/chat').set(auth(ALICE_KEY)).send(body);
    const first = (await chat({ message: 'start', agentId: agent.id }).expect(200)).body;
    const id = first.conversationId;
    // A tool call, then a reply as long as a reply may be.
    fixture.fake.enqueue(
      { kind: 'toolCalls', calls: [{ name: 'update_state', arguments: JSON.stringify({ set: { city: 'Porto' } }) }] },
      { kind: 'reply', text: 'y'.repeat(LIMIT) },
    );
    await chat({ message: 'note the city', conversationId: id }).expect(200);
    // Cut by length, cut by time, failed, cancelled, in two threads; one regenerated.
    fixture.fake.enqueue({ kind: 'endless' });
    await (await stream({ message: 'go on', conversationId: id })).collect();
    fixture.fake.enqueue({ kind: 'endless', piece: 'tick ', chunkDelayMs: 20 });
    await (await stream({ message: 'slowly', conversationId: id, thread: 'side', system: 'Be brief.' })).collect();
    fixture.fake.enqueue({ kind: 'status', status: 500, message: 'upstream exploded' });
    await chat({ message: 'fail', conversationId: id }).expect(502);
    const gate = deferred();
    fixture.fake.enqueue({ kind: 'stream', chunks: ['partial ', 'rest'], hold: gate.promise });
    const client = await stream({ message: 'stop me', conversationId: id, thread: 'side' });
    const [start] = await client.collect((e) => e.event === 'delta');
    await http()
      .post(`/api/conversations/${id}/messages/${start.data.messageId}/cancel`)
      .set(auth(ALICE_KEY))
      .expect(200);
    await client.collect();
    gate.resolve();
    await http().post(`/api/conversations/${id}/regenerate`).set(auth(ALICE_KEY)).send({ thread: 'side' }).expect(200);

    const exported = (await http().get(`/api/conversations/${id}/export`).set(auth(ALICE_KEY)).expect(200)).body;
    // Version 2: every answer is a message of its own (no `versions`).
    const statuses = exported.conversation.messages.map((m: Json) => m.status);
    expect(new Set(statuses)).toEqual(new Set(['complete', 'truncated', 'failed', 'cancelled']));
    expect(exported.conversation.messages.some((m: Json) => m.toolCalls.length > 0 && m.content.length === LIMIT)).toBe(
      true,
    );
    const imported = await http().post('/api/conversations/import').set(auth(ALICE_KEY)).send(exported);
    expect(imported.status).toBe(201);
    const again = (await http().get(`/api/conversations/${imported.body.id}/export`).set(auth(ALICE_KEY)).expect(200))
      .body;
    const strip = (doc: Json) => {
      const seqOf = new Map(doc.conversation.messages.map((m: Json) => [m.id, m.seq]));
      return doc.conversation.messages.map(({ createdAt: _c, id: _i, parentId, ...m }: Json) => ({
        ...m,
        parent: parentId === null ? null : seqOf.get(parentId),
      }));
    };
    expect(strip(again)).toEqual(strip(exported));
    expect(again.conversation.state).toEqual(exported.conversation.state);
    expect(again.conversation.threads.map((t: Json) => [t.name, t.systemPrompt])).toEqual(
      exported.conversation.threads.map((t: Json) => [t.name, t.systemPrompt]),
    );
  });
});

describe('imports larger than BODY_LIMIT_BYTES: every export imports back', () => {
  const fixture = useAppWithFakeModel({ BODY_LIMIT_BYTES: '65536', MAX_REPLY_CHARS: '50000' });
  const http = () => fixture.app.http();

  it('reads an authenticated import up to IMPORT_BODY_LIMIT_BYTES, and nothing that large from anyone else', async () => {
    fixture.fake.enqueue({ kind: 'reply', text: 'a'.repeat(40_000) }, { kind: 'reply', text: 'b'.repeat(40_000) });
    const first = (await http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'one' }).expect(200)).body;
    await http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ message: 'two', conversationId: first.conversationId })
      .expect(200);
    const exported = (
      await http().get(`/api/conversations/${first.conversationId}/export`).set(auth(ALICE_KEY)).expect(200)
    ).body;
    const body = JSON.stringify(exported);
    expect(body.length).toBeGreaterThan(65536);

    const imported = await http()
      .post('/api/conversations/import')
      .set(auth(ALICE_KEY))
      .set('Content-Type', 'application/json')
      .send(body);
    expect(imported.status).toBe(201);
    const messages = (await http().get(`/api/conversations/${imported.body.id}`).set(auth(ALICE_KEY)).expect(200)).body
      .messages;
    expect(messages.map((m: Json) => m.content.length)).toEqual([3, 40_000, 3, 40_000]);
    // Without a valid key the body is refused before it is read (and the connection closed: a raw client sees the answer while sending).
    const base = await fixture.app.url();
    const anonymous = await sendRaw(base, {
      method: 'POST',
      path: '/api/conversations/import',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    expect(anonymous.status).toBe(401);
    const wrongKey = await sendRaw(base, {
      method: 'POST',
      path: '/api/conversations/import',
      headers: { ...auth('not-a-key-at-all'), 'Content-Type': 'application/json' },
      body,
    });
    expect(wrongKey.status).toBe(401);
    // Any other route keeps BODY_LIMIT_BYTES.
    const chat = await http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ message: 'x', padding: 'p'.repeat(70_000) }));
    expect(chat.status).toBe(413);
  });
});
