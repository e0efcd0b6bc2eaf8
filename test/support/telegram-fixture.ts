import { ConversationsService } from '../../src/conversations/conversations.service.js';
import { TelegramSurface } from '../../src/surfaces/telegram/telegram-surface.js';
import { FakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { FakeTelegramServer } from '../fakes/fake-telegram-server.js';
import { startTestApp, tempDir, type TestApp } from './test-app.js';

/** A Telegram user writing to the bot in their private chat. */
export interface TelegramUser {
  id: number;
  first_name: string;
}

export interface TelegramFixtureOptions {
  /** Added to the variables that point the app at the fake Bot API (token, API root). */
  env?: Record<string, string>;
  /**
   * Also clear the fake Bot API's recorded calls before each test (the model is always reset).
   * Leave it off where a test reads the calls the bot made at start-up (setMyCommands, setWebhook).
   */
  resetBotApi?: boolean;
  /** `false`: no app for the suite; each test starts its own with `startApp()` and closes it. */
  app?: boolean;
}

export interface TelegramFixture {
  /** The fake model server; reset before each test. */
  readonly model: FakeOpenAiServer;
  /** The fake Telegram Bot API the app's bot talks to. */
  readonly tg: FakeTelegramServer;
  /** The app started for the suite, its bot ready (unset with `app: false`). */
  readonly app: TestApp;
  /** Starts an app on the suite's database and fakes, resolved once its bot is ready; the caller closes it. */
  startApp(): Promise<TestApp>;
  /** The conversations of the suite's app, to check what the bot stored. */
  conversations(): ConversationsService;
}

/**
 * The set-up of a Telegram suite: the fake model, the fake Bot API, a temp database and the real
 * app with its bot, started once for the suite and torn down after it. Call it inside a
 * `describe`; `model`, `tg` and `app` are filled in by `beforeAll`.
 */
export function useTelegramApp(options: TelegramFixtureOptions = {}): TelegramFixture {
  let tmp: ReturnType<typeof tempDir> | undefined;
  const fixture = {
    startApp: async () => {
      const app = await startTestApp({
        dbPath: `${tmp!.dir}/chat.sqlite`,
        llmBaseUrl: fixture.model.url,
        env: { ...fixture.tg.env(), ...options.env },
      });
      // Tests begin after the bot's start-up calls (getMe, setMyCommands, setWebhook or deleteWebhook).
      await app.app.get(TelegramSurface).whenReady();
      return app;
    },
    conversations: () => fixture.app.app.get(ConversationsService),
  } as { -readonly [K in keyof TelegramFixture]: TelegramFixture[K] };

  beforeAll(async () => {
    fixture.model = await FakeOpenAiServer.start();
    fixture.tg = await FakeTelegramServer.start();
    tmp = tempDir();
    if (options.app !== false) fixture.app = await fixture.startApp();
  });
  afterAll(async () => {
    // The app first: as it stops, its bot still confirms its polling offset to the fake Bot API.
    await fixture.app?.close();
    await fixture.tg?.close();
    await fixture.model?.close();
    tmp?.remove();
  });
  beforeEach(() => {
    fixture.model.reset();
    if (options.resetBotApi) fixture.tg.reset();
  });
  return fixture;
}

/** New users, ids counting up from `firstId`: a user per test starts without history. */
export function userMaker(firstId: number): (first_name?: string) => TelegramUser {
  let nextId = firstId;
  return (first_name = 'Ada') => ({ id: nextId++, first_name });
}
