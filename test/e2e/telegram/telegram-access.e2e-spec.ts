import type { Chat, Message } from 'grammy/types';
import { DataSource } from 'typeorm';
import { telegramActor } from '../../../src/actor-auth/actor.js';
import { refusalText, TEXTS } from '../../../src/surfaces/telegram/texts.js';
import { TelegramUpdate } from '../../../src/telegram-inbox/telegram-update.entity.js';
import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { FakeTelegramServer } from '../../fakes/fake-telegram-server.js';
import type { TestApp } from '../../support/test-app.js';
import { useTelegramApp } from '../../support/telegram-fixture.js';

const ADA = { id: 42, first_name: 'Ada' };
const BOB = { id: 43, first_name: 'Bob' };
const EVE = { id: 99, first_name: 'Eve' };
const BOT = `@${FakeTelegramServer.BOT.username}`;

describe('Telegram bot: allowed users and group chats', () => {
  const fixture = useTelegramApp({ env: { TELEGRAM_ALLOWED_USERS: `${ADA.id}, ${BOB.id}` }, resetBotApi: true });
  const { conversations } = fixture;
  let model: FakeOpenAiServer;
  let tg: FakeTelegramServer;
  let t: TestApp;
  // The fixture is filled in by its own beforeAll, which runs first.
  beforeAll(() => ({ model, tg, app: t } = fixture));
  let nextGroupId = -1001000;
  const newGroup = (): Chat => ({ id: nextGroupId--, type: 'supergroup', title: 'Team' });

  const recorded = (updateId: number) => t.app.get(DataSource).getRepository(TelegramUpdate).countBy({ updateId });

  it('refuses a user outside TELEGRAM_ALLOWED_USERS and stores nothing of theirs', async () => {
    const update = tg.sendText(EVE, 'Let me in');
    // The refusal tells them their id: what the operator would add to the list.
    await tg.waitForText(EVE.id, refusalText(EVE.id));
    expect(refusalText(EVE.id)).toContain('99');
    expect(model.completions).toHaveLength(0);
    expect((await conversations().list(telegramActor(EVE.id), 10)).items).toEqual([]);
    expect(await recorded(update.update_id)).toBe(0);
    // An allowed user is served, and their update is recorded.
    const allowed = tg.sendText(ADA, 'Hello');
    await tg.waitForText(ADA.id, 'reply to: Hello');
    expect(await recorded(allowed.update_id)).toBe(1);
  });

  it("refuses an outsider's button press with a short notice", async () => {
    const prompt = {
      message_id: 1,
      date: 0,
      chat: { id: EVE.id, type: 'private', first_name: 'Eve' },
      text: 'x',
    } as Message;
    tg.pressButton(EVE, prompt, 'keep:99');
    const answer = await tg.waitFor((c) => c.method === 'answerCallbackQuery');
    expect(answer.body.text).toBe(TEXTS.refusal);
  });

  it('in a group, answers only when mentioned or replied to, quoting the question', async () => {
    const group = newGroup();
    tg.sendText(ADA, 'just chatting among ourselves', { chat: group });
    tg.sendText(ADA, `${BOT} what is 2+2?`, { chat: group });
    const answer = await tg.waitForText(group.id, 'reply to: Ada: what is 2+2?');
    // The unaddressed message reached neither the model nor the conversation.
    expect(model.completions).toHaveLength(1);
    expect(answer.body.reply_parameters).toMatchObject({ allow_sending_without_reply: true });

    tg.sendText(BOB, 'and times 3?', { chat: group, replyTo: answer.result as Message });
    await tg.waitForText(group.id, 'reply to: Bob: and times 3?');
    // One memory for the whole group, each line signed by its author.
    expect(model.lastCompletion.body.messages!.map((m) => m.content)).toEqual([
      'Ada: what is 2+2?',
      'reply to: Ada: what is 2+2?',
      'Bob: and times 3?',
    ]);
    // Replying to someone else's message is not addressing the bot.
    tg.sendText(BOB, 'nice', { chat: group, replyTo: { message_id: 1, date: 0, chat: group, from: ADA } as Message });
    tg.sendText(BOB, `${BOT} thanks`, { chat: group });
    await tg.waitForText(group.id, 'reply to: Bob: thanks');
    expect(model.completions).toHaveLength(3);
  });

  it("keeps a group's conversations apart from its members' private ones", async () => {
    const group = newGroup();
    tg.sendText(ADA, `${BOT} a group topic`, { chat: group });
    await tg.waitForText(group.id, 'reply to: Ada: a group topic');
    tg.sendText(ADA, '/list', { chat: group });
    await tg.waitForText(group.id, /^Recent conversations/);
    expect(tg.textsTo(group.id).at(-1)).toContain('1. Ada: a group topic');
    const privateTitles = (await conversations().list(telegramActor(ADA.id), 50)).items.map((c) => c.title);
    expect(privateTitles).not.toContain('Ada: a group topic');
  });

  it('in a group, takes commands meant for it and ignores those for other bots', async () => {
    const group = newGroup();
    tg.sendText(ADA, '/help@other_bot', { chat: group });
    tg.sendText(ADA, `/help${BOT}`, { chat: group });
    await tg.waitForText(group.id, /answer when I am mentioned/);
    expect(tg.textsTo(group.id)).toHaveLength(1);
  });

  it('refuses an outsider who mentions the bot in a group, and ignores them otherwise', async () => {
    const group = newGroup();
    tg.sendText(EVE, 'talking to people', { chat: group });
    tg.sendText(EVE, `${BOT} hello`, { chat: group });
    await tg.waitForText(group.id, refusalText(EVE.id));
    expect(tg.textsTo(group.id)).toEqual([refusalText(EVE.id)]);
    expect(model.completions).toHaveLength(0);
  });

  it("lets only the member who asked confirm a group's /delete", async () => {
    const group = newGroup();
    tg.sendText(ADA, `${BOT} remember this`, { chat: group });
    await tg.waitForText(group.id, 'reply to: Ada: remember this');
    tg.sendText(ADA, '/delete', { chat: group });
    const prompt = (await tg.waitForText(group.id, /^Delete “/)).result as Message;
    const data = (prompt.reply_markup!.inline_keyboard[0][0] as { callback_data: string }).callback_data;
    tg.pressButton(BOB, prompt, data);
    const refused = await tg.waitFor((c) => c.method === 'answerCallbackQuery');
    expect(refused.body.text).toBe(TEXTS.notYourButton);
    tg.pressButton(ADA, prompt, data);
    await tg.waitFor((c) => c.method === 'editMessageText');
    expect((await conversations().list({ id: `telegram:group:${group.id}` }, 10)).items).toEqual([]);
  });
});
