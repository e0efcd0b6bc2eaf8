import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import type { LoggerService } from '@nestjs/common';
import { MessageIndexBacklog } from '../../src/conversations/message-index-backlog.js';
import { FakeOpenAiServer } from '../fakes/fake-openai-server.js';
import { DIALECT, startTestApp, tempDir, type TestApp } from './test-app.js';

/**
 * The web page in headless Chromium (Debian's package) driven by playwright-core: a browser and
 * the fake model for a describe block, a fresh service per test, pages whose errors and
 * Content-Security-Policy violations fail the test, as do the service's errors (serverProblems):
 * the one browser set-up of every web spec.
 */
export const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A describe block of browser tests: skipped on the PostgreSQL pass (they test the page, not the
 * database) and where Chromium is missing, unless REQUIRE_BROWSER=1 makes that an error.
 */
export function describeInChromium(name: string, tests: () => void): void {
  const skipReason =
    DIALECT === 'postgres'
      ? 'runs in the SQLite pass only: it tests the page, not the database'
      : existsSync(CHROMIUM)
        ? null
        : `${CHROMIUM} is missing (apt-get install chromium); REQUIRE_BROWSER=1 makes this an error`;
  if (skipReason && DIALECT === 'sqlite' && process.env.REQUIRE_BROWSER === '1') {
    describe(name, () => {
      it('needs Chromium (REQUIRE_BROWSER=1)', () => {
        throw new Error(`REQUIRE_BROWSER=1 but ${CHROMIUM} is missing: apt-get install chromium`);
      });
    });
  } else {
    (skipReason ? describe.skip : describe)(`${name}${skipReason ? ` (skipped: ${skipReason})` : ''}`, tests);
  }
}

export interface BrowserFixture {
  readonly browser: Browser;
  readonly fake: FakeOpenAiServer;
  /** The current test's page errors and CSP violations (each fails the test at its end); a test may take out those it provoked. */
  readonly problems: string[];
  /**
   * A fresh service (own SQLite file), in single-user mode with the fake model, or with the
   * built-in echo model when `options.model` is 'echo'.
   */
  startService(
    env?: Record<string, string>,
    options?: { model?: 'fake' | 'echo' },
  ): Promise<{ t: TestApp; base: string }>;
  /** A browser context closed after the test, for a test that loads its first page itself. */
  newContext(contextOptions?: BrowserContextOptions): Promise<BrowserContext>;
  /** A page in a context of its own; `contextOptions` adds to it (permissions, for example). */
  openPage(
    url: string,
    viewport?: { width: number; height: number },
    contextOptions?: BrowserContextOptions,
  ): Promise<Page>;
}

/**
 * Sets up beforeAll/afterAll/beforeEach/afterEach in the calling describe block. `launchArgs`
 * add to Chromium's command line (a `--host-resolver-rules` mapping, for example).
 */
export function browserFixture(options: { launchArgs?: string[] } = {}): BrowserFixture {
  let browser: Browser;
  let fake: FakeOpenAiServer;
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  let problems: string[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...LAUNCH_ARGS, ...(options.launchArgs ?? [])],
      timeout: 30_000,
    });
    fake = await FakeOpenAiServer.start();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.reset();
    problems = [];
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    expect(problems).toEqual([]);
  });

  async function newContext(contextOptions: BrowserContextOptions = {}): Promise<BrowserContext> {
    const context = await browser.newContext(contextOptions);
    cleanups.push(() => context.close());
    return context;
  }

  return {
    get browser() {
      return browser;
    },
    get fake() {
      return fake;
    },
    get problems() {
      return problems;
    },
    async startService(env = {}, serviceOptions = {}) {
      const tmp = tempDir();
      const t = await startTestApp({
        logger: serverProblems((line) => problems.push(`server: ${line}`)),
        dbPath: `${tmp.dir}/chat.sqlite`,
        ...(serviceOptions.model === 'echo' ? {} : { llmBaseUrl: fake.url }),
        env: { API_KEYS: '', STREAM_FLUSH_MS: '30', LLM_TIMEOUT_MS: '5000', ...env },
      });
      cleanups.push(
        () => tmp.remove(),
        () => t.close(),
      );
      return { t, base: await t.url() };
    },
    newContext,
    async openPage(url, viewport = { width: 1100, height: 760 }, contextOptions = {}) {
      const context = await newContext({ viewport, ...contextOptions });
      const page = await context.newPage();
      // Generous: the SQLite and PostgreSQL passes of npm test run side by side with Chromium.
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(`console: ${message.text()}`);
      });
      await page.goto(url);
      return page;
    },
  };
}

/**
 * The service's log as the browser tests read it: an error it logs, or a failed catch-up of the
 * search index (a warning: searches then answer from the index as it stands), is a problem of
 * the test, so a page left waiting for a result says why. Other lines are dropped.
 */
function serverProblems(report: (line: string) => void): LoggerService {
  const ignore = () => undefined;
  return {
    log: ignore,
    debug: ignore,
    verbose: ignore,
    error: (message: unknown, ...rest: unknown[]) => report([message, ...rest].map(String).join(' ')),
    warn: (message: unknown, context?: unknown) => {
      if (context === MessageIndexBacklog.name) report(`${context}: ${String(message)}`);
    },
  };
}

export const composer = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });
export const sendButton = (page: Page) => page.getByRole('button', { name: 'Send', exact: true });
export const stopButton = (page: Page) => page.getByRole('button', { name: 'Stop the reply' });
export const replies = (page: Page) => page.locator('.message.assistant');
export const listLink = (page: Page, text: string) => page.locator('#conversation-list a', { hasText: text });
export const errorBanner = (page: Page) => page.getByRole('alert').filter({ has: page.locator('#error-title') });

export async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
}

/** Waits until the locator's text contains `text`. */
export const waitText = (locator: Locator, text: string) => locator.filter({ hasText: text }).first().waitFor();

/** The conversation id in the page's address. */
export const openId = (page: Page) => /#\/c\/([0-9a-f-]{36})$/.exec(page.url())?.[1];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, which the page's CSP does
 * not govern, so the policy stays as served) and answers its serious and critical violations.
 * axe-core is put in once per document: evaluating its half a megabyte again costs a third of a run.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: { run?: unknown } }).axe?.run === 'function');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: any[] }> } }
    ).axe;
    const { violations } = await axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n: { target: unknown }) => JSON.stringify(n.target)),
      }));
  });
}
