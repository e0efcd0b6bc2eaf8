import { telegramActor } from '../../../src/actor-auth/actor.js';
import { ConversationsService } from '../../../src/conversations/conversations.service.js';
import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { FakeTelegramServer, waitUntil } from '../../fakes/fake-telegram-server.js';
import { startBuiltServer, type ServerProcess } from '../../support/server-process.js';
import { databaseUrlFor, startTestApp, tempDir } from '../../support/test-app.js';
import type { TelegramUser } from '../../support/telegram-fixture.js';
import type { Update } from 'grammy/types';

const SECRET = 'crash-webhook-secret-0123456789';
const HOOK_PATH = '/telegram/hook-crash';

type Mode = 'webhook' | 'polling';

/**
 * The built server is SIGKILLed while the model answers Telegram updates it has acknowledged
 * (a 200 to the webhook, or a confirmed getUpdates offset), then started again on the same
 * database. Every acknowledged update must get exactly one answer, each chat's in the order
 * sent, and each conversation must hold each turn exactly once. Runs on SQLite and, with
 * TEST_DATABASE_URL, on PostgreSQL.
 */
describe.each<Mode>(['webhook', 'polling'])('Telegram updates survive a crash (%s)', (mode) => {
  let model: FakeOpenAiServer;
  let tg: FakeTelegramServer;
  let tmp: ReturnType<typeof tempDir>;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    model = await FakeOpenAiServer.start();
    tg = await FakeTelegramServer.start();
    tmp = tempDir();
  });
  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    await tg.close();
    await model.close();
    tmp.remove();
  });

  const users = (first: number) =>
    ['Ada', 'Bob', 'Cy', 'Di'].map((name, i): TelegramUser => ({ id: first + i, first_name: name }));
  const completionsFor = (text: string) =>
    model.completions.filter((r) => r.body.messages?.at(-1)?.content === text).length;

  it('answers every acknowledged update exactly once after a SIGKILL and a restart', async () => {
    const dbPath = `${tmp.dir}/chat-${mode}.sqlite`;
    const env = {
      DATABASE_URL: databaseUrlFor(dbPath),
      LLM_BASE_URL: model.url,
      LLM_API_KEY: 'sk-test-secret',
      LLM_MODEL: 'fake-model',
      LLM_MAX_RETRIES: '0',
      LLM_TIMEOUT_MS: '60000',
      SUMMARY_MODE: 'off',
      REPLY_LEASE_MS: '1000',
      STREAM_FLUSH_MS: '100',
      ...tg.env(),
      ...(mode === 'webhook'
        ? { TELEGRAM_WEBHOOK_URL: `https://bot.example.com${HOOK_PATH}`, TELEGRAM_WEBHOOK_SECRET: SECRET }
        : {}),
    };
    const [ada, bob, cy, di] = users(mode === 'webhook' ? 7100 : 7200);
    const ready = mode === 'webhook' ? 'setWebhook' : 'deleteWebhook';

    const first = await startBuiltServer(env);
    servers.push(first);
    await waitUntil(() => tg.callsTo(ready).length === 1, `the bot to be ready (${ready})`);

    const deliver = async (user: TelegramUser, text: string): Promise<Update> => {
      if (mode === 'polling') return tg.sendText(user, text);
      const update = tg.makeUpdate({
        message: {
          message_id: 1,
          date: 0,
          chat: { id: user.id, type: 'private', first_name: user.first_name },
          from: { ...user, is_bot: false },
          text,
        },
      } as Omit<Update, 'update_id'>);
      const res = await fetch(`${first.url}${HOOK_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': SECRET },
        body: JSON.stringify(update),
      });
      // Acknowledged to Telegram: from here on it must not be lost.
      expect(res.status).toBe(200);
      return update;
    };

    // Answered before the kill: never answered again.
    await deliver(cy, 'C one');
    await tg.waitForText(cy.id, 'reply to: C one');
    // Its reply is stored, but its sendMessage never reaches Telegram.
    tg.holdNext('sendMessage');
    await deliver(di, 'D one');
    await waitUntil(() => tg.heldCalls.length === 1, "Di's held sendMessage");
    // The model hangs on Ada's and Bob's first messages; Ada's second waits behind her first.
    model.enqueue({ kind: 'hang' }, { kind: 'hang' });
    await deliver(ada, 'A one');
    await deliver(bob, 'B one');
    const last = await deliver(ada, 'A two');
    await waitUntil(
      () => completionsFor('A one') === 1 && completionsFor('B one') === 1,
      'the model to be asked A one and B one',
    );
    // Long polling acknowledges by the offset of the next getUpdates call.
    if (mode === 'polling') await waitUntil(() => tg.confirmedOffset > last.update_id, 'the offset to be confirmed');

    await first.stop('SIGKILL');
    model.reset();

    const second = await startBuiltServer(env);
    servers.push(second);
    await tg.waitForText(ada.id, 'reply to: A two');
    await tg.waitForText(bob.id, 'reply to: B one');
    await tg.waitForText(di.id, 'reply to: D one');
    // Let anything duplicated arrive before counting (bounded by calls, not by time).
    await second.stop('SIGTERM');

    expect(tg.textsTo(ada.id)).toEqual(['reply to: A one', 'reply to: A two']);
    expect(tg.textsTo(bob.id)).toEqual(['reply to: B one']);
    expect(tg.textsTo(cy.id)).toEqual(['reply to: C one']);
    expect(tg.textsTo(di.id)).toEqual(['reply to: D one']);
    // Di's stored reply was sent again without asking the model again.
    expect(completionsFor('D one')).toBe(0);
    expect(completionsFor('C one')).toBe(0);

    // Each turn is stored once: the interrupted replies were answered again in place.
    const t = await startTestApp({ dbPath });
    try {
      const conversations = t.app.get(ConversationsService);
      const stored = async (user: TelegramUser) => {
        const list = await conversations.list(telegramActor(user.id), 10);
        expect(list.items).toHaveLength(1);
        const { messages } = await conversations.getWithMessages(telegramActor(user.id), list.items[0].id);
        return messages.map((m) => [m.role, m.content, m.status]);
      };
      expect(await stored(ada)).toEqual([
        ['user', 'A one', 'complete'],
        ['assistant', 'reply to: A one', 'complete'],
        ['user', 'A two', 'complete'],
        ['assistant', 'reply to: A two', 'complete'],
      ]);
      expect(await stored(bob)).toEqual([
        ['user', 'B one', 'complete'],
        ['assistant', 'reply to: B one', 'complete'],
      ]);
      expect(await stored(di)).toEqual([
        ['user', 'D one', 'complete'],
        ['assistant', 'reply to: D one', 'complete'],
      ]);
    } finally {
      await t.close();
    }
    // Two server starts and the replies' leases: generous, for a loaded machine.
  }, 120_000);
});
