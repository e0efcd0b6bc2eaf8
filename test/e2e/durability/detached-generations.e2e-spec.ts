import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { openEventStream } from '../../support/sse-client.js';
import { ALICE_KEY, BOB_KEY, auth } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';

/**
 * A generation goes on after its client leaves, so the replies being generated are bounded
 * themselves (MAX_GENERATIONS_PER_ACTOR), not only the open connections: a client that opens
 * streams and drops them cannot pile up model calls and `streaming` rows.
 */
describe('replies being generated are bounded per actor, whether or not their clients stay', () => {
  const fixture = useAppWithFakeModel({
    MAX_GENERATIONS_PER_ACTOR: '2',
    MAX_STREAMS_PER_ACTOR: '100',
    STREAM_FLUSH_MS: '30',
  });
  const http = () => fixture.app.http();

  it('refuses a third generation with 429 and Retry-After while two run detached, storing nothing for it; frees the places when they end', async () => {
    const gate = deferred();
    for (let i = 0; i < 2; i++)
      fixture.fake.enqueue({ kind: 'stream', chunks: ['held ', 'reply'], hold: gate.promise });
    const base = await fixture.app.url();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const client = await openEventStream(`${base}/api/chat/stream`, {
        method: 'POST',
        headers: auth(ALICE_KEY),
        body: { message: `leave ${i}` },
      });
      const [started] = await client.collect((e) => e.event === 'conversation');
      ids.push(started.data.conversationId);
      // The client goes away; its reply goes on being generated.
      client.abort();
    }
    await until(() => fixture.fake.requests.length === 2);
    const before = (await http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200)).body.items.length;

    const refused = await http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'one more' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body).toMatchObject({
      statusCode: 429,
      code: 'too_many_requests',
      message: expect.stringContaining('MAX_GENERATIONS_PER_ACTOR'),
    });
    const streamed = await http().post('/api/chat/stream').set(auth(ALICE_KEY)).send({ message: 'one more' });
    expect(streamed.status).toBe(429);
    expect((await http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200)).body.items.length).toBe(before);
    // Another actor is not held up by Alice's.
    await http().post('/api/chat').set(auth(BOB_KEY)).send({ message: 'hello' }).expect(200);

    gate.resolve();
    for (const id of ids) {
      await until(
        async () =>
          (await http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY))).body.messages[1].status === 'complete',
      );
    }
    await until(
      async () => (await http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'now' })).status === 200,
    );
  });
});
