import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { useAppWithFakeModel } from '../../support/app-fixture.js';
import { ALICE_KEY, auth, type TestApp } from '../../support/test-app.js';

describe('POST /api/chat (multi-turn memory through the openai SDK)', () => {
  const fixture = useAppWithFakeModel({ SYSTEM_PROMPT: 'You are a careful assistant.' });
  let fake: FakeOpenAiServer;
  let t: TestApp;
  // The fixture is filled in by its own beforeAll, which runs first.
  beforeAll(() => ({ fake, app: t } = fixture));

  const chat = (body: object) => t.http().post('/api/chat').set(auth(ALICE_KEY)).send(body);

  it('starts a conversation, titles it with the first message and returns the stored reply', async () => {
    const res = await chat({ message: 'What is the capital of France?' }).expect(200);
    expect(res.body).toMatchObject({
      reply: 'reply to: What is the capital of France?',
      title: 'What is the capital of France?',
      created: true,
      model: 'fake-model',
      usage: { promptTokens: 11, completionTokens: 7 },
    });
    expect(res.body.conversationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fake.lastCompletion.body.messages).toEqual([
      { role: 'system', content: 'You are a careful assistant.' },
      { role: 'user', content: 'What is the capital of France?' },
    ]);
    expect(fake.lastCompletion.body.model).toBe('fake-model');
    expect(fake.lastCompletion.headers.authorization).toBe('Bearer sk-test-secret');

    const stored = await t.http().get(`/api/conversations/${res.body.conversationId}`).set(auth(ALICE_KEY)).expect(200);
    expect(
      stored.body.messages.map((m: { role: string; content: string; seq: number }) => [m.seq, m.role, m.content]),
    ).toEqual([
      [1, 'user', 'What is the capital of France?'],
      [2, 'assistant', 'reply to: What is the capital of France?'],
    ]);
    expect(stored.body.messages[1]).toMatchObject({
      id: res.body.messageId,
      model: 'fake-model',
      promptTokens: 11,
      completionTokens: 7,
    });
    expect(stored.body.messages[0].id).toBe(res.body.userMessageId);
  });

  it('replays the history in order when a conversation is resumed', async () => {
    const first = await chat({ message: 'My name is Ada.' }).expect(200);
    const id = first.body.conversationId;
    fake.enqueue({ kind: 'reply', text: 'Nice to meet you, Ada.' });
    await chat({ message: 'Remember it.', conversationId: id }).expect(200);
    const third = await chat({ message: 'What is my name?', conversationId: id }).expect(200);
    expect(third.body).toMatchObject({ conversationId: id, created: false, title: 'My name is Ada.' });
    expect(fake.lastCompletion.body.messages).toEqual([
      { role: 'system', content: 'You are a careful assistant.' },
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'reply to: My name is Ada.' },
      { role: 'user', content: 'Remember it.' },
      { role: 'assistant', content: 'Nice to meet you, Ada.' },
      { role: 'user', content: 'What is my name?' },
    ]);
  });

  it('sends at most the last 20 messages of history plus the new one', async () => {
    let id: string | undefined;
    for (let i = 1; i <= 13; i++) {
      const res = await chat({ message: `turn ${i}`, ...(id ? { conversationId: id } : {}) }).expect(200);
      id = res.body.conversationId;
    }
    const sent = fake.lastCompletion.body.messages!;
    // system + 20 history messages (turns 3..12, question and reply) + the new message.
    expect(sent).toHaveLength(22);
    expect(sent[0].role).toBe('system');
    expect(sent[1]).toEqual({ role: 'user', content: 'turn 3' });
    expect(sent[20]).toEqual({ role: 'assistant', content: 'reply to: turn 12' });
    expect(sent[21]).toEqual({ role: 'user', content: 'turn 13' });
  });

  it('cuts the title to 60 characters on one line', async () => {
    const long = `Line one\nline two ${'x'.repeat(100)}`;
    const res = await chat({ message: long }).expect(200);
    expect(res.body.title).toBe(`Line one line two ${'x'.repeat(42)}`);
    expect(Array.from(res.body.title as string)).toHaveLength(60);
  });

  it('stores messages exactly as sent, unicode included', async () => {
    const text = 'Grüße 👋🏽 — "quotes", <tags> & 日本語';
    const res = await chat({ message: text }).expect(200);
    const stored = await t.http().get(`/api/conversations/${res.body.conversationId}`).set(auth(ALICE_KEY)).expect(200);
    expect(stored.body.messages[0].content).toBe(text);
  });

  it('counts usage with the tokenizer when the model reports none', async () => {
    fake.enqueue({ kind: 'reply', text: 'no usage here', usage: null });
    const res = await chat({ message: 'hi' }).expect(200);
    // "no usage here" is 3 tokens; the request was the system prompt and "hi", with the chat format's overhead.
    expect(res.body.usage).toEqual({ promptTokens: expect.any(Number), completionTokens: 3 });
    expect(res.body.usage.promptTokens).toBeGreaterThan(10);
    const stored = await t.http().get(`/api/conversations/${res.body.conversationId}`).set(auth(ALICE_KEY)).expect(200);
    expect(stored.body.messages[1]).toMatchObject({
      content: 'no usage here',
      promptTokens: res.body.usage.promptTokens,
      completionTokens: 3,
    });
  });
});
