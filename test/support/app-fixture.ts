import type { LoggerService } from '@nestjs/common';
import { FakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { startTestApp, tempDir, type TestApp } from './test-app.js';

export interface EchoAppFixture {
  readonly app: TestApp;
  readonly dir: string;
}

/**
 * The real app with the built-in echo model (no model server) on a temp database: for suites
 * whose routes do not depend on what the model says. Started once for the suite, or afresh for
 * each test with `perTest` (for tests that need an empty database). Call it inside a `describe`;
 * the fields are filled in by `beforeAll` (or `beforeEach`).
 */
export function useApp(
  env: Record<string, string> = {},
  options: { logger?: LoggerService; perTest?: boolean } = {},
): EchoAppFixture {
  const fixture = {} as { app: TestApp; dir: string; remove: () => void };
  const start = async () => {
    const tmp = tempDir();
    fixture.dir = tmp.dir;
    fixture.remove = tmp.remove;
    fixture.app = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, env, logger: options.logger });
  };
  const stop = async () => {
    await fixture.app?.close();
    fixture.remove?.();
  };
  if (options.perTest) {
    beforeEach(start);
    afterEach(stop);
  } else {
    beforeAll(start);
    afterAll(stop);
  }
  return fixture;
}

/**
 * For suites that start apps of their own with settings per test: `start(env)` starts the real
 * app (echo model unless `env` names one) on a temp database of its own; every app started is
 * closed and its folder removed after the suite. Call it inside a `describe`.
 */
export function useAppStarter(): {
  start(env?: Record<string, string>, options?: { logger?: LoggerService }): Promise<TestApp>;
} {
  const started: Array<{ app: TestApp; remove: () => void }> = [];
  afterAll(async () => {
    for (const { app, remove } of started.splice(0)) {
      await app.close();
      remove();
    }
  });
  return {
    async start(env = {}, options = {}) {
      const tmp = tempDir();
      try {
        const app = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite`, env, logger: options.logger });
        started.push({ app, remove: tmp.remove });
        return app;
      } catch (error) {
        tmp.remove();
        throw error;
      }
    },
  };
}

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
export function useAppWithFakeModel(
  env: Record<string, string> = {},
  options: { logger?: LoggerService } = {},
): AppFixture {
  const fixture = {} as { fake: FakeOpenAiServer; app: TestApp; dir: string; remove: () => void };
  beforeAll(async () => {
    fixture.fake = await FakeOpenAiServer.start();
    const tmp = tempDir();
    fixture.dir = tmp.dir;
    fixture.remove = tmp.remove;
    fixture.app = await startTestApp({
      dbPath: `${tmp.dir}/chat.sqlite`,
      llmBaseUrl: fixture.fake.url,
      env,
      logger: options.logger,
    });
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
