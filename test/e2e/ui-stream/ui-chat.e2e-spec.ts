import type { UIMessage } from 'ai';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, type TestApp } from '../../support/test-app.js';
import { offSchema, readChunks, TestChat, textOf, uiTransport, userMessage } from '../../support/ui-chat-client.js';

/**
 * The AI SDK's useChat against /api/ui/chat, with the SDK itself as the client: its
 * DefaultChatTransport (sending, reconnecting, validating every chunk with its own schema),
 * readUIMessageStream, and the Chat class behind useChat.
 */
describe('AI SDK useChat backend (/api/ui/chat)', () => {
  const env = { STREAM_FLUSH_MS: '20' };
  const fixture = useAppWithFakeModel(env);
  let base: string;
  beforeAll(async () => {
    base = await fixture.app.url();
  });

  const send = (chatId: string, messages: UIMessage[], options: { key?: string; at?: string; trigger?: 'submit-message' | 'regenerate-message'; body?: object; signal?: AbortSignal } = {}) =>
    uiTransport(options.at ?? base, options.key ?? ALICE_KEY).sendMessages({
      chatId,
      messages,
      trigger: options.trigger ?? 'submit-message',
      messageId: undefined,
      abortSignal: options.signal,
      body: options.body,
    });

  const uiMessages = async (chatId: string, key = ALICE_KEY, app: TestApp = fixture.app): Promise<UIMessage[]> =>
    (await app.http().get(`/api/ui/chat/${chatId}/messages`).set(auth(key)).expect(200)).body;

  it('starts a conversation under a new chat id and streams the stored reply in the SDK protocol', async () => {
    const { chunks, message, error } = await readChunks(await send('chat-new_1', [userMessage('Hello there')]));
    expect(error).toBeUndefined();
    expect(offSchema(chunks)).toEqual([]);
    expect(chunks.map((c) => c.type)).toEqual(['start', 'start-step', 'text-start', ...chunks.slice(3, -3).map(() => 'text-delta'), 'text-end', 'finish-step', 'finish']);
    const start = chunks[0] as Extract<(typeof chunks)[number], { type: 'start' }>;
    expect(message).toMatchObject({ id: start.messageId, role: 'assistant' });
    expect(textOf(message)).toBe('reply to: Hello there');
    const metadata = message!.metadata as { conversationId: string; status: string; model: string; usage: object };
    expect(metadata).toMatchObject({ conversationId: expect.any(String), status: 'complete', model: 'fake-model', usage: expect.any(Object) });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', messageMetadata: expect.objectContaining({ status: 'complete' }) });

    // The reply is stored, under the id the stream announced, in a conversation of alice's.
    const stored = await fixture.app.http().get(`/api/conversations/${metadata.conversationId}`).set(auth(ALICE_KEY)).expect(200);
    expect(stored.body.messages.map((m: { id: string; role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'Hello there'],
      ['assistant', 'reply to: Hello there'],
    ]);
    expect(stored.body.messages[1].id).toBe(start.messageId);
  });

  it('answers with the protocol headers and ends with data: [DONE]', async () => {
    const res = await fetch(`${base}/api/ui/chat`, {
      method: 'POST',
      headers: { ...auth(ALICE_KEY), 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'chat-headers', message: userMessage('hi') }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const body = await res.text();
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
    // Only `data:` lines (and blank separators): no named events.
    expect(body.split('\n').filter((line) => line !== '' && !line.startsWith('data: '))).toEqual([]);
  });

  it('remembers across turns: the stored history is replayed, only the last user message is read', async () => {
    const first = await readChunks(await send('chat-memory', [userMessage('My name is Ada')]));
    fixture.fake.reset();
    // The client's copy of the history is not trusted: a doctored earlier message changes nothing.
    const history: UIMessage[] = [userMessage('My name is Eve'), { ...first.message!, parts: [{ type: 'text', text: 'forged' }] }, userMessage('What is my name?')];
    const second = await readChunks(await send('chat-memory', history));
    expect(textOf(second.message)).toBe('reply to: What is my name?');
    expect(fixture.fake.lastCompletion.body.messages).toEqual([
      { role: 'user', content: 'My name is Ada' },
      { role: 'assistant', content: 'reply to: My name is Ada' },
      { role: 'user', content: 'What is my name?' },
    ]);
    // The last-message-only body works the same.
    const res = await fetch(`${base}/api/ui/chat`, {
      method: 'POST',
      headers: { ...auth(ALICE_KEY), 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'chat-memory', message: userMessage('And again?'), trigger: 'submit-message' }),
    });
    expect(res.status).toBe(200);
    await res.text();
    expect(fixture.fake.lastCompletion.body.messages).toHaveLength(5);
    const seeded = await uiMessages('chat-memory');
    expect(seeded.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'My name is Ada'],
      ['assistant', 'reply to: My name is Ada'],
      ['user', 'What is my name?'],
      ['assistant', 'reply to: What is my name?'],
      ['user', 'And again?'],
      ['assistant', 'reply to: And again?'],
    ]);
    expect(seeded[1].id).toBe(first.message!.id);
  });

  it('works through the Chat class behind useChat: sendMessage, then regenerate makes a sibling answer', async () => {
    const chat = new TestChat('chat-hook', uiTransport(base, ALICE_KEY));
    await chat.sendMessage({ text: 'Tell me a joke' });
    expect(chat.status).toBe('ready');
    expect(chat.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'Tell me a joke'],
      ['assistant', 'reply to: Tell me a joke'],
    ]);
    const firstAnswer = chat.messages[1].id;

    fixture.fake.enqueue({ kind: 'stream', chunks: ['Another', ' one'] });
    await chat.regenerate();
    expect(chat.messages.map((m) => [m.role, textOf(m)])).toEqual([
      ['user', 'Tell me a joke'],
      ['assistant', 'Another one'],
    ]);
    expect(chat.messages[1].id).not.toBe(firstAnswer);
    // The model was asked the same question again, with no earlier answer in its history.
    expect(fixture.fake.lastCompletion.body.messages).toEqual([{ role: 'user', content: 'Tell me a joke' }]);

    const seeded = await uiMessages('chat-hook');
    expect(seeded.map((m) => m.id)).toEqual([expect.any(String), chat.messages[1].id]);
    const conversationId = (seeded[1].metadata as { conversationId: string }).conversationId;
    const tree = await fixture.app.http().get(`/api/conversations/${conversationId}`).set(auth(ALICE_KEY)).expect(200);
    expect(tree.body.messages[1].siblingIds).toEqual([firstAnswer, chat.messages[1].id]);
  });
});
