import type { Locator, Page } from 'playwright-core';
import {
  browserFixture,
  describeInChromium,
  errorBanner,
  listLink,
  openId,
  seriousViolations,
  waitText,
} from '../../support/browser-page.js';
import type { TestApp } from '../../support/test-app.js';

// The messages a search finds (GET /api/search), listed in the sidebar below the conversations
// it finds: several per conversation, their snippets as plain text with the words found marked,
// "More messages" and "More chats", and a result opened at its message, on its branch. Same rules
// as web.e2e-spec.ts: Chromium, the SQLite pass only.

declare const document: any;

describeInChromium('web page message search in Chromium', searchTests);

function searchTests(): void {
  const { startService, openPage } = browserFixture();

  async function importConversation(t: TestApp, title: string, contents: string[]): Promise<string> {
    const createdAt = new Date().toISOString();
    const messages = contents.map((content, i) => ({
      seq: i + 1,
      thread: 'main',
      role: i % 2 ? 'assistant' : 'user',
      content,
      status: 'complete',
      createdAt,
    }));
    const body = { format: 'chat-memory.conversation', version: 1, conversation: { title, createdAt, messages } };
    return (await t.http().post('/api/conversations/import').send(body).expect(201)).body.id;
  }

  const search = (page: Page) => page.getByRole('searchbox', { name: 'Search conversations' });
  const found = (page: Page) => page.getByRole('list', { name: 'Messages' });
  const hits = (page: Page, title?: string) =>
    found(page)
      .getByRole('link')
      .filter(title ? { hasText: title } : {});

  /** Whether the element is entirely within the visible part of the message list. */
  const inView = (locator: Locator) =>
    locator.evaluate((node: any) => {
      const r = node.getBoundingClientRect();
      const box = node.closest('#messages').getBoundingClientRect();
      return r.top >= box.top && r.bottom <= box.bottom;
    });

  it('lists several messages of a conversation, as plain text with the words marked, and opens one scrolled to it and highlighted', async () => {
    const { base, t } = await startService();
    // 160 messages: the page opens with the newest 100, so the first ones must be loaded and scrolled to.
    const garden = [
      'How do I grow **tomatoes** on a balcony? <img src=x onerror="document.title=1">',
      '## Tomatoes\n- [x] water the [tomatoes](https://example.org/t) `daily`',
      ...Array.from({ length: 156 }, (_, i) => `note ${i + 3} about the weather`),
      'The tomatoes are red now, see [1]',
      'Great: pick the ripe tomatoes first',
    ];
    const gardenId = await importConversation(t, 'Garden notes', garden);
    await importConversation(t, 'Pasta', ['A sauce with tomatoes?', 'Yes: tomatoes, garlic, basil']);
    const page = await openPage(base);
    await waitText(page.locator('#title'), 'New chat');

    await search(page).fill('tomato');
    await found(page).getByRole('link').nth(5).waitFor();
    expect(await hits(page).count()).toBe(6);
    expect(await hits(page, 'Garden notes').count()).toBe(4); // several per conversation
    await waitText(page.locator('#announcer'), '6 messages found, listed below the conversations.');
    await listLink(page, 'Garden notes').waitFor(); // the conversations found come first
    await page.getByRole('heading', { name: 'Chats' }).waitFor();
    expect(await page.locator('#conversation-list a').count()).toBe(2);
    expect(await page.getByRole('button', { name: 'More chats' }).isVisible()).toBe(false); // nothing more to list
    // Who said it, and plain text: no Markdown markers, the message's own brackets kept, HTML as text.
    const inGarden = (seq: number) => found(page).locator(`a[data-message-seq="${seq}"]`, { hasText: 'Garden notes' });
    const first = inGarden(1);
    const second = inGarden(2);
    expect(await first.locator('.conversation-meta').textContent()).toMatch(/^You · /);
    expect(await second.locator('.conversation-meta').textContent()).toMatch(/^Assistant · /);
    const snippets = await page
      .locator('#conversation-list .conversation-snippet, #message-results .conversation-snippet')
      .allTextContents();
    expect(snippets.length).toBe(8);
    for (const text of snippets) expect(text).not.toMatch(/\*\*|##|\]\(|`|\[tomato|tomatoes\]/i);
    expect(await first.locator('.conversation-snippet').textContent()).toContain(
      'How do I grow tomatoes on a balcony?',
    );
    expect(await second.locator('.conversation-snippet').textContent()).toBe('Tomatoes water the tomatoes daily');
    expect(await inGarden(159).locator('.conversation-snippet').textContent()).toBe(
      'The tomatoes are red now, see [1]',
    );
    expect(await second.locator('mark').allTextContents()).toEqual(['Tomatoes', 'tomatoes']);
    expect(await found(page).locator('img').count()).toBe(0);
    expect(await page.title()).not.toBe('1');
    expect(await seriousViolations(page)).toEqual([]);

    // Opened from the keyboard: the conversation, loaded back to the message, which is in view and marked.
    await first.focus();
    await page.keyboard.press('Enter');
    await waitText(page.locator('#title'), 'Garden notes');
    const marked = page.locator('#messages .message.highlight');
    await waitText(marked, 'How do I grow **tomatoes** on a balcony?'); // a user message is shown as written
    expect(openId(page)).toBe(gardenId);
    expect(await marked.count()).toBe(1);
    expect(await inView(marked)).toBe(true);
    expect(await page.locator('#messages .message').count()).toBe(160);

    // Another result of the same conversation: the view moves to it.
    await inGarden(160).click();
    await waitText(page.locator('#messages .message.highlight'), 'pick the ripe tomatoes first');
    expect(await page.locator('#messages .message.highlight').count()).toBe(1);
    expect(await inView(page.locator('#messages .message.highlight'))).toBe(true);
    expect(await errorBanner(page).isVisible()).toBe(false);

    // Clearing the search leaves the list of conversations alone.
    await search(page).fill('');
    await page.getByRole('heading', { name: 'Chats' }).waitFor({ state: 'hidden' });
    await found(page).waitFor({ state: 'hidden' });
    expect(await page.locator('#conversation-list a').count()).toBe(2);
    expect(await page.locator('#conversation-list .conversation-snippet').count()).toBe(0);
  });

  it('shows more messages and more chats on request, and opens a message of another version on its branch', async () => {
    const { base, t } = await startService();
    for (let n = 1; n <= 7; n++) {
      await importConversation(t, `Fruit ${n}`, [
        `kiwi question ${n}`,
        `kiwi answer ${n}`,
        `more kiwi ${n}`,
        `last kiwi ${n}`,
      ]);
    }
    const say = async (body: object) => (await t.http().post('/api/chat').send(body).expect(200)).body;
    const trip = (await say({ message: 'Plan a trip to Porto' })).conversationId as string;
    const umbrella = await say({ message: 'Pack the umbrella', conversationId: trip });
    await t
      .http()
      .post(`/api/conversations/${trip}/messages/${umbrella.userMessageId}/edit`)
      .send({ message: 'Pack the sunscreen' })
      .expect(200);
    const page = await openPage(base);
    await waitText(page.locator('#title'), 'New chat');
    const cursors: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/search') cursors.push(url.searchParams.get('cursor') ?? '');
    });

    await search(page).fill('kiwi');
    await found(page).getByRole('link').nth(19).waitFor();
    expect(await hits(page).count()).toBe(20);
    await waitText(page.locator('#announcer'), '20 or more messages found');
    expect(await page.locator('#conversation-list a').count()).toBe(5);
    const moreMessages = page.getByRole('button', { name: 'More messages' });
    await moreMessages.focus();
    await page.keyboard.press('Enter');
    await found(page).getByRole('link').nth(27).waitFor();
    expect(await hits(page).count()).toBe(28);
    await waitText(page.locator('#announcer'), '8 more messages shown.');
    expect(cursors.at(-1)).not.toBe(''); // the next page followed nextCursor
    expect(await moreMessages.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.closest('#message-results') !== null)).toBe(true); // the focus goes on, to the first new one
    const all = await hits(page).evaluateAll((links: any[]) => links.map((a) => a.dataset.messageId));
    expect(new Set(all).size).toBe(28);
    await page.getByRole('button', { name: 'More chats' }).click();
    await page.locator('#conversation-list a').nth(6).waitFor();
    expect(await page.locator('#conversation-list a').count()).toBe(7);
    expect(await page.getByRole('button', { name: 'More chats' }).isVisible()).toBe(false);

    // A message left aside by an edit says so, and opens on its branch.
    await search(page).fill('umbrella');
    const hit = found(page).locator('a[data-on-path="false"]', { hasText: 'Plan a trip to Porto' }).first();
    await waitText(hit, 'In another version of the conversation');
    await hit.click();
    await waitText(page.locator('#messages .message.highlight'), 'Pack the umbrella');
    await waitText(
      page.locator('#announcer'),
      'Switched to the version of the conversation where the search found it.',
    );
    expect(openId(page)).toBe(trip);
    expect(await page.locator('#messages .message-body').allTextContents()).not.toContain('Pack the sunscreen');
    await found(page).locator('a[data-on-path="true"]', { hasText: 'Plan a trip to Porto' }).first().waitFor(); // read again: on the path now
    expect(await seriousViolations(page)).toEqual([]);
  });
}
