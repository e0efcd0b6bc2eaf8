import { telegramActor } from '../../../src/actor-auth/actor.js';
import { TEXTS } from '../../../src/surfaces/telegram/texts.js';
import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { waitUntil, type FakeTelegramServer } from '../../fakes/fake-telegram-server.js';
import { userMaker, useTelegramApp } from '../../support/telegram-fixture.js';

describe('Telegram bot by long polling: chat turns', () => {
  const fixture = useTelegramApp({ resetBotApi: true });
  const { conversations } = fixture;
  let model: FakeOpenAiServer;
  let tg: FakeTelegramServer;
  // The fixture is filled in by its own beforeAll, which runs first.
  beforeAll(() => ({ model, tg } = fixture));
  // A user of their own per test, so each starts without history.
  const newUser = userMaker(1000);

  const storedMessages = async (userId: number) => {
    const current = await conversations().mostRecent(telegramActor(userId));
    const { messages } = await conversations().getWithMessages(telegramActor(userId), current!.id);
    return messages.map((m) => [m.role, m.content, m.status]);
  };

  it('answers with the stored reply after showing "typing", and remembers earlier messages', async () => {
    const ada = newUser();
    tg.sendText(ada, 'My name is Ada.');
    const first = await tg.waitForText(ada.id, 'reply to: My name is Ada.');
    const typing = tg.calls.findIndex((c) => c.method === 'sendChatAction' && c.body.chat_id === ada.id);
    expect(tg.calls[typing].body.action).toBe('typing');
    expect(typing).toBeLessThan(tg.calls.indexOf(first));

    tg.sendText(ada, 'What is my name?');
    await tg.waitForText(ada.id, 'reply to: What is my name?');
    expect(model.lastCompletion.body.messages).toEqual([
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'reply to: My name is Ada.' },
      { role: 'user', content: 'What is my name?' },
    ]);
    expect(await storedMessages(ada.id)).toEqual([
      ['user', 'My name is Ada.', 'complete'],
      ['assistant', 'reply to: My name is Ada.', 'complete'],
      ['user', 'What is my name?', 'complete'],
      ['assistant', 'reply to: What is my name?', 'complete'],
    ]);
    // Private chats get plain messages, not quotes of the question.
    expect(first.body.reply_parameters).toBeUndefined();
  });

  it("answers a user's messages in the order sent, each turn after the previous one", async () => {
    const ada = newUser();
    // The first answer is slow: without ordering, the second would overtake it.
    model.enqueue({ kind: 'reply', text: 'first answer', delayMs: 300 });
    tg.sendText(ada, 'one');
    tg.sendText(ada, 'two');
    await tg.waitForText(ada.id, 'reply to: two');
    expect(tg.textsTo(ada.id)).toEqual(['first answer', 'reply to: two']);
    // The second turn started after the first was stored: it saw it as history.
    expect(model.lastCompletion.body.messages!.map((m) => m.content)).toEqual(['one', 'first answer', 'two']);
  });

  it("does not hold up other users while one user's reply is slow", async () => {
    const slow = newUser();
    const quick = newUser('Bob');
    model.enqueue({ kind: 'hang' });
    tg.sendText(slow, 'a hard question');
    await waitUntil(() => model.completions.length === 1, 'the slow model call');
    tg.sendText(quick, 'an easy one');
    await tg.waitForText(quick.id, 'reply to: an easy one');
    expect(tg.textsTo(slow.id)).toEqual([]);
    // Cut the hanging call: the slow user gets the apology.
    model.reset();
    await tg.waitForText(slow.id, TEXTS.apology);
  });

  it('splits a reply longer than 4096 characters at a paragraph boundary', async () => {
    const ada = newUser();
    const long = `${'a'.repeat(3000)}\n\n${'b'.repeat(3000)}`;
    model.enqueue({ kind: 'reply', text: long });
    tg.sendText(ada, 'tell me a lot');
    await tg.waitForText(ada.id, 'b'.repeat(3000));
    expect(tg.textsTo(ada.id)).toEqual(['a'.repeat(3000), 'b'.repeat(3000)]);
    // Stored whole: splitting is only how it is delivered.
    expect((await storedMessages(ada.id))[1]).toEqual(['assistant', long, 'complete']);
  });

  it('apologises when the model fails, and keeps the user message', async () => {
    const ada = newUser();
    model.enqueue({ kind: 'status', status: 500, message: 'upstream exploded' });
    tg.sendText(ada, 'Please remember this.');
    await tg.waitForText(ada.id, TEXTS.apology);
    expect(tg.textsTo(ada.id)).toEqual([TEXTS.apology]);
    expect(await storedMessages(ada.id)).toEqual([
      ['user', 'Please remember this.', 'complete'],
      ['assistant', '', 'failed'],
    ]);
    // The next message continues the same conversation, the question included.
    tg.sendText(ada, 'Did you get it?');
    await tg.waitForText(ada.id, 'reply to: Did you get it?');
    expect(model.lastCompletion.body.messages!.map((m) => m.content)).toEqual([
      'Please remember this.',
      'Did you get it?',
    ]);
  });

  it("waits out Telegram's 429 retry_after, then delivers the reply", async () => {
    const ada = newUser();
    tg.failNext('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      parameters: { retry_after: 1 },
    });
    tg.sendText(ada, 'hello');
    await tg.waitForText(ada.id, 'reply to: hello');
    const attempts = tg.callsTo('sendMessage').filter((c) => c.body.chat_id === ada.id);
    expect(attempts.map((c) => [c.body.text, c.failed])).toEqual([
      ['reply to: hello', true],
      ['reply to: hello', false],
    ]);
    // Not earlier than Telegram asked (timers may fire a few ms early on some clocks).
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(950);
  });

  it('says it reads only text when sent something else, and stores nothing', async () => {
    const ada = newUser();
    tg.sendOther(ada, {
      sticker: {
        file_id: 'x',
        file_unique_id: 'y',
        type: 'regular',
        width: 1,
        height: 1,
        is_animated: false,
        is_video: false,
      },
    });
    await tg.waitForText(ada.id, TEXTS.textOnly);
    expect(await conversations().mostRecent(telegramActor(ada.id))).toBeNull();
    expect(model.completions).toHaveLength(0);
  });

  it('handles an update once, even when Telegram sends it again', async () => {
    const ada = newUser();
    const update = tg.sendText(ada, 'only once');
    await tg.waitForText(ada.id, 'reply to: only once');
    tg.redeliver(update);
    tg.sendText(ada, 'and then this');
    // Same chat, so by the time this is answered the redelivered update was seen and skipped.
    await tg.waitForText(ada.id, 'reply to: and then this');
    expect(tg.textsTo(ada.id)).toEqual(['reply to: only once', 'reply to: and then this']);
    expect(model.completions.map((c) => c.body.messages!.at(-1)!.content)).toEqual(['only once', 'and then this']);
  });
});
