import type { Page } from 'playwright-core';
import {
  browserFixture,
  composer,
  describeInChromium,
  errorBanner,
  listLink,
  replies,
  send,
  seriousViolations,
  waitText,
} from '../../support/browser-page.js';
import { until } from '../../support/until.js';

// The page's behaviour as a new user meets it: dialogs answering Enter, the memory form, the
// messages of validation errors. Chromium, the SQLite pass only (see browser-page.ts).

describeInChromium('web page details in Chromium', polishTests);

declare const document: any;
declare function getComputedStyle(node: unknown): { backgroundColor: string };

const KEY = 'sk-polish-alice-0123456789abcdef';

/** The API requests the page sends from now on: method, path and whether they carried a key. */
function apiRequests(page: Page): Array<{ path: string; keyed: boolean }> {
  const seen: Array<{ path: string; keyed: boolean }> = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/'))
      seen.push({ path: `${request.method()} ${url.pathname}`, keyed: Boolean(request.headers()['authorization']) });
  });
  return seen;
}

function polishTests(): void {
  const fixture = browserFixture();

  it('renames with Enter in the title box: Enter is Rename, not Cancel', async () => {
    const { base, t } = await fixture.startService();
    const page = await fixture.openPage(base);
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    await send(page, 'Plans for Lisbon');
    await waitText(replies(page), 'reply to:');
    await page.getByRole('button', { name: 'Rename this conversation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename the conversation' });
    await dialog.getByLabel('Title').fill('Lisbon in May');
    await dialog.getByLabel('Title').press('Enter');
    await waitText(listLink(page, 'Lisbon in May'), 'Lisbon in May');
    const [conversation] = (await t.http().get('/api/conversations').expect(200)).body.items;
    expect(conversation.title).toBe('Lisbon in May');

    // Cancel still cancels, even with an empty title.
    await page.getByRole('button', { name: 'Rename this conversation' }).click();
    await dialog.getByLabel('Title').fill('');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await until(async () => !(await dialog.isVisible()));
    expect((await t.http().get('/api/conversations').expect(200)).body.items[0].title).toBe('Lisbon in May');
  });

  it('clears the memory form after Add, its Pinned box included', async () => {
    const { base, t } = await fixture.startService();
    const page = await fixture.openPage(base);
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    await page.getByRole('button', { name: 'Memory' }).click();
    const panel = page.getByRole('dialog', { name: 'Memory' });
    await panel.getByLabel('Remember').fill('Allergic to peanuts');
    await panel.getByLabel('Pinned').check();
    await panel.getByRole('button', { name: 'Add' }).click();
    await waitText(panel.getByRole('list', { name: 'Memories' }), 'Allergic to peanuts');
    expect(await panel.getByLabel('Remember').inputValue()).toBe('');
    expect(await panel.getByLabel('Pinned').isChecked()).toBe(false);
    await panel.getByLabel('Remember').fill('Lives in Lyon');
    await panel.getByRole('button', { name: 'Add' }).click();
    await waitText(panel.getByRole('list', { name: 'Memories' }), 'Lives in Lyon');
    const memories = (await t.http().get('/api/memories').expect(200)).body.items as Array<{
      text: string;
      pinned: boolean;
    }>;
    expect(memories.map((m) => [m.text, m.pinned]).sort()).toEqual([
      ['Allergic to peanuts', true],
      ['Lives in Lyon', false],
    ]);
  });

  it('loads the list and the agents once each on opening, in single-user mode', async () => {
    const { base, t } = await fixture.startService();
    await t.http().post('/api/conversations').send({ title: 'Lisbon' }).expect(201);
    const context = await fixture.browser.newContext({ viewport: { width: 1100, height: 760 } });
    const page = await context.newPage();
    const seen = apiRequests(page);
    await page.goto(base);
    await waitText(listLink(page, 'Lisbon'), 'Lisbon');
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 1000)); // anything late would be sent by now
    const paths = seen.map((r) => r.path);
    expect(paths.filter((p) => p === 'GET /api/conversations')).toHaveLength(1);
    expect(paths.filter((p) => p === 'GET /api/agents')).toHaveLength(1);
    await context.close();
  });

  it('asks for a key before calling any route that needs one, then loads the list and the agents once each', async () => {
    const { base } = await fixture.startService({ API_KEYS: `alice:${KEY}` });
    const context = await fixture.browser.newContext({ viewport: { width: 1100, height: 760 } });
    const page = await context.newPage();
    const seen = apiRequests(page);
    await page.goto(base);
    const dialog = page.getByRole('dialog', { name: 'API key' });
    await dialog.waitFor();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = seen.splice(0);
    expect(before.filter((r) => r.path !== 'GET /api/settings')).toEqual([]);
    await dialog.getByLabel('Key').fill(KEY);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('#list-status').filter({ hasText: 'No conversations yet' }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(seen.every((r) => r.keyed)).toBe(true);
    const paths = seen.map((r) => r.path);
    expect(paths.filter((p) => p === 'GET /api/conversations')).toHaveLength(1);
    expect(paths.filter((p) => p === 'GET /api/agents')).toHaveLength(1);
    await context.close();
  });

  it('lists pinned conversations first, and only those in the Pinned view', async () => {
    const { base, t } = await fixture.startService();
    const chat = async (message: string) =>
      (await t.http().post('/api/chat').send({ message }).expect(200)).body.conversationId as string;
    const trip = await chat('Plan a trip to Lisbon');
    await chat('Bake some bread');
    await chat('Fix the bike');
    const page = await fixture.openPage(base);
    const titles = () => page.locator('#conversation-list a .conversation-title').allTextContents();
    await until(async () => (await titles()).length === 3);
    expect((await titles())[0]).toBe('Fix the bike');

    await listLink(page, 'Plan a trip').click();
    await waitText(page.locator('#title'), 'Plan a trip to Lisbon');
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.locator('#more-actions-menu').getByRole('button', { name: 'Pin', exact: true }).click();
    await until(async () => (await titles())[0] === 'Plan a trip to Lisbon');
    expect(await titles()).toEqual(['Plan a trip to Lisbon', 'Fix the bike', 'Bake some bread']);
    // Still first after a reload, though others were written to since.
    await chat('Walk the dog');
    await page.reload();
    await until(async () => (await titles()).length === 4);
    expect((await titles())[0]).toBe('Plan a trip to Lisbon');

    await page.getByRole('button', { name: 'Pinned', exact: true }).click();
    await until(async () => (await titles()).length === 1);
    expect(await titles()).toEqual(['Plan a trip to Lisbon']);
    expect(await page.getByRole('button', { name: 'Pinned', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await t.http().patch(`/api/conversations/${trip}`).send({ pinned: false }).expect(200);
    await page.getByRole('button', { name: 'Pinned', exact: true }).click(); // read again
    await waitText(page.locator('#list-status'), 'No pinned conversations.');
    await page.getByRole('button', { name: 'Chats', exact: true }).click();
    await until(async () => (await titles()).length === 4);
  });

  it('gives the Agents dialog its width at 390 px: text on whole lines, words unbroken, no serious axe violation', async () => {
    const { base, t } = await fixture.startService();
    for (const n of [1, 2, 3, 4, 5, 6]) {
      await t
        .http()
        .post('/api/agents')
        .send({
          name: `Travel planner ${n}`,
          emoji: '🧳',
          description: 'Plans trips with trains, ferries and long walks between towns',
          model: 'gpt-4o-mini',
          temperature: 0.4,
          tools: ['update_state', 'remember'],
        })
        .expect(201);
    }
    const page = await fixture.openPage(base, { width: 390, height: 800 });
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Show conversations' }).click();
    await page.getByRole('button', { name: 'Agents' }).click();
    const dialog = page.getByRole('dialog', { name: 'Agents' });
    await waitText(dialog.getByRole('list', { name: 'Your agents' }), 'Travel planner 6');
    const widths = await dialog
      .locator('.agent-text')
      .evaluateAll((nodes) => nodes.map((n: any) => n.getBoundingClientRect().width));
    for (const width of widths) expect(width).toBeGreaterThan(250);
    // "temperature" on one line: the settings line breaks between words only.
    const settings = dialog.locator('.agent-settings').first();
    const words = await settings.evaluate((node: any) => {
      const range = document.createRange();
      const text = node.firstChild;
      const at = node.textContent.indexOf('temperature');
      range.setStart(text, at);
      range.setEnd(text, at + 'temperature'.length);
      return range.getClientRects().length;
    });
    expect(words).toBe(1);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await seriousViolations(page)).toEqual([]);
    }
    await dialog.getByRole('button', { name: 'Edit 🧳 Travel planner 1' }).click();
    await page.getByRole('dialog', { name: 'Edit Travel planner 1' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('counts the characters near MAX_MESSAGE_CHARS, and keeps a message over it with a reason', async () => {
    const { base, t } = await fixture.startService({ MAX_MESSAGE_CHARS: '100' });
    const page = await fixture.openPage(base);
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    const count = page.locator('#message-count');
    await composer(page).fill('a'.repeat(80));
    expect(await count.isVisible()).toBe(false);
    await composer(page).fill('a'.repeat(95));
    await waitText(count, '95 of 100 characters.');
    await composer(page).fill('a'.repeat(105));
    await waitText(count, '5 characters too many: the limit is 100.');
    expect(await composer(page).getAttribute('aria-invalid')).toBe('true');
    await composer(page).press('Enter');
    await waitText(errorBanner(page), 'this server takes at most 100');
    expect(await composer(page).inputValue()).toHaveLength(105);
    expect((await t.http().get('/api/conversations').expect(200)).body.items).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('offers a theme beside following the system: light or dark whatever the system says, kept across a reload', async () => {
    const { base } = await fixture.startService();
    const page = await fixture.openPage(base, { width: 1100, height: 760 }, { colorScheme: 'light' });
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const LIGHT = 'rgb(247, 247, 248)';
    const DARK = 'rgb(23, 24, 27)';
    const theme = page.getByLabel('Theme');
    expect(await theme.inputValue()).toBe('system');
    expect(await background()).toBe(LIGHT);
    await theme.selectOption('dark');
    expect(await background()).toBe(DARK);
    expect(await seriousViolations(page)).toEqual([]);
    await page.reload();
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    expect(await background()).toBe(DARK);
    expect(await page.getByLabel('Theme').inputValue()).toBe('dark');

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByLabel('Theme').selectOption('light');
    expect(await background()).toBe(LIGHT);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Theme').selectOption('system');
    expect(await background()).toBe(DARK);
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await background()).toBe(LIGHT);
  });

  it('renders LaTeX with KaTeX ($...$, $$...$$, \\(...\\), \\[...\\]), served by the service, and leaves prices and code alone', async () => {
    const { base } = await fixture.startService();
    const reply = [
      'Inline $e^{i\\pi} + 1 = 0$ and \\(a^2 + b^2 = c^2\\).',
      '',
      '$$\\int_0^1 x\\,dx = \\frac{1}{2}$$',
      '',
      '\\[\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}\\]',
      '',
      'It costs $5 and $10 at most.',
      '',
      'In code: `$x$` stays.',
    ].join('\n');
    fixture.fake.enqueue({ kind: 'reply', text: reply });
    const page = await fixture.openPage(base);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    // KaTeX loads with the first reply that holds math, not with the page.
    const loaded = await page.evaluate(() =>
      (performance as any).getEntriesByType('resource').map((e: any) => new URL(e.name).pathname),
    );
    expect(loaded).toContain('/render.js');
    expect(loaded.filter((path: string) => path.startsWith('/vendor/katex/') && path.endsWith('.mjs'))).toEqual([]);
    expect(loaded).not.toContain('/vendor/highlight.min.js');
    await send(page, 'Some math please');
    const answer = replies(page).last();
    await waitText(answer, 'at most');
    await until(async () => (await answer.locator('.katex').count()) === 4);
    expect(scripts).toEqual(['/vendor/katex/katex.mjs']);
    expect(await answer.locator('.katex-display').count()).toBe(2);
    // KaTeX's MathML carries the source for screen readers and copying.
    expect(await answer.locator('annotation').allTextContents()).toEqual([
      'e^{i\\pi} + 1 = 0',
      'a^2 + b^2 = c^2',
      '\\int_0^1 x\\,dx = \\frac{1}{2}',
      '\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = \\frac{\\pi^2}{6}',
    ]);
    expect(await answer.innerText()).toContain('It costs $5 and $10 at most.');
    expect(await answer.locator('code').innerText()).toBe('$x$');
    // Its fonts come from this service (the policy allows nothing else; a refusal would fail the test).
    const fonts = await page.evaluate(async () => {
      await (document as any).fonts.ready;
      return [...(document as any).fonts].filter((f: any) => f.status === 'loaded').map((f: any) => f.family);
    });
    expect(fonts.some((family: string) => family.startsWith('KaTeX'))).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('says the model is rate-limited, with its Retry-After, when the model server answers 429', async () => {
    const { base } = await fixture.startService({ LLM_MAX_RETRIES: '0' });
    fixture.fake.enqueue({
      kind: 'status',
      status: 429,
      message: 'Rate limit reached',
      headers: { 'retry-after': '20' },
    });
    const page = await fixture.openPage(base);
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    await send(page, 'Are you there?');
    await waitText(errorBanner(page), 'retry in 20 s');
    expect(await page.locator('#error-title').innerText()).toBe('The model is rate-limited.');
  });
}
