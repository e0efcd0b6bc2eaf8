import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  browserFixture,
  describeInChromium,
  composer,
  errorBanner,
  listLink,
  openId,
  replies,
  send,
  sendButton,
  seriousViolations,
  stopButton,
  waitText,
} from '../../support/browser-page.js';
import { startTestApp, tempDir, type TestApp } from '../../support/test-app.js';
import { deferred } from '../../support/until.js';

// The page's tools around the chat: message tools (copy, highlighting, time and model, status
// badges, fork), the conversation's menu (pin, tags, archive, export), the Archived view and the
// tag filter, import, keyboard shortcuts, and axe-core on all of them. Same rules as
// web.e2e-spec.ts: Chromium, the SQLite pass only.

declare const navigator: { clipboard: { readText(): Promise<string> } };
declare const document: any;

describeInChromium('web page tools in Chromium', toolTests);

const CODE_REPLY = [
  'Here it is:',
  '',
  '```js',
  "const greeting = 'hello';",
  'console.log(greeting);',
  '```',
  '',
  'Done.',
].join('\n');
const CODE = "const greeting = 'hello';\nconsole.log(greeting);";
const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };

describe('web page tools: served by the service', () => {
  let t: TestApp;
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    tmp = tempDir();
    t = await startTestApp({ dbPath: `${tmp.dir}/chat.sqlite` });
  });
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it("serves highlight.js from node_modules at /vendor/ with the page's new modules", async () => {
    for (const asset of [
      'vendor/highlight.min.js',
      'code-highlight.js',
      'message-tools.js',
      'conversation-menu.js',
      'list-filters.js',
      'shortcuts.js',
    ]) {
      const res = await t.http().get(`/${asset}`).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    }
    expect((await t.http().get('/vendor/highlight.min.js').expect(200)).text).toContain('Highlight.js v11.');
  });
});

function toolTests(): void {
  const fixture = browserFixture();
  const { startService, openPage } = fixture;
  const fake = () => fixture.fake;
  const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
  const moreActions = (page: Page) => page.getByRole('button', { name: 'More actions' });
  const menuItem = (page: Page, name: string) =>
    page.locator('#more-actions-menu').getByRole('button', { name, exact: true });
  const listStatus = (page: Page) => page.locator('#list-status');

  /** Asks for CODE_REPLY and waits until it is shown whole and the reply has ended. */
  async function codeReply(page: Page, ask: string): Promise<Locator> {
    fake().enqueue({ kind: 'reply', text: CODE_REPLY });
    await send(page, ask);
    const reply = replies(page).last();
    await waitText(reply, 'Done.');
    await sendButton(page).waitFor();
    return reply;
  }

  async function chatVia(t: TestApp, message: string): Promise<string> {
    return (await t.http().post('/api/chat').send({ message }).expect(200)).body.conversationId;
  }

  it('highlights code, copies a code block and a whole message, and shows the time and model of each reply', async () => {
    const { base, t } = await startService();
    const page = await openPage(base, undefined, CLIPBOARD);
    const reply = await codeReply(page, 'Show me some code');

    // Highlighted by highlight.js: the keyword and the string are marked, the text is unchanged.
    const code = reply.locator('pre code');
    expect(await code.textContent()).toBe(`${CODE}\n`);
    expect(await code.locator('.hljs-keyword').first().textContent()).toBe('const');
    expect(await code.locator('.hljs-string').first().textContent()).toBe("'hello'");
    expect(await reply.locator('.code-lang').textContent()).toBe('js');
    // Themed: a keyword has a colour of its own.
    const colours = await code.evaluate((node: any) => {
      const style = (el: any) => node.ownerDocument.defaultView.getComputedStyle(el).color;
      return { keyword: style(node.querySelector('.hljs-keyword')), text: style(node) };
    });
    expect(colours.keyword).not.toBe(colours.text);

    await reply.getByRole('button', { name: 'Copy code' }).click();
    await waitText(reply.locator('.code-head'), 'Copied');
    expect(await clipboard(page)).toBe(CODE);
    await waitText(page.locator('#announcer'), 'Copied to the clipboard.');

    await reply.getByRole('button', { name: 'Copy the reply' }).click();
    await waitText(reply.locator('.message-footer'), 'Copied');
    expect(await clipboard(page)).toBe(CODE_REPLY);
    await page.locator('.message.user').getByRole('button', { name: 'Copy your message' }).click();
    expect(await clipboard(page)).toBe('Show me some code');

    // Time and model, as stored; after a reload too.
    const id = openId(page)!;
    const stored = (await t.http().get(`/api/conversations/${id}`).expect(200)).body.messages[1];
    expect(stored.model).toBeTruthy();
    for (const pass of ['live', 'reloaded']) {
      if (pass === 'reloaded') await page.reload();
      const footer = replies(page).last().locator('.message-footer');
      await waitText(footer, stored.model);
      expect(await footer.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(await page.locator('.message.user time').count()).toBe(1);
  });

  it('highlights a code block in place when highlight.js arrives after it: the focused copy button keeps the focus', async () => {
    const { base } = await startService();
    const page = await openPage(base);
    const held = deferred();
    await page.route('**/vendor/highlight.min.js', async (route) => {
      await held.promise;
      await route.continue();
    });
    const reply = await codeReply(page, 'Code, please');
    const code = reply.locator('pre code');
    expect(await code.textContent()).toBe(`${CODE}\n`); // plain meanwhile
    expect(await code.locator('.hljs-keyword').count()).toBe(0);
    const copy = reply.getByRole('button', { name: 'Copy code' });
    await copy.focus();
    held.resolve();
    await code.locator('.hljs-keyword').first().waitFor();
    expect(await code.textContent()).toBe(`${CODE}\n`);
    expect(await copy.evaluate((node: any) => node === node.ownerDocument.activeElement)).toBe(true);
  });

  it('copies on an address without the Clipboard API (plain http on the local network) with the older copy command', async () => {
    const { base } = await startService();
    const page = await openPage(base);
    await page.addInitScript(() =>
      Object.defineProperty((globalThis as any).navigator, 'clipboard', { value: undefined }),
    );
    await page.reload();
    await codeReply(page, 'Code, please');
    // What the copy command copies is the selection when it runs.
    await page.evaluate(() => {
      (globalThis as any).copied = [];
      document.addEventListener('copy', () => (globalThis as any).copied.push(String(document.getSelection())));
    });
    await replies(page).getByRole('button', { name: 'Copy code' }).click();
    await waitText(replies(page).locator('.code-head'), 'Copied');
    expect(await page.evaluate(() => (globalThis as any).copied)).toEqual([CODE]);
  });

  it('marks stopped, failed and cut replies with a badge and the reason', async () => {
    const { base } = await startService({ LLM_MAX_RETRIES: '0', MAX_REPLY_CHARS: '1000' });
    const page = await openPage(base);

    const gate = deferred();
    fake().enqueue({ kind: 'stream', chunks: ['Once ', 'upon ', 'a time'], hold: gate.promise });
    await send(page, 'Tell me a story');
    await waitText(replies(page), 'Once upon');
    await stopButton(page).click();
    const stopped = replies(page).last();
    await waitText(stopped, 'Stopped on request.');
    expect(await stopped.locator('.badge').textContent()).toBe('Stopped');
    gate.resolve();
    await sendButton(page).waitFor();

    fake().enqueue({ kind: 'status', status: 500, message: 'model exploded' });
    await send(page, 'Again?');
    const failed = replies(page).last();
    await waitText(failed, 'The reply failed:');
    expect(await failed.locator('.badge').textContent()).toBe('Failed');
    await sendButton(page).waitFor();

    fake().enqueue({ kind: 'reply', text: 'word '.repeat(400) });
    await send(page, 'Say a lot');
    const cut = replies(page).last();
    await waitText(cut, 'Cut short:');
    expect(await cut.locator('.badge').textContent()).toBe('Cut');
    const reason = await cut.locator('.message-note').textContent();
    expect(reason).toMatch(/Cut short: .+\./);

    // The same badges when the conversation is opened again.
    await page.reload();
    await replies(page).nth(2).waitFor();
    expect(await page.locator('.message.assistant .badge').allTextContents()).toEqual(['Stopped', 'Failed', 'Cut']);
    expect(await errorBanner(page).isVisible()).toBe(false);
  });

  it('continues from any message in a new conversation (fork)', async () => {
    const { base, t } = await startService();
    const page = await openPage(base);
    await send(page, 'First question');
    await waitText(replies(page), 'reply to: First question');
    await sendButton(page).waitFor();
    await send(page, 'Second question');
    await waitText(replies(page).last(), 'reply to: Second question');
    await sendButton(page).waitFor();
    const original = openId(page)!;

    await replies(page).first().getByRole('button', { name: 'Continue in a new conversation' }).click();
    await page.waitForURL((url) => !url.hash.endsWith(original) && /#\/c\/[0-9a-f-]{36}$/.test(url.hash));
    const forked = openId(page)!;
    await page.locator('.message').nth(1).waitFor();
    expect(await page.locator('.message .message-body').allTextContents()).toEqual([
      'First question',
      expect.stringContaining('reply to: First question'),
    ]);
    const body = (await t.http().get(`/api/conversations/${forked}`).expect(200)).body;
    expect(body.messages.map((m: { content: string }) => m.content)).toEqual([
      'First question',
      'reply to: First question',
    ]);
    expect((await t.http().get(`/api/conversations/${original}`).expect(200)).body.messages).toHaveLength(4);
    // It goes on from there.
    await send(page, 'A different second question');
    await waitText(replies(page).last(), 'reply to: A different second question');
    const history = fake()
      .lastCompletion.body.messages!.filter((m) => m.role !== 'system')
      .map((m) => m.content);
    expect(history).toEqual(['First question', 'reply to: First question', 'A different second question']);

    // From a question sent on this page (its id came with the stream): the fork ends with it,
    // and waits for an answer.
    await listLink(page, 'First question').first().waitFor();
    await page.goto(`${base}/#/c/${original}`);
    await waitText(replies(page).last(), 'reply to: Second question');
    await send(page, 'Third question');
    await waitText(replies(page).last(), 'reply to: Third question');
    await sendButton(page).waitFor();
    await page.locator('.message.user').last().getByRole('button', { name: 'Continue in a new conversation' }).click();
    await page.getByRole('button', { name: 'Get an answer' }).waitFor();
    const third = openId(page)!;
    expect(third).not.toBe(original);
    expect(
      (await t.http().get(`/api/conversations/${third}`).expect(200)).body.messages.map(
        (m: { content: string }) => m.content,
      ),
    ).toEqual([
      'First question',
      'reply to: First question',
      'Second question',
      'reply to: Second question',
      'Third question',
    ]);
  });

  it('pins, tags, filters by tag, archives and unarchives, renames and deletes, with empty states that say what to do', async () => {
    const { base, t } = await startService();
    const page = await openPage(base);
    await waitText(listStatus(page), 'No conversations yet. Write a message to start one');
    const trip = await chatVia(t, 'Plan a trip to Lisbon');
    await chatVia(t, 'Bake some bread');
    await page.reload();
    await listLink(page, 'Bake some bread').waitFor();
    await listLink(page, 'Plan a trip').click();
    await waitText(page.locator('#title'), 'Plan a trip to Lisbon');

    // Pin.
    await moreActions(page).click();
    expect(await moreActions(page).getAttribute('aria-expanded')).toBe('true');
    await menuItem(page, 'Pin').click();
    await waitText(page.locator('#conversation-labels'), 'Pinned');
    await waitText(listLink(page, 'Plan a trip'), 'Pinned');
    expect((await t.http().get(`/api/conversations/${trip}`).expect(200)).body.pinned).toBe(true);

    // Tags: add two, remove one; the dialog shows the API's refusal of a bad one.
    await moreActions(page).click();
    await menuItem(page, 'Tags…').click();
    const dialog = page.getByRole('dialog', { name: 'Tags' });
    await waitText(dialog, 'No tags yet.');
    const tagInput = dialog.getByLabel('New tag');
    for (const tag of ['Travel', 'portugal']) {
      await tagInput.fill(tag);
      await dialog.getByRole('button', { name: 'Add' }).click();
      await waitText(dialog.locator('#tag-chips'), `#${tag.toLowerCase()}`);
    }
    await dialog.getByRole('button', { name: 'Remove the tag portugal' }).click();
    await page.waitForFunction(() => !document.querySelector('#tag-chips').textContent.includes('#portugal'));
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await t.http().get(`/api/conversations/${trip}`).expect(200)).body.tags).toEqual(['travel']);
    await waitText(listLink(page, 'Plan a trip'), '#travel');

    // The API's refusal is shown in the dialog: at most 20 tags.
    const bread = (await t.http().get('/api/conversations').expect(200)).body.items.find(
      (c: { title: string }) => c.title === 'Bake some bread',
    ).id;
    const many = Array.from({ length: 20 }, (_, i) => `t${i}`);
    await t.http().patch(`/api/conversations/${bread}`).send({ tags: many }).expect(200);
    await listLink(page, 'Bake some bread').click();
    await waitText(page.locator('#title'), 'Bake some bread');
    await moreActions(page).click();
    await menuItem(page, 'Tags…').click();
    await tagInput.fill('one-too-many');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await waitText(dialog.getByRole('alert'), '20');
    expect(await dialog.locator('#tag-chips li').count()).toBe(20);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await t.http().get(`/api/conversations/${bread}`).expect(200)).body.tags).toHaveLength(20);
    await t.http().patch(`/api/conversations/${bread}`).send({ tags: [] }).expect(200);
    await listLink(page, 'Plan a trip').click();
    await waitText(page.locator('#title'), 'Plan a trip to Lisbon');

    // Filter by tag: from the label under the title, and back to all from the list's filter.
    await page.getByRole('button', { name: 'Show the conversations tagged travel' }).click();
    await listLink(page, 'Bake some bread').waitFor({ state: 'detached' });
    expect(await page.locator('#conversation-list a').count()).toBe(1);
    const filter = page.getByLabel('Tag', { exact: true });
    expect(await filter.inputValue()).toBe('travel');
    await filter.selectOption('');
    await listLink(page, 'Bake some bread').waitFor();

    // Archive: out of the list, into the Archived view; and back.
    await moreActions(page).click();
    await menuItem(page, 'Archive').click();
    await listLink(page, 'Plan a trip').waitFor({ state: 'detached' });
    await waitText(page.locator('#conversation-labels'), 'Archived');
    const archivedView = page.getByRole('button', { name: 'Archived', exact: true });
    await archivedView.click();
    expect(await archivedView.getAttribute('aria-pressed')).toBe('true');
    await listLink(page, 'Plan a trip').waitFor();
    expect(await page.locator('#conversation-list a').count()).toBe(1);
    await filter.selectOption('travel');
    await listLink(page, 'Plan a trip').waitFor();
    await moreActions(page).click();
    await menuItem(page, 'Unarchive').click();
    await waitText(listStatus(page), 'No archived conversation is tagged “travel”.');
    await filter.selectOption('');
    await waitText(listStatus(page), 'No archived conversations. Archive one from its “More actions” menu');
    expect((await t.http().get(`/api/conversations/${trip}`).expect(200)).body.archived).toBe(false);
    await page.getByRole('button', { name: 'Chats', exact: true }).click();
    await listLink(page, 'Plan a trip').waitFor();

    // Search says what it found nothing for.
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('zeppelin');
    await waitText(listStatus(page), 'No conversation matches “zeppelin”.');
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('');
    await listLink(page, 'Bake some bread').waitFor();

    // Rename and delete stay where they were.
    await page.getByRole('button', { name: 'Rename this conversation' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename the conversation' });
    await rename.getByLabel('Title').fill('Lisbon in May');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await listLink(page, 'Lisbon in May').waitFor();
    await page.getByRole('button', { name: 'Delete this conversation' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the conversation?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await listLink(page, 'Lisbon in May').waitFor({ state: 'detached' });
    await t.http().get(`/api/conversations/${trip}`).expect(404);
  });

  it('exports a conversation as JSON and as Markdown, and imports the JSON file back', async () => {
    const { base, t } = await startService();
    const id = await chatVia(t, 'Remember the milk');
    const page = await openPage(`${base}/#/c/${id}`);
    await waitText(replies(page), 'reply to: Remember the milk');

    const download = async (format: string) => {
      await moreActions(page).click();
      const [file] = await Promise.all([page.waitForEvent('download'), menuItem(page, `Export as ${format}`).click()]);
      const path = join(tmpdir(), `export-${process.pid}-${file.suggestedFilename()}`);
      await file.saveAs(path);
      return { name: file.suggestedFilename(), path, text: readFileSync(path, 'utf8') };
    };
    const json = await download('JSON');
    expect(json.name).toMatch(/\.json$/);
    const exported = JSON.parse(json.text);
    expect(exported).toMatchObject({
      format: 'chat-memory.conversation',
      version: 2,
      conversation: { title: 'Remember the milk' },
    });
    expect(exported.conversation.messages.map((m: { content: string }) => m.content)).toEqual([
      'Remember the milk',
      'reply to: Remember the milk',
    ]);
    const markdown = await download('Markdown');
    expect(markdown.name).toMatch(/\.md$/);
    expect(markdown.text).toContain('Remember the milk');
    expect(markdown.text).toContain('reply to: Remember the milk');

    // Import (POST /api/imports, checked first): once the conversation is deleted, the file chosen brings it back as a new
    // conversation, linked from the report (while it exists, a re-import skips it as already imported).
    await t.http().delete(`/api/conversations/${id}`).expect(204);
    const dialog = page.getByRole('dialog', { name: 'Import conversations' });
    const choose = async (path: string) => {
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await dialog.getByLabel('File', { exact: true }).setInputFiles(path);
    };
    await choose(json.path);
    await dialog.getByRole('button', { name: 'Import 1 conversation' }).click();
    await waitText(dialog.getByRole('status'), 'Imported 1 conversation (2 messages).');
    await dialog.getByRole('link', { name: 'Remember the milk' }).click();
    await page.waitForURL((url) => /#\/c\/[0-9a-f-]{36}$/.test(url.hash) && !url.hash.endsWith(id));
    const imported = openId(page)!;
    await waitText(replies(page), 'reply to: Remember the milk');
    const list = (await t.http().get('/api/conversations').expect(200)).body.items;
    expect(list.map((c: { id: string }) => c.id)).toEqual([imported]);

    // A file that is not an export is refused with the API's reasons, in the dialog; one that is not JSON too.
    const bad = join(tmpdir(), `bad-${process.pid}.json`);
    writeFileSync(
      bad,
      JSON.stringify({
        format: 'chat-memory.conversation',
        version: 1,
        conversation: { title: 'x', messages: [{ role: 'wizard', content: 'hi' }] },
      }),
    );
    const notJson = join(tmpdir(), `not-json-${process.pid}.json`);
    writeFileSync(notJson, 'hello');
    for (const [file, words] of [
      [bad, `bad-${process.pid}.json is a chat-memory export: nothing to import, 1 to skip.`],
      [notJson, `not-json-${process.pid}.json cannot be imported:`],
    ]) {
      await choose(file);
      await waitText(dialog.locator('#import-status, #import-error'), words);
      await page.keyboard.press('Escape');
    }
    expect((await t.http().get('/api/conversations').expect(200)).body.items).toHaveLength(1);
  });

  it('has keyboard shortcuts for new chat, search and stop, listed in a help dialog', async () => {
    const { base, t } = await startService();
    await chatVia(t, 'An older chat');
    const page = await openPage(base);
    await listLink(page, 'An older chat').click();
    await waitText(page.locator('#title'), 'An older chat');
    // Loaded, not only opened: its messages shown, the focus given to the message box already.
    await waitText(page.locator('#messages .message.user'), 'An older chat');

    // ? (outside a text field) shows the list.
    await page.locator('#title').focus();
    await page.keyboard.press('Shift+?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    const terms = await help.locator('dt').allTextContents();
    const what = await help.locator('dd').allTextContents();
    expect(what).toEqual([
      'New chat',
      'Search conversations',
      'Stop the reply being written',
      'Go to the message box',
      'Show these shortcuts',
    ]);
    expect(terms[0]).toBe('Ctrl + Shift + O');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    // In the message box, ? is just a character; the link under it opens the list too.
    await composer(page).focus();
    await page.keyboard.type('?');
    expect(await composer(page).inputValue()).toBe('?');
    expect(await help.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await help.waitFor();
    await help.getByRole('button', { name: 'Close' }).click();
    await composer(page).fill('');

    // Ctrl+Shift+O: a new chat; Ctrl+K: the search box.
    await page.keyboard.press('Control+Shift+O');
    await waitText(page.locator('#title'), 'New chat');
    await page.keyboard.press('Control+K');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search');
    // Shift+Esc back to the message box; Esc stops a reply being written.
    await page.keyboard.press('Shift+Escape');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('message');
    const gate = deferred();
    fake().enqueue({ kind: 'stream', chunks: ['Slowly ', 'now'], hold: gate.promise });
    await send(page, 'Take your time');
    await waitText(replies(page), 'Slowly');
    await page.keyboard.press('Escape');
    await waitText(replies(page), 'Stopped on request.');
    gate.resolve();
    await sendButton(page).waitFor();
  });

  for (const viewport of [
    { name: 'desktop', width: 1100, height: 760, colorScheme: 'light' as const },
    { name: '390 px', width: 390, height: 844, colorScheme: 'light' as const },
    { name: 'desktop in dark mode', width: 1100, height: 760, colorScheme: 'dark' as const },
    { name: '390 px in dark mode', width: 390, height: 844, colorScheme: 'dark' as const },
  ]) {
    it(`has no serious or critical axe-core violations at ${viewport.name}: the chat, its menu, the Archived view, the tags, rename, delete and shortcuts dialogs`, async () => {
      const { base, t } = await startService({ LLM_MAX_RETRIES: '0' });
      fake().enqueue({ kind: 'reply', text: CODE_REPLY }, { kind: 'status', status: 500, message: 'model exploded' });
      const id = await chatVia(t, 'Show me some code');
      await t.http().post('/api/chat').send({ message: 'And again', conversationId: id });
      await t
        .http()
        .patch(`/api/conversations/${id}`)
        .send({ tags: ['code'], pinned: true })
        .expect(200);
      const page = await openPage(
        base,
        { width: viewport.width, height: viewport.height },
        { colorScheme: viewport.colorScheme },
      );
      const narrow = viewport.width < 760;
      const check = async (what: string) =>
        expect({ what, violations: await seriousViolations(page) }).toEqual({ what, violations: [] });

      await waitText(page.locator('#title'), 'New chat');
      await check('a new chat');
      await page.goto(`${base}/#/c/${id}`);
      await waitText(page.locator('.message.assistant.failed'), 'The reply failed');
      await page.locator('.code-block').waitFor();
      await check('a conversation with code, a failed reply, labels');

      await moreActions(page).click();
      await menuItem(page, 'Pin').or(menuItem(page, 'Unpin')).waitFor();
      await check('the More actions menu');
      await menuItem(page, 'Tags…').click();
      await page.getByRole('dialog', { name: 'Tags' }).waitFor();
      await check('the tags dialog');
      await page.getByRole('dialog', { name: 'Tags' }).getByRole('button', { name: 'Done' }).click();

      expect(await page.evaluate(() => document.activeElement?.id)).toBe('more-actions'); // the focus is back on the menu's button

      await page.getByRole('button', { name: 'Rename this conversation' }).click();
      await page.getByRole('dialog', { name: 'Rename the conversation' }).waitFor();
      await check('the rename dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Delete this conversation' }).click();
      await page.getByRole('dialog', { name: 'Delete the conversation?' }).waitFor();
      await check('the delete dialog');
      await page.keyboard.press('Escape');

      await page.locator('#title').focus();
      await page.keyboard.press('Shift+?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
      await check('the shortcuts dialog');
      await page.keyboard.press('Escape');

      if (narrow) await page.getByRole('button', { name: 'Show conversations' }).click();
      await page.getByRole('button', { name: 'Archived', exact: true }).click();
      await waitText(listStatus(page), 'No archived conversations.');
      await check('the Archived view, empty');
    });
  }
}
