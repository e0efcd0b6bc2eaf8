import type { Update } from 'grammy/types';
import { TEXTS } from '../../../src/surfaces/telegram/texts.js';
import type { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { waitUntil, type FakeTelegramServer } from '../../fakes/fake-telegram-server.js';
import type { TestApp } from '../../support/test-app.js';
import { userMaker, useTelegramApp, type TelegramUser } from '../../support/telegram-fixture.js';
import { DataSource } from 'typeorm';
import { MAX_UPDATE_BYTES } from '../../../src/telegram-inbox/telegram-inbox.service.js';
import { TelegramUpdate } from '../../../src/telegram-inbox/telegram-update.entity.js';

const SECRET = 'webhook-secret-0123456789';
const HOOK_PATH = '/telegram/webhook-3f9a';
// Only given to the fake Bot API's setWebhook: nothing connects to it.
const HOOK_URL = `https://127.0.0.1:8443${HOOK_PATH}`;

describe('Telegram bot by webhook', () => {
  // The Bot API calls are kept across tests: the first reads setWebhook, made at start-up.
  const fixture = useTelegramApp({ env: { TELEGRAM_WEBHOOK_URL: HOOK_URL, TELEGRAM_WEBHOOK_SECRET: SECRET } });
  let model: FakeOpenAiServer;
  let tg: FakeTelegramServer;
  let t: TestApp;
  // The fixture is filled in by its own beforeAll, which runs first.
  beforeAll(() => ({ model, tg, app: t } = fixture));
  const newUser = userMaker(3000);

  const textUpdate = (user: TelegramUser, text: string): Update =>
    tg.makeUpdate({
      message: {
        message_id: 1,
        date: 0,
        chat: { id: user.id, type: 'private', first_name: user.first_name },
        from: { ...user, is_bot: false },
        text,
      },
    } as Omit<Update, 'update_id'>);
  const post = (body: unknown, secret: string | null = SECRET) => {
    const req = t.http().post(HOOK_PATH).set('Content-Type', 'application/json');
    if (secret !== null) req.set('X-Telegram-Bot-Api-Secret-Token', secret);
    return req.send(typeof body === 'string' ? body : JSON.stringify(body));
  };

  it('registers the webhook with its secret and does not poll', () => {
    expect(tg.callsTo('setWebhook').map((c) => c.body)).toEqual([
      { url: HOOK_URL, secret_token: SECRET, allowed_updates: ['message', 'callback_query'] },
    ]);
    expect(tg.callsTo('deleteWebhook')).toEqual([]);
    expect(tg.confirmedOffset).toBe(0);
  });

  it('acknowledges an update at once and answers it in the background', async () => {
    const user = newUser();
    // The model never answers while the webhook request is made.
    model.enqueue({ kind: 'hang' });
    await post(textUpdate(user, 'slow question')).expect(200, { ok: true });
    await waitUntil(() => model.completions.length === 1, 'the model call');
    expect(tg.textsTo(user.id)).toEqual([]);
    model.reset();
    await tg.waitForText(user.id, TEXTS.apology);

    await post(textUpdate(user, 'again')).expect(200);
    await tg.waitForText(user.id, 'reply to: again');
    expect(model.lastCompletion.body.messages!.map((m) => m.content)).toEqual(['slow question', 'again']);
  });

  it('rejects a missing or wrong secret with 401 before reading the body, and handles nothing', async () => {
    const user = newUser();
    const res = await post(textUpdate(user, 'forged'), 'wrong-secret-0123456789').expect(401);
    expect(res.body).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      code: 'unauthorized',
      message: 'Missing or wrong X-Telegram-Bot-Api-Secret-Token',
    });
    await post(textUpdate(user, 'forged too'), null).expect(401);
    // Not even parsed: malformed JSON with a wrong secret is a 401, not a 400.
    await post('{not json', 'wrong-secret-0123456789').expect(401);
    await post(textUpdate(user, 'genuine')).expect(200);
    await tg.waitForText(user.id, 'reply to: genuine');
    expect(tg.textsTo(user.id)).toEqual(['reply to: genuine']);
    expect(model.completions).toHaveLength(1);
  });

  it('answers 400 to a body that is not an update', async () => {
    await post('{not json').expect(400);
    await post({ message: { text: 'no id' } }).expect(400);
    await post([1, 2]).expect(400);
  });

  it('answers 413 to an update larger than what is kept for a replay, and stores nothing of it', async () => {
    const user = newUser();
    const res = await post(textUpdate(user, 'x'.repeat(MAX_UPDATE_BYTES))).expect(413);
    expect(res.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    expect(
      await t.app
        .get(DataSource)
        .getRepository(TelegramUpdate)
        .countBy({ chatKey: String(user.id) }),
    ).toBe(0);
  });

  it('handles an update once when Telegram sends it again', async () => {
    const user = newUser();
    const update = textUpdate(user, 'once please');
    await post(update).expect(200);
    await tg.waitForText(user.id, 'reply to: once please');
    await post(update).expect(200);
    await post(textUpdate(user, 'next')).expect(200);
    await tg.waitForText(user.id, 'reply to: next');
    expect(tg.textsTo(user.id)).toEqual(['reply to: once please', 'reply to: next']);
  });

  it('leaves other requests to the API: the path answers only POST', async () => {
    await t.http().get(HOOK_PATH).expect(404);
    await t.http().get('/health').expect(200);
  });
});

describe('Telegram bot across a restart', () => {
  // No app for the suite: the test starts two in turn, on the same database.
  const fixture = useTelegramApp({ app: false });
  let model: FakeOpenAiServer;
  let tg: FakeTelegramServer;
  // The fixture is filled in by its own beforeAll, which runs first.
  beforeAll(() => ({ model, tg } = fixture));
  const start = () => fixture.startApp();

  it('keeps the memory, and does not handle again an update delivered before the restart', async () => {
    const ada = { id: 42, first_name: 'Ada' };
    const first = await start();
    const update = tg.sendText(ada, 'Remember the colour teal.');
    await tg.waitForText(ada.id, 'reply to: Remember the colour teal.');
    await first.close();
    // Stopping confirmed the offset: Telegram would not send it again by itself.
    expect(tg.confirmedOffset).toBe(update.update_id + 1);

    // As if the confirmation had been lost (a crash): Telegram sends the update again.
    tg.redeliver(update);
    tg.sendText(ada, 'Which colour?');
    const second = await start();
    try {
      await tg.waitForText(ada.id, 'reply to: Which colour?');
      expect(tg.textsTo(ada.id)).toEqual(['reply to: Remember the colour teal.', 'reply to: Which colour?']);
      expect(model.lastCompletion.body.messages!.map((m) => m.content)).toEqual([
        'Remember the colour teal.',
        'reply to: Remember the colour teal.',
        'Which colour?',
      ]);
      expect(model.completions).toHaveLength(2);
    } finally {
      await second.close();
    }
  });
});
