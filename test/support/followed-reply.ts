import type { FakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { openEventStream, type SseEvent } from './sse-client.js';
import { ALICE_KEY, auth, type TestApp } from './test-app.js';
import { deferred } from './until.js';

/**
 * A reply streamed on `generator` (the fake model sends each chunk when the test opens its gate)
 * and followed on `follower` (GET .../messages/:id/stream), as alice. `beforeFollow` runs once the
 * reply has started, before the follower connects. The follower's events gather in `seen`;
 * `finished` waits for both streams to end.
 */
export async function followedReply(
  fake: FakeOpenAiServer,
  generator: TestApp,
  follower: TestApp,
  options: { chunks?: string[]; beforeFollow?: () => Promise<void> } = {},
) {
  const chunks = options.chunks ?? ['one ', 'two ', 'three'];
  const gates = chunks.map(() => deferred());
  fake.enqueue({ kind: 'stream', chunks, gates: gates.map((g) => g.promise) });
  const client = await openEventStream(`${await generator.url()}/api/chat/stream`, {
    method: 'POST',
    headers: auth(ALICE_KEY),
    body: { message: 'count' },
  });
  const [start] = await client.collect((e) => e.event === 'conversation');
  await options.beforeFollow?.();
  const { conversationId, messageId } = start.data as { conversationId: string; messageId: string };
  const stream = await openEventStream(
    `${await follower.url()}/api/conversations/${conversationId}/messages/${messageId}/stream`,
    { headers: auth(ALICE_KEY) },
  );
  const seen: SseEvent[] = [];
  const reading = (async () => {
    for (let e = await stream.next(); e; e = await stream.next()) seen.push(e);
  })();
  return {
    status: stream.status,
    gates,
    seen,
    finished: async () => {
      await reading;
      await client.collect();
    },
  };
}
