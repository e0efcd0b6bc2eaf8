import type { UIMessage } from 'ai';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, BOB_KEY } from '../../support/test-app.js';
import { TestChat, textOf, uiTransport, userMessage } from '../../support/ui-chat-client.js';

/**
 * The ids useChat gives the messages typed in the browser: kept per conversation, so the hook can
 * edit and regenerate by them in the same session, before it ever read the stored ids.
 */
describe("AI SDK useChat: the client's own message ids", () => {
  const fixture = useAppWithFakeModel({ STREAM_FLUSH_MS: '20', SHUTDOWN_GRACE_MS: '2000' });
  let base: string;
  beforeAll(async () => {
    base = await fixture.app.url();
  });

  // The transport of docs/ai-sdk.md: only the new message is posted.
  const transport = (key = ALICE_KEY) =>
    uiTransport(base, key, {
      prepareSendMessagesRequest: ({ id, messages, trigger, messageId, body }) => ({
        body: { ...body, id, message: messages.at(-1), trigger, messageId },
      }),
    });
  const uiMessages = async (chatId: string, key = ALICE_KEY): Promise<UIMessage[]> =>
    (await fixture.app.http().get(`/api/ui/chat/${chatId}/messages`).set(auth(key)).expect(200)).body;

  it('edits a message typed in this session by the id the hook gave it, again and again', async () => {
    const chat = new TestChat('ids-edit', transport());
    await chat.sendMessage({ text: 'Capital of Spain?' });
    await chat.sendMessage({ text: 'And of Portugal?' });
    const typed = chat.messages[2].id;
    fixture.fake.reset();
    await chat.sendMessage({ text: 'Capital of France?', messageId: typed });
    expect(chat.error).toBeUndefined();
    expect(chat.messages.map((m) => textOf(m))).toEqual([
      'Capital of Spain?',
      'reply to: Capital of Spain?',
      'Capital of France?',
      'reply to: Capital of France?',
    ]);
    expect(chat.messages[2].id).toBe(typed);
    expect(fixture.fake.lastCompletion.body.messages).toEqual([
      { role: 'user', content: 'Capital of Spain?' },
      { role: 'assistant', content: 'reply to: Capital of Spain?' },
      { role: 'user', content: 'Capital of France?' },
    ]);
    // The edit kept the client's id: editing it again edits the new question.
    await chat.sendMessage({ text: 'Capital of Italy?', messageId: typed });
    expect(chat.error).toBeUndefined();
    expect(chat.messages.map((m) => textOf(m))).toEqual([
      'Capital of Spain?',
      'reply to: Capital of Spain?',
      'Capital of Italy?',
      'reply to: Capital of Italy?',
    ]);

    // The stored chat reads back with the same ids the hook holds.
    const seeded = await uiMessages('ids-edit');
    expect(seeded.map((m) => m.id)).toEqual(chat.messages.map((m) => m.id));
    // The edits are siblings in the stored tree.
    const conversationId = (seeded[0].metadata as { conversationId: string }).conversationId;
    const tree = await fixture.app.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200);
    expect(tree.body.messages[2].siblingIds).toHaveLength(3);
  });

  it('regenerates an earlier answer by its id: the answer after it and what follows leave the active path', async () => {
    const chat = new TestChat('ids-regenerate', transport());
    await chat.sendMessage({ text: 'One?' });
    await chat.sendMessage({ text: 'Two?' });
    const firstAnswer = chat.messages[1].id;
    fixture.fake.reset();
    fixture.fake.enqueue({ kind: 'stream', chunks: ['One, ', 'again'] });
    await chat.regenerate({ messageId: firstAnswer });
    expect(chat.error).toBeUndefined();
    expect(chat.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'One?'],
      ['assistant', 'One, again'],
    ]);
    expect(fixture.fake.lastCompletion.body.messages).toEqual([{ role: 'user', content: 'One?' }]);
    expect((await uiMessages('ids-regenerate')).map((m) => m.id)).toEqual(chat.messages.map((m) => m.id));

    // Regenerating from a user message by the client's id answers it again too.
    fixture.fake.reset();
    await chat.regenerate({ messageId: chat.messages[0].id });
    expect(chat.messages.map((m) => textOf(m))).toEqual(['One?', 'reply to: One?']);
  });

  it('keeps client ids per conversation and actor, and refuses ids of a form it cannot keep', async () => {
    const chat = new TestChat('ids-alice', transport());
    await chat.sendMessage({ text: 'Mine' });
    const typed = chat.messages[0].id;
    // Bob's chat of the same name, and Alice's other chat, do not know the id.
    const post = (id: string, key: string) =>
      fixture.app
        .http()
        .post('/api/ui/chat')
        .set(auth(key))
        .send({ id, message: userMessage('Edit?'), messageId: typed });
    await new TestChat('ids-alice', transport(BOB_KEY)).sendMessage({ text: 'His' });
    expect((await post('ids-alice', BOB_KEY)).body).toMatchObject({ statusCode: 404, code: 'message_not_found' });
    await new TestChat('ids-other', transport()).sendMessage({ text: 'Other' });
    expect((await post('ids-other', ALICE_KEY)).body).toMatchObject({ statusCode: 404, code: 'message_not_found' });
    for (const id of ['has space', 'x'.repeat(129), '']) {
      const res = await fixture.app
        .http()
        .post('/api/ui/chat')
        .set(auth(ALICE_KEY))
        .send({ id: 'ids-alice', message: userMessage('Odd id', id) });
      expect({ id, status: res.status, code: res.body.code }).toEqual({ id, status: 400, code: 'invalid_input' });
    }
  });
});
