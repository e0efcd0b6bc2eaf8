import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { deltaText, openEventStream, type SseEvent } from '../../support/sse-client.js';
import { ALICE_KEY, auth, type TestApp } from '../../support/test-app.js';

/**
 * The progress saver renews a reply's lease only when it is due (a third of REPLY_LEASE_MS),
 * not with every save of its text. A reply that streams for several leases must still hold
 * its thread all along: a new turn that met an expired lease would close the reply as
 * interrupted and go ahead, so here every one of them must be refused as busy.
 */
describe('progress saves of a reply streaming longer than its lease', () => {
  const env = { LLM_TIMEOUT_MS: '10000', STREAM_FLUSH_MS: '50', REPLY_LEASE_MS: '1000' };
  const fixture = useAppWithFakeModel(env);
  let fake: FakeOpenAiServer;
  let t: TestApp;

  beforeAll(() => ({ fake, app: t } = fixture));

  it('keeps the lease through the stream (a new turn is refused as busy until the end), and stores the whole reply', async () => {
    // 36 chunks 100 ms apart: about 3.6 s, more than three leases.
    const chunks = Array.from({ length: 36 }, (_, i) => `w${i} `);
    fake.enqueue({ kind: 'stream', chunks, chunkDelayMs: 100 });
    const client = await openEventStream(`${await t.url()}/api/chat/stream`, {
      method: 'POST',
      headers: auth(ALICE_KEY),
      body: { message: 'long' },
    });
    const [start] = await client.collect((e) => e.event === 'conversation');
    const { conversationId, messageId } = start.data;
    const events: SseEvent[] = [];
    let ended = false;
    const reading = (async () => {
      for (let e = await client.next(); e; e = await client.next()) events.push(e);
      ended = true;
    })();
    let refused = 0;
    while (!ended && events.every((e) => e.event !== 'done')) {
      const res = await t.http().post('/api/chat').set(auth(ALICE_KEY)).send({ message: 'meanwhile', conversationId });
      if (events.some((e) => e.event === 'done')) break;
      if (res.status !== 409) {
        // Only once the reply was stored whole, just before its `done` was read; never because its lease ran out.
        const now = (await t.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200)).body
          .messages;
        expect(now.find((m: { id: string }) => m.id === messageId)).toMatchObject({
          status: 'complete',
          content: chunks.join(''),
        });
        break;
      }
      refused += 1;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await reading;
    // Tries spread over the whole stream, well past the first lease's end.
    expect(refused).toBeGreaterThanOrEqual(10);
    expect(events.at(-1)).toEqual({ event: 'done', data: expect.objectContaining({ status: 'complete' }) });
    expect(deltaText(events)).toBe(chunks.join(''));
    // (A try made between the reply's commit and its `done` may have started a turn of its own: that is fine.)
    const stored = (await t.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200)).body
      .messages;
    expect(stored.find((m: { id: string }) => m.id === messageId)).toMatchObject({
      status: 'complete',
      content: chunks.join(''),
    });
  });
});
