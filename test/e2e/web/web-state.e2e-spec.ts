import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { browserFixture, describeInChromium, replies, send, waitText } from '../../support/browser-page.js';

// How the page's parts follow its state (web/state.js: subscribe, changed, flush), and its style
// sheets (web/css/), in headless Chromium: the modules as served, in the page they run in.

// Functions given to page.evaluate run in the browser; only these of its globals are used.
declare const document: any;
declare const location: { href: string };
declare const getComputedStyle: (element: unknown) => Record<string, string>;

const WEB = fileURLToPath(new URL('../../../web', import.meta.url));

describe('web page: its modules', () => {
  it("are each named in app.js's list of modules, which names no other", () => {
    const modules = readdirSync(WEB).filter((name) => name.endsWith('.js'));
    const header = readFileSync(join(WEB, 'app.js'), 'utf8').split('\nimport ')[0];
    const named = new Set([...header.matchAll(/^\/\/ {3}([a-z-]+\.js) /gm)].map((m) => m[1])); // `//   name.js   what it is`
    expect(modules.filter((name) => name !== 'app.js' && !named.has(name))).toEqual([]);
    expect([...named].filter((name) => !modules.includes(name))).toEqual([]);
  });
});

/** What each listener of a test topic was called with, in order, and whether that was at once. */
type Calls = Array<{ listener: string; items: unknown[] }>;

describeInChromium('web page: its state and style sheets in Chromium', () => {
  const fixture = browserFixture();

  it('runs each listener once per batch of changes, with what they named, and at once on flush()', async () => {
    const { base } = await fixture.startService();
    const page = await fixture.openPage(base);
    await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
    const result = await page.evaluate(async () => {
      const store = await import(new URL('state.js', location.href).href);
      const calls: Calls = [];
      const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
      store.subscribe('test-a', (items: unknown[]) => calls.push({ listener: 'a1', items }));
      store.subscribe('test-a', (items: unknown[]) => calls.push({ listener: 'a2', items }));
      store.subscribe('test-b', (items: unknown[]) => calls.push({ listener: 'b', items }));
      // One task's changes: nothing runs before its code is done, then each listener once.
      store.changed('test-b');
      store.changed('test-a', 1);
      store.changed('test-a', 1, 2);
      const during = calls.length;
      await tick();
      const batched = calls.splice(0);
      // flush(): at once, and nothing again afterwards.
      store.changed('test-a', 3);
      store.flush();
      const flushed = calls.splice(0);
      await tick();
      return { during, batched, flushed, after: calls.length };
    });
    expect(result.during).toBe(0);
    expect(result.batched).toEqual([
      { listener: 'b', items: [] },
      { listener: 'a1', items: [1, 2] },
      { listener: 'a2', items: [1, 2] },
    ]);
    expect(result.flushed).toEqual([
      { listener: 'a1', items: [3] },
      { listener: 'a2', items: [3] },
    ]);
    expect(result.after).toBe(0);
  });

  it('renders the conversation once for one action that changes it several times', async () => {
    const { base } = await fixture.startService();
    fixture.fake.enqueue({ kind: 'reply', text: 'First answer.' });
    const page = await fixture.openPage(base);
    await send(page, 'Hello there');
    await waitText(replies(page), 'First answer.');
    await page.evaluate(async () => {
      const store = await import(new URL('state.js', location.href).href);
      const seen = { renders: 0 };
      (globalThis as Record<string, unknown>).seen = seen;
      store.subscribe('conversation', () => seen.renders++);
    });
    // "New chat" shows an empty chat and the list without the open one marked: one render each.
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('heading', { level: 1, name: 'New chat' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { seen: { renders: number } }).seen.renders)).toBe(1);
    expect(await page.locator('#conversation-list a[aria-current="page"]').count()).toBe(0);
  });

  it('styles the chat page, a share link and the connect page from the style sheets of this origin', async () => {
    const { base, t } = await fixture.startService();
    fixture.fake.enqueue({ kind: 'reply', text: 'Shared **answer**.' });
    const page = await fixture.openPage(base);
    await send(page, 'Share this');
    await waitText(replies(page), 'Shared answer.');
    const chat = await sheets(page);
    expect(chat.hrefs).toEqual(
      ['base', 'list', 'conversation', 'message', 'composer', 'dialogs', 'panels'].map(
        (name) => `${base}/css/${name}.css`,
      ),
    );
    expect(chat.empty).toEqual([]);
    const userBubble = await page.evaluate(
      () => getComputedStyle(document.querySelector('.message.user')).backgroundColor,
    );
    expect(userBubble).not.toBe('rgba(0, 0, 0, 0)'); // css/message.css
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.composer')).borderTopStyle)).toBe(
      'solid',
    ); // css/composer.css

    const [conversation] = (await t.http().get('/api/conversations').expect(200)).body.items;
    const share = (await t.http().post(`/api/conversations/${conversation.id}/shares`).send({}).expect(201)).body;
    const shared = await fixture.openPage(`${base}/s/${share.token}`);
    await waitText(shared.locator('.message.assistant'), 'Shared answer.');
    const sharedSheets = await sheets(shared);
    expect(sharedSheets.empty).toEqual([]);
    expect(sharedSheets.hrefs).toEqual(
      expect.arrayContaining([`${base}/css/base.css`, `${base}/css/message.css`, `${base}/share.css`]),
    );
    expect(await shared.evaluate(() => getComputedStyle(document.querySelector('.message.user')).backgroundColor)).toBe(
      userBubble,
    );

    const connect = await fixture.openPage(`${base}/connect.html`);
    const connectSheets = await sheets(connect);
    expect(connectSheets.empty).toEqual([]);
    expect(connectSheets.hrefs).toEqual(expect.arrayContaining([`${base}/css/base.css`, `${base}/share.css`]));
  });
});

/** The page's style sheets from this origin (KaTeX's aside), and those of them that hold no rules (not loaded). */
async function sheets(page: Page): Promise<{ hrefs: string[]; empty: string[] }> {
  return page.evaluate(() => {
    const own = [...document.styleSheets].filter(
      (sheet: { href: string | null }) => sheet.href && !sheet.href.includes('/vendor/'),
    );
    return {
      hrefs: own.map((sheet: { href: string }) => sheet.href),
      empty: own
        .filter((sheet: { cssRules: unknown[] }) => sheet.cssRules.length === 0)
        .map((sheet: { href: string }) => sheet.href),
    };
  });
}
