import type { FakeTelegramServer } from '../../fakes/fake-telegram-server.js';
import type { TestApp } from '../../support/test-app.js';
import { TEXTS } from '../../../src/surfaces/telegram/texts.js';
import { userMaker, useTelegramApp, type TelegramUser } from '../../support/telegram-fixture.js';

describe('Telegram /share and /unshare', () => {
  const fixture = useTelegramApp({ env: { PUBLIC_BASE_URL: 'https://chat.example.com' } });
  let tg: FakeTelegramServer;
  let t: TestApp;
  beforeAll(() => ({ tg, app: t } = fixture));
  const newUser = userMaker(5000);

  const ask = async (user: TelegramUser, text: string): Promise<string> => {
    const before = tg.textsTo(user.id).length;
    tg.sendText(user, text);
    await tg.waitFor(
      (c) => c.method === 'sendMessage' && !c.failed && tg.textsTo(user.id).length > before,
      `an answer to ${text}`,
    );
    return tg.textsTo(user.id)[before];
  };

  it('answers the link of a new share of the current conversation: a snapshot, revoked by /unshare', async () => {
    const user = newUser();
    expect(await ask(user, '/share')).toBe(TEXTS.noCurrent);
    await ask(user, 'Where should I hike in Norway?');
    const answer = await ask(user, '/share');
    const url = /https:\/\/chat\.example\.com\/s\/([A-Za-z0-9_-]{43})/.exec(answer);
    expect(url).not.toBeNull();
    expect(answer).toContain('“Where should I hike in Norway?”');
    const token = url![1];
    const read = async () =>
      (await t.http().get(`/api/shared/${token}`).expect(200)).body.messages.map((m: { content: string }) => m.content);
    expect(await read()).toEqual(['Where should I hike in Norway?', 'reply to: Where should I hike in Norway?']);
    // Later messages do not show through the link.
    await ask(user, 'And in winter?');
    expect(await read()).toHaveLength(2);
    // Another user's /unshare revokes nothing of this one's.
    expect(await ask(newUser(), '/unshare')).toBe(TEXTS.noCurrent);
    expect(await ask(user, '/unshare')).toBe('Revoked 1 link: they no longer open.');
    await t.http().get(`/api/shared/${token}`).expect(404);
    expect(await ask(user, '/unshare')).toBe('This conversation has no links.');
  });

  it('says so when the current conversation has no message yet', async () => {
    const user = newUser();
    await ask(user, '/new');
    expect(await ask(user, '/share')).toBe(TEXTS.emptyHistory);
  });
});
