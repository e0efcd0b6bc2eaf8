import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, asActor, BOB_KEY, type TestApp } from '../../support/test-app.js';
import { until } from '../../support/until.js';

type Sent = { role: string; content: string };

describe('pinned messages', () => {
  const fixture = useAppWithFakeModel({ HISTORY_WINDOW: '2', SUMMARY_MODE: 'rolling', CONTEXT_TOKEN_BUDGET: '400' });
  let t: TestApp;
  let fake: FakeOpenAiServer;
  beforeAll(() => ({ app: t, fake } = fixture));

  const as = (key: string) => asActor(() => t, key);
  const alice = as(ALICE_KEY);
  const bob = as(BOB_KEY);
  const turnsSent = () =>
    fake.completions.filter(
      (r) =>
        !(r.body.messages as Sent[]).some(
          (m) => /summar/i.test(m.content) && m.role === 'system' && m.content.startsWith('You'),
        ),
    );

  it('sends a pinned message on every turn, past the window and the summary, in its place; unpinned, it goes', async () => {
    const first = (await alice.post('/api/chat', { message: 'My locker code is 4812' }).expect(200)).body;
    const id = first.conversationId;
    const pinned = (
      await alice.patch(`/api/conversations/${id}/messages/${first.userMessageId}`, { pinned: true }).expect(200)
    ).body;
    expect(pinned).toMatchObject({ id: first.userMessageId, pinned: true });
    for (const n of [1, 2, 3])
      await alice.post('/api/chat', { message: `Filler question ${n}`, conversationId: id }).expect(200);
    // The summary folds what left the window; the pinned message still comes, first, counted in the preview.
    await until(
      async () => ((await alice.get(`/api/conversations/${id}/context`).expect(200)).body.summaryCoversSeq ?? 0) > 0,
      10_000,
    );
    await alice.post('/api/chat', { message: 'What is in my locker?', conversationId: id }).expect(200);
    const sent = (turnsSent().at(-1)!.body.messages as Sent[]).map((m) => m.content);
    expect(sent.filter((c) => c === 'My locker code is 4812')).toHaveLength(1);
    expect(sent.indexOf('My locker code is 4812')).toBeLessThan(sent.indexOf('What is in my locker?'));
    const preview = (await alice.get(`/api/conversations/${id}/context`).expect(200)).body;
    expect(preview.summaryIncluded).toBe(true);
    expect(preview.messages.filter((m: { kind: string }) => m.kind === 'pinned')).toEqual([
      expect.objectContaining({ seq: 1, content: 'My locker code is 4812' }),
    ]);

    await alice.patch(`/api/conversations/${id}/messages/${first.userMessageId}`, { pinned: false }).expect(200);
    await alice.post('/api/chat', { message: 'And now?', conversationId: id }).expect(200);
    expect((turnsSent().at(-1)!.body.messages as Sent[]).some((m) => m.content === 'My locker code is 4812')).toBe(
      false,
    );
  });

  it('keeps a pinned message to its branch: another branch does not send it', async () => {
    const first = (await alice.post('/api/chat', { message: 'Branch root' }).expect(200)).body;
    const id = first.conversationId;
    const second = (await alice.post('/api/chat', { message: 'Pinned on branch A', conversationId: id }).expect(200))
      .body;
    await alice.patch(`/api/conversations/${id}/messages/${second.userMessageId}`, { pinned: true }).expect(200);
    // A new branch from the first reply: the pinned message is off its path.
    await alice
      .post('/api/chat', { message: 'Branch B question', conversationId: id, parentMessageId: first.messageId })
      .expect(200);
    expect((turnsSent().at(-1)!.body.messages as Sent[]).some((m) => m.content === 'Pinned on branch A')).toBe(false);
  });

  it("refuses a pin that the budget cannot hold (400), a message still streaming or empty (409), and hides others' messages (404)", async () => {
    const long = 'word '.repeat(390);
    const first = (await alice.post('/api/chat', { message: long }).expect(200)).body;
    const res = await alice
      .patch(`/api/conversations/${first.conversationId}/messages/${first.userMessageId}`, { pinned: true })
      .expect(400);
    expect(res.body.code).toBe('context_over_budget');
    expect(
      (await alice.get(`/api/conversations/${first.conversationId}/messages`).expect(200)).body.items[0].pinned,
    ).toBe(false);

    const small = (await alice.post('/api/chat', { message: 'small' }).expect(200)).body;
    await alice
      .patch(`/api/conversations/${small.conversationId}/messages/${small.userMessageId}`, { pinned: 'yes' })
      .expect(400);
    await alice.patch(`/api/conversations/${small.conversationId}/messages/${small.userMessageId}`, {}).expect(400);
    await bob
      .patch(`/api/conversations/${small.conversationId}/messages/${small.userMessageId}`, { pinned: true })
      .expect(404);
    await alice
      .patch(`/api/conversations/${small.conversationId}/messages/00000000-0000-4000-8000-000000000000`, {
        pinned: true,
      })
      .expect(404);
  });
});
