import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import {
  browserFixture,
  composer,
  describeInChromium,
  errorBanner,
  listLink,
  replies,
  send,
  sendButton,
  stopButton,
  waitText,
} from '../../support/browser-page.js';
import { useApp } from '../../support/app-fixture.js';
import { openEventStream } from '../../support/sse-client.js';
import { ALICE_KEY, auth, type TestApp } from '../../support/test-app.js';
import { deferred, until } from '../../support/until.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

// Functions given to page.evaluate run in the browser; only these of its globals are used.
declare const window: Record<string, unknown>;
declare const document: any;
declare const location: { href: string };
declare const localStorage: { getItem(key: string): string | null };

// ---------------------------------------------------------------------------------------------
// The page as files and HTTP answers: no browser needed.

describe('web page: served by the service', () => {
  const fixture = useApp(); // with API keys
  let t: TestApp;
  beforeAll(() => (t = fixture.app));

  it('serves the page at / without an API key, under a Content-Security-Policy of its own origin', async () => {
    const page = await t.http().get('/').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'self'/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.text).toContain('<script type="module" src="app.js"></script>');
    const modules = readdirSync(join(ROOT, 'web')).filter((name) => name.endsWith('.js'));
    expect(modules).toEqual(expect.arrayContaining(['app.js', 'api.js', 'event-stream.js', 'render.js', 'state.js']));
    const vendor = [
      'vendor/marked.esm.js',
      'vendor/purify.es.mjs',
      'vendor/eventsource-parser/index.js',
      'vendor/eventsource-parser/index.js.map',
    ];
    const styles = readdirSync(join(ROOT, 'web', 'css')).map((name) => `css/${name}`);
    expect(styles).toEqual(expect.arrayContaining(['css/base.css', 'css/conversation.css', 'css/message.css']));
    for (const asset of [...modules, ...styles, 'favicon.svg', ...vendor]) {
      const res = await t.http().get(`/${asset}`).expect(200);
      const type = asset.endsWith('.css')
        ? /^text\/css/
        : asset.endsWith('.svg')
          ? /^image\/svg/
          : asset.endsWith('.map')
            ? /^application\/json/
            : /^text\/javascript/;
      expect(res.headers['content-type']).toMatch(type);
    }
    // The API itself still needs the key; health and docs stay public; unknown paths stay JSON 404s.
    await t.http().get('/api/conversations').expect(401);
    await t.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200);
    await t.http().get('/health').expect(200);
    await t.http().get('/api/docs').expect(200);
    await t.http().get('/api/docs-json').expect(200);
    const missing = await t.http().get('/no-such-file.js').expect(404);
    expect(missing.body).toMatchObject({ statusCode: 404, message: 'Cannot GET /no-such-file.js' });
    await t.http().get('/vendor/marked.d.ts').expect(404);
    // The page's type-checking files sit beside it, but are not served.
    for (const path of ['/tsconfig.json', '/types/vendor/marked.esm.d.ts']) {
      expect((await t.http().get(path).expect(404)).body).toMatchObject({
        statusCode: 404,
        message: `Cannot GET ${path}`,
      });
    }
  });

  it('keeps to what a strict CSP allows: no inline script, style attribute, handler attribute or other host', () => {
    const dir = join(ROOT, 'web');
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const name = file.name;
      const text = readFileSync(join(file.parentPath, name), 'utf8');
      if (name.endsWith('.html')) {
        expect(text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // every script is a file
        expect(text).not.toMatch(/\sstyle=/);
        expect(text).not.toMatch(/\son[a-z]+=/);
        expect(text).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
      }
      if (name.endsWith('.js')) {
        expect(text).not.toMatch(/\beval\(|new Function\(|\.innerHTML\s*=|insertAdjacentHTML|document\.write/);
        expect(text).not.toMatch(/(?:import|from)\s*['"](?:https?:)?\/\//);
      }
      if (name.endsWith('.css')) expect(text).not.toMatch(/url\(|@import/);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The page in headless Chromium (Debian's package) driven by playwright-core.

describeInChromium('web page in Chromium', () => {
  // A name an attacker controls, rebound to this machine (DNS rebinding), without a DNS server.
  const fixture = browserFixture({ launchArgs: ['--host-resolver-rules=MAP rebind.test 127.0.0.1'] });
  /** A fresh service (own SQLite file). Single-user mode and the fake model unless told otherwise. */
  const startService = (options: { env?: Record<string, string>; model?: 'fake' | 'echo' } = {}) =>
    fixture.startService(options.env, { model: options.model });
  const openPage = (url: string, viewport?: { width: number; height: number }): Promise<Page> =>
    fixture.openPage(url, viewport);

  it('streams a reply into the page as the model writes it (Enter sends, Shift+Enter is a new line)', async () => {
    const { base, t } = await startService();
    const gate = deferred();
    fixture.fake.enqueue({
      kind: 'stream',
      chunks: ['Streaming ', 'word ', 'by ', 'word.'],
      chunkDelayMs: 40,
      hold: gate.promise,
    });
    const page = await openPage(base);
    // Single-user mode: no key asked, the footer says so.
    await waitText(page.locator('#auth-status'), 'Single-user mode');
    expect(await page.locator('#key-dialog').isVisible()).toBe(false);

    await composer(page).pressSequentially('first line');
    await composer(page).press('Shift+Enter');
    await composer(page).pressSequentially('second line');
    expect(await composer(page).inputValue()).toBe('first line\nsecond line');
    await composer(page).press('Enter');

    await waitText(page.locator('.message.user'), 'second line');
    const reply = replies(page).last();
    await waitText(reply, 'Streaming word by');
    // Part of the reply is on screen while the model is still writing the rest.
    expect(await reply.textContent()).not.toContain('word.');
    expect(await stopButton(page).isVisible()).toBe(true);
    gate.resolve();
    await waitText(reply, 'Streaming word by word.');
    await sendButton(page).waitFor();
    expect(await stopButton(page).isVisible()).toBe(false);
    expect(fixture.fake.lastCompletion.body).toMatchObject({ stream: true });
    expect(fixture.fake.lastCompletion.body.messages!.at(-1)).toEqual({
      role: 'user',
      content: 'first line\nsecond line',
    });

    // The new conversation is in the list and in the address, and stored.
    await listLink(page, 'first line').waitFor();
    const id = /#\/c\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    expect(id).toBeDefined();
    const stored = await t.http().get(`/api/conversations/${id}`).expect(200);
    expect(stored.body.messages.map((m: { content: string }) => m.content)).toEqual([
      'first line\nsecond line',
      'Streaming word by word.',
    ]);
  });

  it('reads server-sent events as the standard says: CRLF, CR or LF line ends, multi-line data, chunks split anywhere, bounded memory', async () => {
    const { base } = await startService();
    const page = await openPage(base);
    const stream = [
      ': keep-alive\r\n\r\n',
      'event: delta\r\ndata: {"text":\r\ndata:  "Bonjour, é"}\r\n\r\n', // CRLF; a second data line, one space dropped
      'event: done\rdata: line one\rdata: line two\r\r', // CR alone
      'data:no space\ndata\n\n', // LF; no event name; a data field without a colon is an empty line
      'event: nothing\r\n\r\n', // no data: skipped
      'event: cut\r\ndata: never finished', // cut off by the end of the body: dropped
    ].join('');
    const bytes = [...Buffer.from(stream, 'utf8')];
    for (const size of [1, 5, bytes.length]) {
      // In byte chunks of `size`: a CRLF and the two bytes of "é" are split across chunks.
      const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
        bytes.slice(i * size, (i + 1) * size),
      );
      const messages = await page.evaluate(async (chunks) => {
        const url = '/event-stream.js';
        const { readEventStream } = await import(url);
        const body = new (window.ReadableStream as any)({
          start(controller: any) {
            for (const chunk of chunks) controller.enqueue(new (window.Uint8Array as any)(chunk));
            controller.close();
          },
        });
        const seen: unknown[] = [];
        await readEventStream(body, (message: unknown) => seen.push(message));
        return seen;
      }, chunks);
      expect({ size, messages }).toEqual({
        size,
        messages: [
          { event: 'delta', data: '{"text":\n "Bonjour, é"}' },
          { event: 'done', data: 'line one\nline two' },
          { event: 'message', data: 'no space\n' },
        ],
      });
    }
    // An event that never ends stops the reading once past 16 MiB, instead of filling the memory.
    const overflow = await page.evaluate(async () => {
      const url = '/event-stream.js';
      const { readEventStream } = await import(url);
      const chunk = new (window.TextEncoder as any)().encode(`data: ${'x'.repeat(1 << 20)}`); // 1 MiB, no line end
      let pulled = 0;
      const body = new (window.ReadableStream as any)({
        pull(controller: any) {
          if (++pulled > 64) controller.close();
          else controller.enqueue(chunk);
        },
      });
      try {
        await readEventStream(body, () => undefined);
        return { error: null, pulled };
      } catch (error) {
        return { error: (error as { type?: string }).type, pulled };
      }
    });
    expect(overflow.error).toBe('max-buffer-size-exceeded');
    expect(overflow.pulled).toBeLessThan(20);
  });

  it('shows a reply whose stream ends its lines with CRLF and spreads its JSON over several data lines', async () => {
    const { base } = await startService();
    const page = await openPage(base);
    await waitText(page.locator('#auth-status'), 'Single-user mode');
    const ids = {
      conversationId: '3f0c7a52-8d8e-4c51-9a52-1d2b3c4d5e6f',
      messageId: '6a1e2b3c-4d5e-4f60-8a71-92b3c4d5e6f7',
      userMessageId: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    };
    const body = [
      `event: conversation\r\ndata: ${JSON.stringify({ ...ids, title: 'CRLF', agentId: null, created: true })}\r\n\r\n`,
      ': keep-alive\r\n\r\n',
      'event: delta\r\ndata: {"text":\r\ndata: "Across "}\r\n\r\n',
      'event: delta\r\ndata: {"text": "lines."}\r\n\r\n',
      `event: done\r\ndata: {"messageId": "${ids.messageId}", "model": "m",\r\ndata: "reason": null, "reply": "Across lines, done.",\r\ndata: "status": "complete", "usage": null}\r\n\r\n`,
    ].join('');
    await page.route('**/api/chat/stream', (route) =>
      route.fulfill({ status: 200, contentType: 'text/event-stream', body }),
    );
    await send(page, 'Hello');
    const reply = replies(page).last();
    await waitText(reply, 'Across lines, done.');
    await sendButton(page).waitFor();
    expect(await reply.getAttribute('aria-busy')).toBe('false');
    expect(await page.locator('.message.user').last().textContent()).toContain('Hello');
    expect(page.url()).toMatch(new RegExp(`#/c/${ids.conversationId}$`));
  });

  it('resumes a conversation after a reload, from the address and from the list, with its memory', async () => {
    const { base } = await startService();
    const page = await openPage(base);
    await send(page, 'My name is Ada.');
    await waitText(replies(page), 'reply to: My name is Ada.');
    await sendButton(page).waitFor();

    await page.reload();
    await waitText(page.locator('.message.user'), 'My name is Ada.');
    await waitText(replies(page), 'reply to: My name is Ada.');

    await page.goto(`${base}/`);
    await page.reload();
    await waitText(page.locator('#title'), 'New chat');
    await listLink(page, 'My name is Ada.').click();
    await waitText(replies(page), 'reply to: My name is Ada.');
    await send(page, 'What is my name?');
    await waitText(replies(page).last(), 'reply to: What is my name?');
    const history = fixture.fake.lastCompletion.body.messages!.filter((m) => m.role !== 'system').map((m) => m.content);
    expect(history).toEqual(['My name is Ada.', 'reply to: My name is Ada.', 'What is my name?']);
    await sendButton(page).waitFor();

    // A message sent while the conversation is still being read waits for it, then shows with its reply.
    const held = deferred();
    const reading = deferred();
    await page.route(/\/api\/conversations\/[0-9a-f-]{36}\?/, async (route) => {
      const response = await route.fetch(); // read before the message is sent, arriving after
      reading.resolve();
      await held.promise;
      await route.fulfill({ response });
    });
    await page.reload();
    await reading.promise;
    await send(page, 'And my age?');
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    held.resolve();
    await waitText(replies(page).last(), 'reply to: And my age?');
    await sendButton(page).waitFor();
    expect(await messageBodies(page)).toEqual([
      'My name is Ada.',
      'reply to: My name is Ada.',
      'What is my name?',
      'reply to: What is my name?',
      'And my age?',
      'reply to: And my age?',
    ]);
  });

  it('opens a long conversation with its newest 100 messages and shows the earlier ones on request', async () => {
    const { base, t } = await startService();
    // 55 turns = 110 messages; the page opens with the newest 100 (turns 6-55).
    const turn = (n: number) => `turn ${String(n).padStart(2, '0')}`;
    let id: string | undefined;
    for (let n = 1; n <= 55; n++)
      id = (
        await t
          .http()
          .post('/api/chat')
          .send({ message: turn(n), conversationId: id })
          .expect(200)
      ).body.conversationId;
    const short = (await t.http().post('/api/chat').send({ message: 'A short chat' }).expect(200)).body.conversationId;
    const expected = Array.from({ length: 55 }, (_, i) => [turn(i + 1), `reply to: ${turn(i + 1)}`]).flat();
    const page = await openPage(`${base}/#/c/${id}`);
    const messages = page.locator('#messages .message');
    const bodies = async () =>
      (await page.locator('#messages .message-body').allTextContents()).map((text) => text.trim()); // a reply's <p> ends with a line break
    const earlier = page.getByRole('button', { name: 'Show earlier messages' });
    const olderPages = '**/api/conversations/*/messages?*';

    await messages.nth(99).waitFor();
    expect(await messages.count()).toBe(100);
    expect(await bodies()).toEqual(expected.slice(10));
    await earlier.waitFor();
    expect(await page.locator('#messages > *').first().getAttribute('id')).toBe('show-earlier'); // above the oldest message

    // A failed page is shown like any API error; the button stays, ready to try again.
    await page.route(olderPages, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'Down for a moment.' }),
      }),
    );
    await earlier.click();
    await waitText(errorBanner(page), 'Service unavailable (503).');
    expect(await earlier.isEnabled()).toBe(true);
    expect(await messages.count()).toBe(100);
    await page.unroute(olderPages);

    // A page that arrives after the user opened another conversation is dropped; the button is
    // disabled meanwhile, so the request is not sent twice.
    const held = deferred();
    const requests: string[] = [];
    await page.route(olderPages, async (route) => {
      requests.push(route.request().url());
      await held.promise;
      await route.continue();
    });
    await earlier.click();
    const loading = page.getByRole('button', { name: 'Loading earlier messages…' });
    await loading.waitFor();
    expect(await loading.isDisabled()).toBe(true);
    await loading.click({ force: true }); // a disabled button ignores it
    await openWhileHeld(page, 'A short chat', held);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(/\/messages\?before=11&limit=100&thread=main$/);
    expect(await bodies()).toEqual(['A short chat', 'reply to: A short chat']);
    expect(await earlier.count()).toBe(0);
    expect(/#\/c\/([0-9a-f-]{36})$/.exec(page.url())?.[1]).toBe(short);
    await page.unroute(olderPages);

    // Back to the long one, from the keyboard: the earlier messages come in above, the reader
    // stays on the message they were reading, and the button goes once the first one is shown.
    await listLink(page, turn(1)).click();
    await messages.nth(99).waitFor();
    expect(await messages.count()).toBe(100);
    await page.locator('#messages').evaluate((box: { scrollTop: number }) => (box.scrollTop = 0));
    const reading = messages.filter({ hasText: turn(6) }).first();
    const before = (await reading.boundingBox())!.y;
    await earlier.focus();
    await page.keyboard.press('Enter');
    await messages.nth(109).waitFor();
    expect(await bodies()).toEqual(expected);
    expect(await earlier.count()).toBe(0);
    expect(await messages.first().textContent()).toContain(turn(1));
    expect(Math.abs((await reading.boundingBox())!.y - before)).toBeLessThan(2);
    expect(await page.locator('#messages').evaluate((box: { scrollTop: number }) => box.scrollTop)).toBeGreaterThan(0);
    // The focus continues from the newest message just shown, and screen readers hear what happened.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain(`reply to: ${turn(5)}`);
    await waitText(page.locator('#announcer'), '10 earlier messages shown, from the first one.');
    expect(await errorBanner(page).isVisible()).toBe(false);
  });

  /** Imports a conversation with these messages (user, assistant, user...; in `thread(i)`, main by default): faster than chatting. */
  async function importConversation(
    t: TestApp,
    title: string,
    contents: string[],
    thread = (_i: number) => 'main',
  ): Promise<string> {
    const createdAt = new Date().toISOString();
    const messages = contents.map((content, i) => ({
      seq: i + 1,
      thread: thread(i),
      role: i % 2 ? 'assistant' : 'user',
      content,
      status: 'complete',
      createdAt,
    }));
    const body = { format: 'chat-memory.conversation', version: 1, conversation: { title, createdAt, messages } };
    return (await t.http().post('/api/conversations/import').send(body).expect(201)).body.id;
  }

  /** The query strings of the page's requests for older messages (GET .../messages?before=). */
  function olderPageRequests(page: Page): string[] {
    const queries: string[] = [];
    page.on('request', (request) => {
      const match = /\/api\/conversations\/[0-9a-f-]{36}\/messages\?(.*)$/.exec(request.url());
      if (match) queries.push(match[1]);
    });
    return queries;
  }

  /** Opens another conversation while a page of older messages is held back, then lets that page arrive. */
  async function openWhileHeld(page: Page, title: string, held: { resolve: () => void }): Promise<void> {
    await listLink(page, title).click();
    await waitText(page.locator('#title'), title);
    const late = page.waitForResponse((response) => response.url().includes('/messages?'));
    held.resolve();
    await (await late).finished();
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50))); // time for the page to handle it
  }

  const messageBodies = async (page: Page) =>
    (await page.locator('#messages .message-body').allTextContents()).map((text) => text.trim());

  /** Whether the element is entirely within the visible part of the message list. */
  const inView = (locator: Locator) =>
    locator.evaluate((node: any) => {
      const r = node.getBoundingClientRect();
      const box = node.closest('#messages').getBoundingClientRect();
      return r.top >= box.top && r.bottom <= box.bottom;
    });

  it('opens a search result older than the newest 100 messages: loads back to it, marks it, and "Show earlier messages" goes on', async () => {
    const { base, t } = await startService();
    // 160 turns = 320 messages; the page opens with the newest 100 (seq 221-320). Only the
    // question of turn 20 (seq 39) says "Zanzibar".
    const turn = (n: number) => `turn ${String(n).padStart(3, '0')}`;
    const expected = Array.from({ length: 160 }, (_, i) => [
      i === 19 ? `${turn(20)}: and Zanzibar?` : turn(i + 1),
      `reply to: ${turn(i + 1)}`,
    ]).flat();
    await importConversation(t, 'A long trip', expected);
    await t.http().post('/api/chat').send({ message: 'Zanzibar in short' }).expect(200);
    const page = await openPage(base);
    const requests = olderPageRequests(page);
    const messages = page.locator('#messages .message');
    const marked = page.locator('#messages .message.highlight');
    const earlier = page.getByRole('button', { name: 'Show earlier messages' });
    const hit = listLink(page, 'A long trip');
    await waitText(page.locator('#title'), 'New chat');

    // One request reaches exactly back to it (seq 39-220); the button then loads the 38 before.
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('zanzibar');
    await hit.locator('mark', { hasText: 'Zanzibar' }).first().waitFor();
    expect(await hit.getAttribute('data-message-seq')).toBe('39');
    expect(await hit.getAttribute('data-message-thread')).toBe('main');
    await hit.click();
    await waitText(page.locator('#announcer'), '182 earlier messages shown, back to the message found.');
    expect(requests).toEqual(['before=221&limit=182&thread=main']);
    expect(await marked.count()).toBe(1);
    expect((await marked.textContent())!.trim()).toContain(`${turn(20)}: and Zanzibar?`);
    expect((await messages.first().getAttribute('class'))!.split(' ')).toContain('highlight'); // the oldest one shown
    expect(await inView(marked)).toBe(true);
    expect(await messageBodies(page)).toEqual(expected.slice(38)); // seq 39-320, in order, no gap
    expect(await page.locator('#messages > *').first().getAttribute('id')).toBe('show-earlier');
    expect(await errorBanner(page).isVisible()).toBe(false);
    await earlier.click();
    await messages.nth(319).waitFor();
    expect(requests.at(-1)).toBe('before=39&limit=100&thread=main');
    expect(await messageBodies(page)).toEqual(expected);
    expect(await earlier.count()).toBe(0);

    // Another conversation opened while the page is held: it is dropped when it comes.
    const held = deferred();
    await page.route('**/api/conversations/*/messages?*', async (route) => {
      await held.promise;
      await route.continue();
    });
    requests.length = 0;
    await hit.click(); // the conversation shown: opened again, newest 100 first
    await page.getByRole('button', { name: 'Loading earlier messages…' }).waitFor();
    await openWhileHeld(page, 'Zanzibar in short', held);
    expect(requests).toEqual(['before=221&limit=182&thread=main']);
    expect(await messageBodies(page)).toEqual(['Zanzibar in short', 'reply to: Zanzibar in short']);
    expect(await earlier.count()).toBe(0);
    expect(await errorBanner(page).isVisible()).toBe(false);
  });

  it('says so, and loads nothing, when a search result is more than 5,000 messages back; opens the thread of a result in another one', async () => {
    const { base, t } = await startService();
    // 5,400 messages: the first one, the only to say "quokka", is 5,300 before the newest 100.
    await importConversation(
      t,
      'A very long chat',
      Array.from({ length: 5400 }, (_, i) => (i === 0 ? 'message 1 about a quokka' : `message ${i + 1}`)),
    );
    // Only the "research" thread says "aardvark"; the page opens the main one unless told.
    const threads = ['main', 'main', 'research', 'research'];
    await importConversation(t, 'Two threads', ['hello', 'hi', 'about the aardvark', 'it digs'], (i) => threads[i]);
    const page = await openPage(base);
    const requests = olderPageRequests(page);
    const messages = page.locator('#messages .message');
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await waitText(page.locator('#title'), 'New chat');

    await search.fill('quokka');
    await page.locator('#conversation-list a[data-message-seq="1"]', { hasText: 'A very long chat' }).click();
    await waitText(
      errorBanner(page),
      'The message this search found is too far back to show: more than 5,000 messages before the newest ones.',
    );
    expect(await messages.count()).toBe(100);
    expect(requests).toEqual([]);
    expect(await page.locator('.message.highlight').count()).toBe(0);

    await search.fill('aardvark');
    await page.locator('#conversation-list a[data-message-thread="research"]', { hasText: 'Two threads' }).click();
    await waitText(page.locator('.message.highlight'), 'about the aardvark');
    expect(await messageBodies(page)).toEqual(['about the aardvark', 'it digs']);
    expect(await page.getByLabel('Thread', { exact: true }).inputValue()).toBe('research');
    expect(requests).toEqual([]);
  });

  it('stops a reply with the stop button, then regenerates it', async () => {
    const { base, t } = await startService();
    const gate = deferred();
    fixture.fake.enqueue({ kind: 'stream', chunks: ['Once ', 'upon ', 'a time'], hold: gate.promise });
    const page = await openPage(base);
    await send(page, 'Tell me a story');
    await waitText(replies(page), 'Once upon');
    await stopButton(page).click();
    await waitText(replies(page), 'Stopped on request.');
    gate.resolve();
    await sendButton(page).waitFor();
    expect(await replies(page).textContent()).toContain('Once upon');

    await page.getByRole('button', { name: 'Regenerate the last reply' }).click();
    await waitText(replies(page), 'reply to: Tell me a story');
    expect(await replies(page).count()).toBe(1);
    const id = /#\/c\/([0-9a-f-]{36})$/.exec(page.url())![1];
    const [, reply] = (await t.http().get(`/api/conversations/${id}`).expect(200)).body.messages;
    expect(reply).toMatchObject({
      content: 'reply to: Tell me a story',
      status: 'complete',
      versions: [{ content: 'Once upon ', status: 'cancelled' }],
    });
  });

  it('shows errors plainly: the model down (502), a reply already running (409), rate limited (429)', async () => {
    const { base } = await startService({ env: { LLM_MAX_RETRIES: '0' } });
    const page = await openPage(base);

    fixture.fake.enqueue({ kind: 'status', status: 500, message: 'model exploded' });
    await send(page, 'Are you there?');
    await waitText(errorBanner(page), 'The model is unavailable (502).');
    await waitText(page.locator('.message.assistant.failed'), 'The reply failed');
    await page.getByRole('button', { name: 'Regenerate the last reply' }).click();
    await waitText(replies(page), 'reply to: Are you there?');
    expect(await errorBanner(page).isVisible()).toBe(false);

    // Another client's reply is being generated in this conversation: 409, then the page follows it.
    const id = /#\/c\/([0-9a-f-]{36})$/.exec(page.url())![1];
    const gate = deferred();
    fixture.fake.enqueue({ kind: 'stream', chunks: ['Other ', 'client ', 'reply'], hold: gate.promise });
    const other = await openEventStream(`${base}/api/chat/stream`, {
      method: 'POST',
      body: { message: 'from elsewhere', conversationId: id },
    });
    expect((await other.next())?.event).toBe('conversation');
    await send(page, 'me too');
    await waitText(errorBanner(page), 'Busy (409).');
    await waitText(replies(page).last(), 'Other client');
    expect(await composer(page).inputValue()).toBe('me too'); // nothing was stored: the text is kept
    await stopButton(page).waitFor();
    gate.resolve();
    await waitText(replies(page).last(), 'Other client reply');
    await other.collect();
    await sendButton(page).waitFor();

    // No rate limiter in this service yet; a proxy or a later version answers 429 like this.
    await page.route('**/api/chat/stream', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'Content-Type': 'application/json', 'Retry-After': '7' },
        body: JSON.stringify({ statusCode: 429, error: 'Too Many Requests', message: 'Too many requests.' }),
      }),
    );
    await composer(page).press('Enter');
    await waitText(errorBanner(page), 'Rate limited (429).');
    await waitText(errorBanner(page), 'Try again in 7 s.');
    expect(await composer(page).inputValue()).toBe('me too');
  });

  it('deletes a conversation after a confirmation', async () => {
    const { base, t } = await startService();
    const keep = (await t.http().post('/api/chat').send({ message: 'Keep me' }).expect(200)).body.conversationId;
    const doomed = (await t.http().post('/api/chat').send({ message: 'Delete me' }).expect(200)).body.conversationId;
    const page = await openPage(`${base}/#/c/${doomed}`);
    await waitText(page.locator('#title'), 'Delete me');

    await page.getByRole('button', { name: 'Delete this conversation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the conversation?' });
    await waitText(dialog, '“Delete me” and all its messages will be deleted.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await t.http().get(`/api/conversations/${doomed}`).expect(200);

    await page.getByRole('button', { name: 'Delete this conversation' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await listLink(page, 'Delete me').waitFor({ state: 'detached' });
    await waitText(page.locator('#title'), 'New chat');
    await t.http().get(`/api/conversations/${doomed}`).expect(404);
    await t.http().get(`/api/conversations/${keep}`).expect(200);
    expect(await listLink(page, 'Keep me').count()).toBe(1);
  });

  it('fits 360 px: the list becomes a drawer, and chatting works', async () => {
    const { base, t } = await startService();
    await t.http().post('/api/chat').send({ message: 'An earlier chat' }).expect(200);
    const page = await openPage(base, { width: 360, height: 740 });
    await waitText(page.locator('#title'), 'New chat');
    const sidebar = page.locator('#sidebar');
    const menu = page.getByRole('button', { name: 'Show conversations' });
    expect(await sidebar.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await menu.click();
    await sidebar.waitFor({ state: 'visible' });
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await sidebar.waitFor({ state: 'hidden' });

    await menu.click();
    await listLink(page, 'An earlier chat').click();
    await sidebar.waitFor({ state: 'hidden' });
    await waitText(replies(page), 'reply to: An earlier chat');

    await send(page, 'And now from a phone, with a rather long message that has to wrap over several lines');
    await waitText(replies(page).last(), 'reply to: And now from a phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const box = await composer(page).boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  });

  it('renders Markdown, and model output cannot run script: raw HTML is text, javascript: links are inert', async () => {
    const { base } = await startService();
    const page = await openPage(base);
    fixture.fake.enqueue({
      kind: 'reply',
      text: [
        'Look: <img src=x onerror="window.__pwned=1"> and [a link](javascript:window.__pwned=2) and <a href="javascript:window.__pwned=3">raw</a>',
        '<script>window.__pwned=4</script>',
        '',
        '```js',
        'const x = 1 < 2;',
        '```',
        '',
        '- one',
        '- **two**',
        '',
        'See [the docs](https://example.org/docs).',
      ].join('\n'),
    });
    await send(page, 'Show me');
    const reply = replies(page).last();
    await waitText(reply, 'See the docs');
    await sendButton(page).waitFor();

    expect(await reply.locator('pre code').textContent()).toBe('const x = 1 < 2;\n');
    expect(await reply.locator('li').allTextContents()).toEqual(['one', 'two']);
    expect(await reply.locator('strong').textContent()).toBe('two');
    // The HTML the model wrote is shown as text, not made into elements.
    expect(await reply.textContent()).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await reply.locator('img, script, iframe').count()).toBe(0);
    const hrefs = await reply.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual([null, 'https://example.org/docs']);
    await reply.getByText('a link').click();
    expect(await reply.locator('a').last().getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();

    // The sanitizer itself, on HTML that reaches it: handlers, javascript: URLs, styles, SVG go.
    const reportedBefore = fixture.problems.length;
    const clean = await page.evaluate(async () => {
      const { sanitize } = await import(new URL('render.js', location.href).href);
      const div = document.createElement('div');
      div.append(
        sanitize(
          '<img src=x onerror="window.__pwned=5"><a href="javascript:window.__pwned=6">x</a>' +
            '<p style="color:red" onclick="window.__pwned=7">y</p><svg><script>window.__pwned=8</script></svg><iframe src="/"></iframe>',
        ),
      );
      document.body.append(div);
      return div.innerHTML;
    });
    expect(clean).toBe('<a>x</a><p>y</p>');
    // Chromium may report (and block) the handlers and the style of that HTML as soon as it is
    // parsed, even in the inert document the sanitizer parses it into: the policy is a second
    // wall. Those reports were provoked on purpose here; how many depends on the version
    // (three before 150, one since), so only their kind is checked.
    const reports = fixture.problems.splice(reportedBefore);
    expect(reports.length).toBeLessThanOrEqual(3);
    for (const report of reports)
      expect(report).toMatch(
        /^console: (Executing inline event handler|Applying inline style) violates .* The action has been blocked\.$/,
      );
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  });

  it('picks an agent for a new conversation and shows it', async () => {
    const { base, t } = await startService();
    const agent = (
      await t.http().post('/api/agents').send({ name: 'Travel planner', systemPrompt: 'You plan trips.' }).expect(201)
    ).body;
    const page = await openPage(base);
    const picker = page.getByRole('combobox', { name: 'Agent', exact: true });
    await waitText(picker, 'Travel planner');
    expect(await picker.locator('option').allTextContents()).toEqual(['No agent', 'Travel planner']);
    await picker.selectOption({ label: 'Travel planner' });
    await send(page, 'Plan a day in Lisbon');
    await waitText(replies(page), 'reply to: Plan a day in Lisbon');
    await waitText(page.locator('#agent-badge'), 'Agent: Travel planner');
    expect(await picker.isVisible()).toBe(false); // a conversation keeps its agent
    expect(fixture.fake.lastCompletion.body.messages![0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('You plan trips.'),
    });
    await waitText(listLink(page, 'Plan a day in Lisbon'), 'Travel planner');
    const id = /#\/c\/([0-9a-f-]{36})$/.exec(page.url())![1];
    expect((await t.http().get(`/api/conversations/${id}`).expect(200)).body.agentId).toBe(agent.id);

    // "New chat" starts afresh: the agent picked for the last one is not carried over.
    await page.getByRole('button', { name: 'New chat' }).click();
    await until(async () => (await picker.isVisible()) && (await picker.inputValue()) === '');
    await send(page, 'Just chatting');
    await waitText(replies(page), 'reply to: Just chatting');
    await waitText(page.locator('#agent-badge'), 'No agent');
    expect(fixture.fake.lastCompletion.body.messages!.some((m) => m.content.includes('You plan trips.'))).toBe(false);
  });

  it('renames a conversation and searches the list, where the server offers them', async () => {
    const { base, t } = await startService();
    await t.http().post('/api/chat').send({ message: 'Which pastries to try in Lisbon?' }).expect(200);
    const other = (await t.http().post('/api/chat').send({ message: 'A recipe for bread' }).expect(200)).body
      .conversationId;
    const spec = (await t.http().get('/api/docs-json').expect(200)).body;
    const canRename = Boolean(spec.paths['/api/conversations/{id}']?.patch);
    const canSearch = (spec.paths['/api/conversations'].get.parameters ?? []).some(
      (p: { name: string }) => p.name === 'q',
    );
    const page = await openPage(`${base}/#/c/${other}`);
    await waitText(page.locator('#title'), 'A recipe for bread');

    // PATCH /api/conversations/:id { title } came with another change; without it, skip this part.
    if (canRename) {
      await page.getByRole('button', { name: 'Rename this conversation' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rename the conversation' });
      await dialog.getByLabel('Title').fill('Sourdough');
      await dialog.getByRole('button', { name: 'Rename' }).click();
      await waitText(page.locator('#title'), 'Sourdough');
      await listLink(page, 'Sourdough').waitFor();
      expect((await t.http().get(`/api/conversations/${other}`).expect(200)).body.title).toBe('Sourdough');
    }

    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    if (!canSearch) {
      // A server without ?q= answers 400 to it: the page hides the box.
      expect(await page.locator('#search-form').isVisible()).toBe(false);
      return;
    }
    await search.fill('pastries');
    const hit = listLink(page, 'Which pastries');
    await hit.locator('mark', { hasText: 'pastries' }).first().waitFor();
    expect(await page.locator('#conversation-list a').count()).toBe(1);
    const messageId = await hit.getAttribute('data-message-id'); // the best message; none when the title matched
    await hit.click();
    await waitText(page.locator('#title'), 'Which pastries to try in Lisbon?');
    if (messageId) await page.locator('.message.highlight').waitFor();
    await search.fill('');
    await page.locator('#conversation-list a').nth(1).waitFor();
  });

  it('asks once for an API key when the server has keys, keeps it, and forgets it on request', async () => {
    const { base } = await startService({ env: { API_KEYS: `alice:${ALICE_KEY}` }, model: 'echo' });
    const page = await openPage(base);
    const dialog = page.getByRole('dialog', { name: 'API key' });
    await dialog.waitFor();
    await dialog.getByLabel('Key').fill('not-the-right-key');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await waitText(dialog, 'This key was refused.');
    await dialog.getByLabel('Key').fill(ALICE_KEY);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await send(page, 'hello with a key');
    await waitText(replies(page), 'Echo: hello with a key');
    await page.reload();
    await waitText(replies(page), 'Echo: hello with a key');
    expect(await dialog.isVisible()).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('chat-memory.apiKey'))).toBe(ALICE_KEY);

    await page.getByRole('button', { name: 'Forget API key' }).click();
    await dialog.waitFor();
    expect(await page.evaluate(() => localStorage.getItem('chat-memory.apiKey'))).toBeNull();
    expect(await page.locator('#conversation-list a').count()).toBe(0);
  });

  it('works at once in single-user mode with the offline echo model', async () => {
    const { base } = await startService({ model: 'echo' });
    const page = await openPage(base);
    await send(page, 'Hello, **echo**');
    await waitText(replies(page), 'Echo: Hello, echo');
    expect(await replies(page).locator('strong').textContent()).toBe('echo');
    expect(await page.locator('#key-dialog').isVisible()).toBe(false);
  });

  it('refuses the page and its API under a rebound foreign name (DNS rebinding), storing nothing', async () => {
    const { base, t } = await startService({ model: 'echo' });
    const context = await fixture.newContext();
    const page = await context.newPage();
    const answer = await page.goto(base.replace('127.0.0.1', 'rebind.test'));
    expect(answer?.status()).toBe(403);
    expect(JSON.parse(await answer!.text())).toMatchObject({
      statusCode: 403,
      error: 'Forbidden',
      message: expect.stringContaining('Host'),
    });
    // The attacker's script is same-origin with the service now: its reads and writes are refused all the same.
    const statuses = await page.evaluate(async () => [
      (await fetch('/api/conversations')).status,
      (
        await fetch('/api/chat', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ message: 'stolen' }),
        })
      ).status,
    ]);
    expect(statuses).toEqual([403, 403]);
    expect((await t.http().get('/api/conversations').expect(200)).body.items).toEqual([]);
  });

  it('works on localhost, and on a name listed in ALLOWED_HOSTS', async () => {
    const { base } = await startService({ model: 'echo', env: { ALLOWED_HOSTS: 'rebind.test' } });
    for (const name of ['localhost', 'rebind.test']) {
      const page = await openPage(base.replace('127.0.0.1', name));
      await waitText(page.locator('#auth-status'), 'Single-user mode');
      await send(page, `Hello from ${name}`);
      await waitText(replies(page), `Echo: Hello from ${name}`);
    }
  });
});
