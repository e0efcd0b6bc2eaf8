import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import type { LoggerService } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { AppModule } from '../../src/app.module.js';
import { createHttpApp } from '../../src/surfaces/app/http-app.js';
import { watchAnswers } from './answer-check.js';
import { copyMigratedSqlite } from './sqlite-template.js';

/**
 * Answers of the test apps that depart from docs/openapi.json: they fail the test that caused
 * them (or, outside any test, the spec file at its end), after the spec's own cleanup ran.
 */
const departures: string[] = [];
function reportDepartures(): void {
  if (!departures.length) return;
  const found = [...new Set(departures.splice(0))];
  throw new Error(`Answers that depart from docs/openapi.json:\n${found.slice(0, 20).join('\n')}`);
}
afterEach(reportDepartures);
afterAll(reportDepartures);

/** The e2e suite runs on SQLite files, or on PostgreSQL when TEST_DATABASE_URL is set. */
export const DIALECT: 'sqlite' | 'postgres' = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

/** `sqlite:<dbPath>`, or on PostgreSQL a schema of its own per dbPath (same path, same schema: restarts work). */
export function databaseUrlFor(dbPath: string): string {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return `sqlite:${dbPath}`;
  const url = new URL(base);
  url.searchParams.set('schema', `t_${createHash('sha1').update(dbPath).digest('hex').slice(0, 16)}`);
  return url.toString();
}

export const ALICE_KEY = 'alice-key-0123456789';
export const BOB_KEY = 'bob-key-9876543210';

export interface TestApp {
  readonly app: NestExpressApplication;
  readonly config: AppConfig;
  readonly dbPath: string;
  /** supertest agent bound to the app's HTTP server (no port needed). */
  http(): ReturnType<typeof request>;
  /** http://127.0.0.1:PORT of the app, listening on a free port (for streaming clients). */
  url(): Promise<string>;
  close(): Promise<void>;
}

/** A temp folder for SQLite files, removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'chat-memory-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The real application (real pipes, guards, filters, migrations) on a real SQLite file.
 * `env` overrides the defaults: two API keys (alice, bob) and the model at `llmBaseUrl`.
 */
export async function startTestApp(options: {
  dbPath: string;
  llmBaseUrl?: string;
  env?: Record<string, string>;
  /** Receives the app's log lines (silent by default). */
  logger?: LoggerService;
  /** A new SQLite file is migrated by this app's start, not copied from the migrated template. */
  migrate?: boolean;
}): Promise<TestApp> {
  // Not when the folder is missing: the app makes it itself, which a spec may test.
  if (
    DIALECT === 'sqlite' &&
    !options.migrate &&
    !options.env?.DATABASE_URL &&
    options.dbPath !== ':memory:' &&
    !existsSync(options.dbPath) &&
    existsSync(dirname(options.dbPath))
  ) {
    await copyMigratedSqlite(options.dbPath);
  }
  const config = loadConfig({
    DATABASE_URL: databaseUrlFor(options.dbPath),
    API_KEYS: `alice:${ALICE_KEY},bob:${BOB_KEY}`,
    // Tests send many requests a minute; the limiter has tests of its own.
    RATE_LIMIT_PER_MINUTE: '0',
    AUTH_FAILURES_PER_MINUTE: '0',
    // Recall would add excerpts of a suite's earlier turns to the prompts specs compare exactly; the recall specs turn it on.
    RECALL_MODE: 'off',
    ...(options.llmBaseUrl
      ? {
          LLM_BASE_URL: options.llmBaseUrl,
          LLM_API_KEY: 'sk-test-secret',
          LLM_MODEL: 'fake-model',
          LLM_MAX_RETRIES: '0',
          SUMMARY_MODE: 'off',
        }
      : {}),
    ...options.env,
  });
  const app = await createHttpApp(AppModule.forRoot(config), config, { logger: options.logger ?? false });
  await app.init();
  // Every answer any spec sees must fit docs/openapi.json (error bodies: a documented code).
  watchAnswers(app.getHttpServer(), (problem) => departures.push(problem));
  return {
    app,
    config,
    dbPath: options.dbPath,
    http: () => request(app.getHttpServer()),
    url: async () => {
      const server = app.getHttpServer();
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: async () => {
      await app.close();
    },
  };
}

export const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

/**
 * Requests as one actor (by its API key) to the app `app()` answers at the time of the call, so
 * a spec can make its helpers before its beforeAll has started the app.
 */
export function asActor(app: () => TestApp, key: string) {
  return {
    get: (path: string) => app().http().get(path).set(auth(key)),
    post: (path: string, body: object = {}) => app().http().post(path).set(auth(key)).send(body),
    put: (path: string, body: object) => app().http().put(path).set(auth(key)).send(body),
    patch: (path: string, body: object) => app().http().patch(path).set(auth(key)).send(body),
    delete: (path: string) => app().http().delete(path).set(auth(key)),
  };
}
