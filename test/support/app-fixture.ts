import type { LoggerService } from '@nestjs/common';
import { FakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { startTestApp, tempDir, type TestApp } from './test-app.js';

export interface AppFixture {
  /** The fake model server; reset before each test. */
  readonly fake: FakeOpenAiServer;
  readonly app: TestApp;
  readonly dir: string;
}

/**
 * The usual set-up of a suite: a fake OpenAI-compatible server, a temp database and the real
 * app talking to both, started once for the suite and torn down after it. Call it inside a
 * `describe`; the fields are filled in by `beforeAll`.
 */
export function useAppWithFakeModel(env: Record<string, string> = {}, options: { logger?: LoggerService } = {}): AppFixture {
  const fixture = {} as { fake: FakeOpenAiServer; app: TestApp; dir: string; remove: () => void };
  beforeAll(async () => {
    fixture.fake = await FakeOpenAiServer.start();
    const tmp = tempDir();
    fixture.dir = tmp.dir;
    fixture.remove = tmp.remove;
    fixture.app = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, llmBaseUrl: fixture.fake.url, env, logger: options.logger });
  });
  afterAll(async () => {
    await fixture.app?.close();
    await fixture.fake?.close();
    fixture.remove?.();
  });
  beforeEach(() => fixture.fake.reset());
  return fixture;
}

export interface FakeModelAndTempDir {
  /** The fake model server; reset before each test. */
  readonly fake: FakeOpenAiServer;
  /** A temp folder of its own for each test, removed after it. */
  readonly dir: string;
}

/**
 * For suites whose tests start their own apps (restarts, per-test settings): the fake model,
 * started once for the suite, and a fresh temp folder per test. Call it inside a `describe`.
 */
export function useFakeModelAndTempDir(): FakeModelAndTempDir {
  const fixture = {} as { fake: FakeOpenAiServer; dir: string; remove?: () => void };
  beforeAll(async () => {
    fixture.fake = await FakeOpenAiServer.start();
  });
  afterAll(() => fixture.fake?.close());
  beforeEach(() => {
    fixture.fake.reset();
    ({ dir: fixture.dir, remove: fixture.remove } = tempDir());
  });
  afterEach(() => fixture.remove?.());
  return fixture;
}
