import type { Message } from 'grammy/types';
import { telegramActor } from '../../../src/actor-auth/actor.js';
import { TEXTS } from '../../../src/surfaces/telegram/texts.js';
import { MemoryService } from '../../../src/memory/memory.service.js';
import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import type { FakeTelegramServer } from '../../fakes/fake-telegram-server.js';
import { ALICE_KEY, auth, type TestApp } from '../../support/test-app.js';
import { userMaker, useTelegramApp, type TelegramUser } from '../../support/telegram-fixture.js';

const COMMANDS = ['new', 'list', 'use', 'history', 'share', 'unshare', 'delete', 'agent', 'memory', 'forget', 'help'];

describe('Telegram bot commands', () => {
  // The Bot API calls are kept across tests: the first reads setMyCommands, made at start-up.
  const fixture = useTelegramApp({ env: { TELEGRAM_AGENTS_FROM: 'alice' } });
  let model: FakeOpenAiServer;
  let tg: FakeTelegramServer;
  let t: TestApp;
  // The fixture is filled in by its own beforeAll, which runs first.
  beforeAll(() => ({ model, tg, app: t } = fixture));
  const newUser = userMaker(2000);

  /** Sends `text` and waits for the bot's next message to that user. */
  const ask = async (user: TelegramUser, text: string): Promise<string> => {
    const before = tg.textsTo(user.id).length;
    tg.sendText(user, text);
    await tg.waitFor(
      (c) => c.method === 'sendMessage' && !c.failed && tg.textsTo(user.id).length > before,
      `an answer to ${text}`,
    );
    return tg.textsTo(user.id)[before];
  };
  const titles = async (userId: number) =>
    (await fixture.conversations().list(telegramActor(userId), 50)).items.map((c) => c.title);

  it('publishes its command menu at start, and /start and /help list every command', async () => {
    const menu = tg.callsTo('setMyCommands')[0].body.commands as Array<{ command: string; description: string }>;
    expect(menu.map((c) => c.command)).toEqual(COMMANDS);
    const user = newUser();
    const start = await ask(user, '/start');
    const help = await ask(user, '/help');
    expect(start.startsWith(TEXTS.welcome)).toBe(true);
    for (const command of COMMANDS) expect(help).toContain(`/${command}`);
    expect(start).toContain(help);
  });

  it("/agent lists the operator's agents and starts a conversation with the one picked", async () => {
    const user = newUser();
    expect(await ask(user, '/agent')).toBe(TEXTS.noAgents);
    const agent = (
      await t
        .http()
        .post('/api/agents')
        .set(auth(ALICE_KEY))
        .send({ name: 'Chef', emoji: '🍳', description: 'recipes', systemPrompt: 'You are a chef.' })
        .expect(201)
    ).body;
    const listing = await ask(user, '/agent');
    expect(listing).toContain('You are talking without an agent.');
    expect(listing).toContain('1. 🍳 Chef – recipes');
    expect(await ask(user, '/agent 1')).toBe('Started a new conversation with Chef. Your next message is its first.');
    await ask(user, 'What shall I cook?');
    expect(model.lastCompletion.body.messages![0]).toEqual({ role: 'system', content: 'You are a chef.' });
    expect(await ask(user, '/agent')).toContain('You are talking with Chef.');
    expect(await ask(user, '/agent 7')).toBe('Send /agent N with N from 1 to 1, or /agent none.');
    expect(await ask(user, '/agent none')).toMatch(/without an agent/);
    await ask(user, 'Plain question');
    expect(model.lastCompletion.body.messages![0]).toEqual({ role: 'user', content: 'Plain question' });
    // The agent stays the operator's: the Telegram user cannot read or change it through the API surface.
    const conversations = (await fixture.conversations().list(telegramActor(user.id), 10)).items;
    expect(conversations.map((c) => c.agentId)).toEqual([null, agent.id]);
    expect((await t.http().get(`/api/agents/${agent.id}`).set(auth(ALICE_KEY)).expect(200)).body.name).toBe('Chef');
  });

  it("/memory lists what is remembered, newest first, and /forget N forgets one (only the user's own)", async () => {
    const user = newUser();
    expect(await ask(user, '/memory')).toBe(TEXTS.noMemories);
    const memories = fixture.app.app.get(MemoryService);
    await memories.create(telegramActor(user.id), { text: 'Likes hiking' });
    await memories.create(telegramActor(user.id), { text: 'Lives in Oslo', pinned: true });
    await memories.create(telegramActor(user.id + 1), { text: 'Someone else' });
    const listing = await ask(user, '/memory');
    expect(listing).toContain('1. 📌 Lives in Oslo\n2. Likes hiking');
    expect(listing).not.toContain('Someone else');
    expect(await ask(user, '/forget 2')).toBe('Forgotten: “Likes hiking”.');
    expect(await ask(user, '/forget 2')).toBe('There is no memory 2. /memory shows them.');
    expect(await ask(user, '/forget x')).toMatch(/^Send \/forget N/);
    expect((await memories.list(telegramActor(user.id), { limit: 10 })).items.map((m) => m.text)).toEqual([
      'Lives in Oslo',
    ]);
    expect((await memories.list(telegramActor(user.id + 1), { limit: 10 })).items).toHaveLength(1);
  });

  it('/new starts a conversation without the earlier history', async () => {
    const user = newUser();
    await ask(user, 'My name is Ada.');
    expect(await ask(user, '/new')).toBe(TEXTS.newConversation);
    await ask(user, 'Who am I?');
    expect(model.lastCompletion.body.messages).toEqual([{ role: 'user', content: 'Who am I?' }]);
    expect((await titles(user.id)).length).toBe(2);
  });

  it('/list shows recent conversations, one line each: number, then title', async () => {
    const user = newUser();
    expect(await ask(user, '/list')).toBe(TEXTS.noConversations);
    await ask(user, 'First topic');
    await ask(user, '/new');
    await ask(user, 'Second topic');
    const list = await ask(user, '/list');
    const lines = list.split('\n').filter((line) => /^\d+\. /.test(line));
    expect(lines).toEqual((await titles(user.id)).map((title, i) => `${i + 1}. ${title}`));
    expect(lines[1]).toBe('2. First topic');
  });

  it('/use N resumes conversation N of the list, with its memory', async () => {
    const user = newUser();
    await ask(user, 'Remember teal.');
    await ask(user, '/new');
    await ask(user, 'Something else');
    expect(await ask(user, '/use 2')).toMatch(/^Now continuing “Remember teal\.”/);
    await ask(user, 'Which colour?');
    expect(model.lastCompletion.body.messages!.map((m) => m.content)).toEqual([
      'Remember teal.',
      'reply to: Remember teal.',
      'Which colour?',
    ]);
    expect(await ask(user, '/use')).toBe(TEXTS.useUsage);
    expect(await ask(user, '/use zero')).toBe(TEXTS.useUsage);
    expect(await ask(user, '/use 9')).toBe('There is no conversation 9. /list shows yours.');
  });

  it('/history shows the last messages of the current conversation', async () => {
    const user = newUser();
    expect(await ask(user, '/history')).toBe(TEXTS.noCurrent);
    await ask(user, 'Hello there');
    model.enqueue({ kind: 'status', status: 500 });
    await ask(user, 'Are you there?');
    expect(await ask(user, '/history')).toBe(
      '“Hello there”, last 4 messages:\n\nYou: Hello there\n\nBot: reply to: Hello there\n\nYou: Are you there?\n\nBot: (no answer: the model failed)',
    );
  });

  it('/delete asks first; Keep keeps the conversation', async () => {
    const user = newUser();
    await ask(user, 'Keep me');
    const question = await ask(user, '/delete');
    expect(question).toBe('Delete “Keep me” and all its messages? This cannot be undone.');
    const prompt = lastMessageTo(user.id);
    const buttons = prompt.reply_markup!.inline_keyboard[0].map((b) => ('callback_data' in b ? b.callback_data : ''));
    expect(buttons.every((data) => Buffer.byteLength(data) <= 64)).toBe(true);
    tg.pressButton(user, prompt, buttons[1]);
    const edit = await tg.waitFor((c) => c.method === 'editMessageText' && c.body.chat_id === user.id);
    expect(edit.body).toMatchObject({ message_id: prompt.message_id, text: TEXTS.kept });
    await tg.waitFor((c) => c.method === 'answerCallbackQuery');
    expect(await titles(user.id)).toEqual(['Keep me']);
  });

  it('/delete then Delete deletes the current conversation and says what is current now', async () => {
    const user = newUser();
    await ask(user, 'Older one');
    await ask(user, '/new');
    await ask(user, 'Delete me');
    await ask(user, '/delete');
    const prompt = lastMessageTo(user.id);
    const data = (prompt.reply_markup!.inline_keyboard[0][0] as { callback_data: string }).callback_data;
    tg.pressButton(user, prompt, data);
    const edit = await tg.waitFor((c) => c.method === 'editMessageText' && c.body.chat_id === user.id);
    expect(edit.body.text).toBe('Deleted. Your messages now continue “Older one”.');
    expect(await titles(user.id)).toEqual(['Older one']);
    // The same button again: the conversation is gone, nothing else is touched.
    tg.pressButton(user, prompt, data);
    await tg.waitFor((c) => c.method === 'editMessageText' && c.body.text === TEXTS.alreadyGone);
    expect(await titles(user.id)).toEqual(['Older one']);
  });

  it('answers an unknown command with a pointer to /help', async () => {
    expect(await ask(newUser(), '/frobnicate')).toBe(TEXTS.unknownCommand);
    expect(model.completions).toHaveLength(0);
  });

  function lastMessageTo(chatId: number): Message {
    const call = tg
      .callsTo('sendMessage')
      .filter((c) => c.body.chat_id === chatId && !c.failed)
      .at(-1)!;
    return call.result as Message;
  }
});
