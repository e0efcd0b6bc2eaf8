import {
  browserFixture,
  describeInChromium,
  replies,
  send,
  seriousViolations,
  waitText,
} from '../../support/browser-page.js';
import { ALICE_KEY, auth, BOB_KEY, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';
import { until } from '../../support/until.js';

// The read-only page of a share link (/s/<token>): as served, and in headless Chromium.

// Functions given to page.evaluate run in the browser; only this of its globals is used.
declare const navigator: { clipboard: { readText(): Promise<string> } };

const MARKDOWN_REPLY =
  'Here is **bold** advice.\n\n<img src="x" onerror="window.pwned = 1">\n\n```js\nconst x = 1;\n```';

async function sharedConversation(
  t: TestApp,
  key: string,
): Promise<{ conversationId: string; shareId: string; token: string }> {
  const chat = (await t.http().post('/api/chat').set(auth(key)).send({ message: 'Give me advice' }).expect(200)).body;
  const share = (
    await t.http().post(`/api/conversations/${chat.conversationId}/shares`).set(auth(key)).send({}).expect(201)
  ).body;
  return { conversationId: chat.conversationId, shareId: share.id, token: share.token };
}

describe('web page: a share link as served', () => {
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

  it('serves /s/<token> without a key, kept out of search engines, under the strict policy', async () => {
    const res = await t
      .http()
      .get(`/s/${'A'.repeat(43)}`)
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-robots-tag']).toMatch(/noindex/);
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'self'/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.text).toMatch(/<meta name="robots" content="noindex" ?\/?>/);
    expect(res.text).toContain('<script type="module" src="../share.js"></script>');
    for (const asset of ['/share.js', '/share.css']) await t.http().get(asset).expect(200);
    // The page holds no data: an unknown token gets the page, whose read answers 404.
    await t
      .http()
      .get(`/api/shared/${'A'.repeat(43)}`)
      .expect(404);
  });
});

describeInChromium('web page: a share link in Chromium', shareTests);

function shareTests(): void {
  const fixture = browserFixture();

  it('shows the snapshot read-only, Markdown made safe, with no serious accessibility violation; a revoked link says so', async () => {
    const { base, t } = await fixture.startService({ API_KEYS: `alice:${ALICE_KEY},bob:${BOB_KEY}` });
    fixture.fake.enqueue({ kind: 'reply', text: MARKDOWN_REPLY });
    const { token, shareId } = await sharedConversation(t, ALICE_KEY);
    const page = await fixture.openPage(`${base}/s/${token}`);
    await page.getByRole('heading', { level: 1, name: 'Give me advice' }).waitFor();
    const messages = page.getByRole('region', { name: 'Messages' });
    await waitText(messages, 'Here is');
    expect(await messages.locator('.message.user').innerText()).toContain('Give me advice');
    expect(await messages.locator('.message.assistant strong').innerText()).toBe('bold');
    expect(await messages.locator('.message.assistant pre code').innerText()).toContain('const x = 1;');
    // Raw HTML from the model is text, never an element.
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    // Nothing of the composer or the conversation list: read-only.
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await t.http().delete(`/api/shares/${shareId}`).set(auth(ALICE_KEY)).expect(204);
    await page.reload();
    await waitText(page.getByRole('alert'), 'revoked');
    expect(await page.getByRole('button', { name: 'Continue this conversation' }).isHidden()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('"Continue this conversation" asks for a key on the chat page, comes back to the link, then copies the share into the reader\'s own conversation and opens it', async () => {
    const { base, t } = await fixture.startService({ API_KEYS: `alice:${ALICE_KEY},bob:${BOB_KEY}` });
    const { token } = await sharedConversation(t, ALICE_KEY);
    const page = await fixture.openPage(`${base}/s/${token}`);
    const button = page.getByRole('button', { name: 'Continue this conversation' });
    await button.click();

    // Signed in on the chat page (which keeps the key in this browser), then back to the link by itself.
    const dialog = page.getByRole('dialog', { name: 'API key' });
    await dialog.waitFor();
    await dialog.getByLabel('Key').fill(BOB_KEY);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${base}/s/${token}`);
    await button.click();
    await page.waitForURL(/#\/c\/[0-9a-f-]{36}$/);
    const id = /#\/c\/([0-9a-f-]{36})$/.exec(page.url())![1];
    const fork = (await t.http().get(`/api/conversations/${id}`).set(auth(BOB_KEY)).expect(200)).body;
    expect(fork.title).toBe('Give me advice (fork)');
    expect(fork.messages.map((m: { content: string }) => m.content)).toEqual([
      'Give me advice',
      'reply to: Give me advice',
    ]);
    await t.http().get(`/api/conversations/${id}`).set(auth(ALICE_KEY)).expect(404);
    // The chat page opens the copy.
    await until(async () => (await page.locator('#title').innerText()).includes('Give me advice (fork)'));
  });

  it('continues at once in single-user mode', async () => {
    const { base, t } = await fixture.startService();
    const chat = (await t.http().post('/api/chat').send({ message: 'Solo' }).expect(200)).body;
    const { token } = (await t.http().post(`/api/conversations/${chat.conversationId}/shares`).send({}).expect(201))
      .body;
    const page = await fixture.openPage(`${base}/s/${token}`);
    await page.getByRole('button', { name: 'Continue this conversation' }).click();
    await page.waitForURL(/#\/c\/[0-9a-f-]{36}$/);
    const list = (await t.http().get('/api/conversations').expect(200)).body.items.map(
      (c: { title: string }) => c.title,
    );
    expect(list).toEqual(expect.arrayContaining(['Solo', 'Solo (fork)']));
  });

  it('the chat page makes a link of the open conversation, copies it, lists and revokes it', async () => {
    const { base, t } = await fixture.startService();
    const page = await fixture.openPage(base, undefined, { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.locator('#auth-status').filter({ hasText: 'Single-user mode' }).waitFor();
    await send(page, 'Worth sharing');
    await waitText(replies(page), 'reply to:');
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('button', { name: 'Share…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share' });
    await waitText(dialog, 'No links yet.');
    await dialog.getByRole('button', { name: 'Create a link' }).click();
    const link = dialog.getByLabel('New link');
    await until(async () => /\/s\/[A-Za-z0-9_-]{43}$/.test(await link.inputValue()));
    const url = await link.inputValue();
    expect(url.startsWith(`${base}/s/`)).toBe(true);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await waitText(page.getByRole('status').filter({ hasText: 'copied' }), 'copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    const token = url.split('/s/')[1];
    expect((await t.http().get(`/api/shared/${token}`).expect(200)).body.title).toBe('Worth sharing');
    const list = dialog.getByRole('list', { name: 'Links of this conversation' });
    await until(async () => (await list.locator('li').count()) === 1);
    expect(await seriousViolations(page)).toEqual([]);
    await list.getByRole('button', { name: /^Revoke the link made / }).click();
    await until(async () => (await list.locator('li').count()) === 0);
    await t.http().get(`/api/shared/${token}`).expect(404);
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect(await dialog.isHidden()).toBe(true);
  });
}
