import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { openAiClient } from '../../support/openai-client.js';
import { deltaText, openEventStream } from '../../support/sse-client.js';
import { ALICE_KEY, auth } from '../../support/test-app.js';
import { readChunks, textOf, uiTransport, userMessage } from '../../support/ui-chat-client.js';

type Json = Record<string, any>;

/**
 * A fast model that writes past MAX_REPLY_CHARS in one burst and then neither finishes nor
 * closes: on every streaming surface the reply ends as `truncated` at the limit, is stored so,
 * and the conversation takes its next turn; the service answers /health throughout.
 */
describe('a fast stream past MAX_REPLY_CHARS ends on every streaming surface', () => {
  const LIMIT = 100_000;
  const fixture = useAppWithFakeModel({
    MAX_REPLY_CHARS: String(LIMIT),
    LLM_MAX_REPLY_MS: '120000',
    LLM_TIMEOUT_MS: '120000',
    STREAM_FLUSH_MS: '30',
  });
  const http = () => fixture.app.http();
  /** 150,000 characters in 1,000-character chunks as fast as the socket takes them, then silence with the connection open. */
  const burst = () =>
    fixture.fake.enqueue({
      kind: 'stream',
      chunks: Array.from({ length: 150 }, (_, i) => String(i % 10).repeat(1000)),
      end: 'stall',
    });
  const reply = async (conversationId: string): Promise<Json> =>
    (await http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200)).body.messages.at(-1);

  let healthChecks = 0;
  let polling: NodeJS.Timeout | undefined;
  /** Checks under way: awaited before the app closes, whose drain would answer one 503. */
  const inFlight = new Set<Promise<unknown>>();
  afterAll(() => clearInterval(polling));
  beforeAll(() => {
    polling = setInterval(() => {
      const check = http()
        .get('/health')
        .then(
          (res) => (healthChecks += res.status === 200 ? 1 : 0),
          () => undefined,
        )
        .finally(() => inFlight.delete(check));
      inFlight.add(check);
    }, 100);
  });

  it('on /api/chat/stream', async () => {
    burst();
    const client = await openEventStream(`${await fixture.app.url()}/api/chat/stream`, {
      method: 'POST',
      headers: auth(ALICE_KEY),
      body: { message: 'write a lot, fast' },
    });
    const events = await client.collect();
    const done = events.at(-1)!;
    expect(done).toMatchObject({ event: 'done', data: { status: 'truncated', reason: { code: 'reply_too_long' } } });
    expect(done.data.reply).toHaveLength(LIMIT);
    expect(deltaText(events)).toBe(done.data.reply);
    const { conversationId } = events[0].data;
    expect(await reply(conversationId)).toMatchObject({ status: 'truncated', content: done.data.reply });
    await http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'next', conversationId }).expect(200);
  });

  it('on /api/ui/chat (the AI SDK transport)', async () => {
    burst();
    const stream = await uiTransport(await fixture.app.url(), ALICE_KEY).sendMessages({
      chatId: 'fast-ui',
      messages: [userMessage('write a lot, fast')],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    const { chunks, message } = await readChunks(stream);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'length' });
    expect(textOf(message)).toHaveLength(LIMIT);
  });

  it('on /v1/responses with stream: true (the openai SDK)', async () => {
    burst();
    const client = openAiClient(await fixture.app.url(), ALICE_KEY);
    const events: Json[] = [];
    for await (const event of await client.responses.create({
      model: 'fake-model',
      input: 'write a lot, fast',
      stream: true,
    }))
      events.push(event);
    const last = events.at(-1)!;
    expect(last.type).toBe('response.incomplete');
    expect(last.response.output[0].content[0].text).toHaveLength(LIMIT);
    expect((await client.responses.retrieve(last.response.id)).status).toBe('incomplete');
  });

  it('kept answering /health meanwhile', async () => {
    clearInterval(polling);
    await Promise.all(inFlight);
    expect(healthChecks).toBeGreaterThan(0);
  });
});
