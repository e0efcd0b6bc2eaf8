import { useAppWithFakeModel, type AppFixture } from '../../support/app-fixture.js';
import { CapturingLogger } from '../../support/capturing-logger.js';
import { stalledRequest, type StalledClient } from '../../support/raw-http.js';
import { deltaText, openEventStream, parseEvents, type EventStreamResponse } from '../../support/sse-client.js';
import { ALICE_KEY, auth, BOB_KEY } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';

// Larger on the wire than what the kernel buffers of a loopback connection hold (about 4 MB
// here), so a client that stops reading makes the server's own writes back up. A reply is at
// most 1,000,000 characters (MAX_REPLY_CHARS), so its padding is a control character, which
// each SSE event carries JSON-escaped in 6 bytes: about 6 MB in all.
const CHUNK_CHARS = 4 * 1024;
const BIG_REPLY_CHUNKS = Array.from({ length: 244 }, (_, i) =>
  `<${String(i).padStart(5, '0')}>`.padEnd(CHUNK_CHARS, '\u0007'),
);
const BIG_REPLY = BIG_REPLY_CHUNKS.join('');
// Each progress save writes the whole text so far: fewer of them for a reply this long.
const BIG_REPLY_ENV = { STREAM_FLUSH_MS: '1000', MAX_REPLY_CHARS: '1000000' };

const chatRequest = {
  method: 'POST',
  path: '/api/chat/stream',
  headers: { ...auth(ALICE_KEY), 'Content-Type': 'application/json', Connection: 'close' },
};

async function conversationOf(client: StalledClient): Promise<string> {
  const head = await client.head;
  expect(head).toMatch(/^HTTP\/1\.1 200 /);
  const match = /"conversationId":"([0-9a-f-]{36})"/.exec(head);
  if (!match) throw new Error(`no conversation event in the first bytes: ${head.slice(0, 300)}`);
  return match[1];
}

/** Waits until the stored reply is finished, and checks it is the whole of what the model said. */
async function expectStoredComplete(f: AppFixture, conversationId: string): Promise<{ id: string }> {
  let reply: { id: string; content: string; status: string } | undefined;
  await until(
    async () => {
      const res = await f.app.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200);
      reply = res.body.messages.at(-1);
      return reply?.status !== 'streaming';
    },
    90_000,
    500,
  );
  expect(reply!.status).toBe('complete');
  expect(reply!.content.length).toBe(BIG_REPLY.length);
  expect(reply!.content === BIG_REPLY).toBe(true);
  return reply!;
}

/** The dropped client reconnects through the follow route and gets the whole reply, in order. */
async function expectFollowGetsAll(f: AppFixture, conversationId: string, messageId: string): Promise<void> {
  const follower = await openEventStream(
    `${await f.app.url()}/api/conversations/${conversationId}/messages/${messageId}/stream`,
    { headers: auth(ALICE_KEY) },
  );
  const events = await follower.collect();
  expect(events.at(-1)!.event).toBe('done');
  expect(deltaText(events) === BIG_REPLY).toBe(true);
}

describe('server-sent events: a client that stops reading', () => {
  // A stalled client left open would keep the app from closing if a test fails.
  const stalled: StalledClient[] = [];
  const stall = async (f: AppFixture, message: string) => {
    const client = stalledRequest(await f.app.url(), { ...chatRequest, body: JSON.stringify({ message }) });
    stalled.push(client);
    return client;
  };
  afterEach(() => stalled.splice(0).forEach((c) => c.destroy()));
  describe('falling further behind than SSE_MAX_BUFFER_BYTES', () => {
    const logger = new CapturingLogger();
    const f = useAppWithFakeModel(
      { SSE_MAX_BUFFER_BYTES: String(64 * 1024), SSE_STALL_MS: '600000', LLM_TIMEOUT_MS: '60000', ...BIG_REPLY_ENV },
      { logger },
    );

    it('is dropped, while the reply is still generated and stored whole', async () => {
      f.fake.enqueue({ kind: 'stream', chunks: BIG_REPLY_CHUNKS });
      const client = await stall(f, 'a long story');
      const conversationId = await conversationOf(client);

      await until(() => logger.lines.some((l) => /Dropped a server-sent event stream/.test(l)), 60_000, 50);
      const { text, chunkedEnd } = await client.resume();
      // A clear end: the connection was cut, not closed as if the answer were complete.
      expect(chunkedEnd).toBe(false);
      expect(text).not.toContain('event: done');
      // What did arrive (what the kernel buffers took) is less than the reply's events: the server stopped writing them.
      expect(text.length).toBeLessThan(JSON.stringify(BIG_REPLY).length);

      const reply = await expectStoredComplete(f, conversationId);
      await expectFollowGetsAll(f, conversationId, reply.id);
    }, 120_000);
  });

  describe('within the limits', () => {
    const f = useAppWithFakeModel({
      SSE_MAX_BUFFER_BYTES: String(256 * 1024 * 1024),
      SSE_STALL_MS: '600000',
      LLM_TIMEOUT_MS: '60000',
      ...BIG_REPLY_ENV,
    });

    it('gets every piece held back while it did not read, in order, then done', async () => {
      f.fake.enqueue({ kind: 'stream', chunks: BIG_REPLY_CHUNKS });
      const client = await stall(f, 'a long story');
      const conversationId = await conversationOf(client);
      // The whole reply was generated while the client read nothing: most of it was held back.
      await expectStoredComplete(f, conversationId);

      const { body, chunkedEnd } = await client.resume();
      expect(chunkedEnd).toBe(true);
      const events = parseEvents(body);
      expect(events[0].event).toBe('conversation');
      expect(events.at(-1)!.event).toBe('done');
      expect(deltaText(events) === BIG_REPLY).toBe(true);
      // Held-back pieces were joined: fewer, larger events than the model's chunks.
      expect(events.filter((e) => e.event === 'delta').length).toBeLessThan(BIG_REPLY_CHUNKS.length);
    }, 120_000);

    it('sends a client that reads along every piece of a large reply, in order', async () => {
      f.fake.enqueue({ kind: 'stream', chunks: BIG_REPLY_CHUNKS });
      const res = await openEventStream(`${await f.app.url()}/api/chat/stream`, {
        method: 'POST',
        headers: auth(ALICE_KEY),
        body: { message: 'again' },
      });
      const events = await res.collect();
      expect(events.at(-1)!.event).toBe('done');
      expect(deltaText(events) === BIG_REPLY).toBe(true);
      expect(events.at(-1)!.data.reply === BIG_REPLY).toBe(true);
    }, 120_000);
  });

  describe('stalled for longer than SSE_STALL_MS', () => {
    const logger = new CapturingLogger();
    const f = useAppWithFakeModel(
      {
        SSE_MAX_BUFFER_BYTES: String(256 * 1024 * 1024),
        SSE_STALL_MS: '1000',
        LLM_TIMEOUT_MS: '60000',
        ...BIG_REPLY_ENV,
      },
      { logger },
    );

    it('is dropped, and the reply is stored whole', async () => {
      f.fake.enqueue({ kind: 'stream', chunks: BIG_REPLY_CHUNKS });
      const client = await stall(f, 'a long story');
      const conversationId = await conversationOf(client);

      await until(() => logger.lines.some((l) => /Dropped a server-sent event stream .*stalled/.test(l)), 60_000, 50);
      const { text, chunkedEnd } = await client.resume();
      expect(chunkedEnd).toBe(false);
      expect(text).not.toContain('event: done');

      // Following it again is tested above: with a 1 s stall limit, a follower reading 16 MB in this same process could be dropped too.
      await expectStoredComplete(f, conversationId);
    }, 120_000);
  });

  describe('MAX_STREAMS_PER_ACTOR', () => {
    const f = useAppWithFakeModel({ MAX_STREAMS_PER_ACTOR: '2' });
    const open = async (key = ALICE_KEY) =>
      openEventStream(`${await f.app.url()}/api/chat/stream`, {
        method: 'POST',
        headers: auth(key),
        body: { message: 'hold on' },
      });

    it('refuses a stream past the limit with 429 and Retry-After, on every streaming route, until one closes', async () => {
      const gate = deferred();
      f.fake.enqueue(
        { kind: 'stream', chunks: ['one ', 'two'], hold: gate.promise },
        { kind: 'stream', chunks: ['three ', 'four'], hold: gate.promise },
      );
      const streams: EventStreamResponse[] = [await open(), await open()];
      const [first] = await streams[0].collect((e) => e.event === 'delta');
      await streams[1].collect((e) => e.event === 'delta');
      const { conversationId, messageId } = first.data;
      const before = f.fake.completions.length;

      const refused = await fetch(`${await f.app.url()}/api/chat/stream`, {
        method: 'POST',
        headers: { ...auth(ALICE_KEY), 'Content-Type': 'application/json' },
        body: JSON.stringify({ message: 'one too many' }),
      });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await refused.json()).toMatchObject({
        statusCode: 429,
        message: expect.stringMatching(/MAX_STREAMS_PER_ACTOR/),
      });
      // Refused before the turn: nothing asked of the model.
      expect(f.fake.completions.length).toBe(before);
      const follow = await openEventStream(
        `${await f.app.url()}/api/conversations/${conversationId}/messages/${messageId}/stream`,
        { headers: auth(ALICE_KEY) },
      );
      expect(follow.json).toMatchObject({ statusCode: 429 });
      expect(follow.status).toBe(429);
      // Plain JSON answers are not streams and do not count.
      await f.app.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200);
      // The limit is per actor.
      const bobs = await open(BOB_KEY);
      expect(bobs.status).toBe(200);
      await bobs.collect();

      // A client that leaves frees its place (the reply goes on being generated).
      streams[0].abort();
      const followUrl = `${await f.app.url()}/api/conversations/${conversationId}/messages/${messageId}/stream`;
      let again: EventStreamResponse | undefined;
      await until(
        async () => (again = await openEventStream(followUrl, { headers: auth(ALICE_KEY) })).status === 200,
        10_000,
        50,
      );
      gate.resolve();
      expect((await again!.collect()).at(-1)!.event).toBe('done');
      expect((await streams[1].collect()).at(-1)!.event).toBe('done');

      // Streams that ended on their own gave their places back too.
      await until(
        async () => {
          const next = await open();
          await next.collect();
          return next.status === 200;
        },
        10_000,
        50,
      );
    }, 60_000);
  });
});
