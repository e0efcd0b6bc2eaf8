import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  chatGptConversation,
  openWebUiChat,
  type GptNode,
} from '../../../src/portability/archives/archive-builders.js';
import {
  browserFixture,
  describeInChromium,
  errorBanner,
  listLink,
  openId,
  replies,
  seriousViolations,
  waitText,
} from '../../support/browser-page.js';

// Importing other tools' archives from the web page (POST /api/imports: checked first, then
// confirmed), and opening a search result that is on another branch than the active one. Same
// rules as web.e2e-spec.ts: Chromium, the SQLite pass only.

declare const document: any;

describeInChromium('web page imports and branch search results in Chromium', importTests);

/** A ChatGPT conversation whose second question was edited (the edit is the version shown), with an image in the first answer's question. */
function editedChatGpt(): Record<string, unknown> {
  const nodes: GptNode[] = [
    ['root', null, null],
    ['u1', 'root', { role: 'user', text: 'Plan a trip to Porto', time: 1_700_000_001 }],
    [
      'img',
      'u1',
      {
        role: 'user',
        content: {
          content_type: 'multimodal_text',
          parts: [{ content_type: 'image_asset_pointer', asset_pointer: 'file-service://x' }, 'and this photo'],
        },
        time: 1_700_000_002,
      },
    ],
    ['a1', 'img', { role: 'assistant', text: 'Porto it is', time: 1_700_000_003, model: 'gpt-4o' }],
    ['u2', 'a1', { role: 'user', text: 'Pack the umbrella', time: 1_700_000_004 }],
    ['a2', 'u2', { role: 'assistant', text: 'Umbrella packed', time: 1_700_000_005, model: 'gpt-4o' }],
    ['u2e', 'a1', { role: 'user', text: 'Pack the sunscreen', time: 1_700_000_006 }],
    ['a2e', 'u2e', { role: 'assistant', text: 'Sunscreen packed', time: 1_700_000_007, model: 'gpt-4o' }],
  ];
  return chatGptConversation({ id: 'gpt-porto', title: 'Porto trip', currentNode: 'a2e', nodes });
}

/** A conversation whose node names a parent that is not there: skipped with its reason. */
function damagedChatGpt(): Record<string, unknown> {
  return chatGptConversation({
    id: 'gpt-broken',
    title: 'Broken one',
    nodes: [
      ['root', null, null],
      ['u1', 'nowhere', { role: 'user', text: 'lost', time: 1_700_000_001 }],
    ],
  });
}

function importTests(): void {
  const fixture = browserFixture();
  const { startService, openPage } = fixture;
  const dialog = (page: Page) => page.getByRole('dialog', { name: 'Import conversations' });
  const fileInput = (page: Page) => dialog(page).getByLabel('File', { exact: true });
  const status = (page: Page) => dialog(page).getByRole('status');
  const file = (name: string, contents: string) => {
    const path = join(tmpdir(), `${process.pid}-${name}`);
    writeFileSync(path, contents);
    return path;
  };
  /** The Content-Type of each request to /api/imports, with its query. */
  const importRequests = (page: Page) => {
    const seen: Array<{ query: string; type: string | undefined }> = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/imports') seen.push({ query: url.search, type: request.headers()['content-type'] });
    });
    return seen;
  };

  it('checks a ChatGPT archive first (what is imported, skipped and why, what is not kept), then imports it and links to it', async () => {
    const { base, t } = await startService();
    const page = await openPage(base);
    const requests = importRequests(page);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog(page).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('import-file');
    expect(await fileInput(page).getAttribute('accept')).toBe('.json,.zip,application/json,application/zip');

    await fileInput(page).setInputFiles(
      file('conversations.json', JSON.stringify([editedChatGpt(), damagedChatGpt()])),
    );
    await waitText(
      status(page),
      'conversations.json is a ChatGPT export: 1 conversation to import (7 messages), 1 to skip.',
    );
    await waitText(dialog(page), 'To import (1)');
    expect(await dialog(page).locator('#import-report').innerText()).toMatch(/Porto trip · 7 messages, 1 branch point/);
    expect(await dialog(page).locator('#import-report').innerText()).toMatch(/To skip \(1\)\s*Broken one: .*parent/);
    await waitText(dialog(page), 'Not kept as text: 1 image.');
    expect((await t.http().get('/api/conversations').expect(200)).body.items).toEqual([]); // a dry run stores nothing
    expect(await seriousViolations(page)).toEqual([]);

    await dialog(page).getByRole('button', { name: 'Import 1 conversation' }).click();
    await waitText(status(page), 'Imported 1 conversation (7 messages), 1 skipped.');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Close');
    expect(requests).toEqual([
      { query: '?dryRun=true', type: 'application/json' },
      { query: '', type: 'application/json' },
    ]);
    // The list shows it; the report links to it.
    await listLink(page, 'Porto trip').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog(page).getByRole('link', { name: 'Porto trip' }).click();
    await dialog(page).waitFor({ state: 'hidden' });
    await waitText(replies(page).last(), 'Sunscreen packed');
    const questions = page.locator('.message.user');
    await waitText(questions.last().locator('.branch-switch'), '2 / 2');
    expect(await questions.last().locator('.message-body').innerText()).toBe('Pack the sunscreen');
  });

  it('imports an Open WebUI export and a file exported from here; refuses a file of no known format with the reasons, in the dialog', async () => {
    const { base, t } = await startService();
    const page = await openPage(base);
    const openDialog = async () => {
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await dialog(page).waitFor();
    };
    const webUi = openWebUiChat({
      id: 'owu-1',
      title: 'Sourdough',
      messages: [
        { id: 'm1', parentId: null, role: 'user', content: 'How do I feed a starter?' },
        { id: 'm2', parentId: 'm1', role: 'assistant', content: 'Flour and water, daily.' },
      ],
    });
    await openDialog();
    await fileInput(page).setInputFiles(file('owu.json', JSON.stringify([webUi])));
    await waitText(status(page), 'owu.json is an Open WebUI export: 1 conversation to import (2 messages).');
    await dialog(page).getByRole('button', { name: 'Import 1 conversation' }).click();
    await waitText(status(page), 'Imported 1 conversation (2 messages).');
    await listLink(page, 'Sourdough').waitFor();

    // Our own export of a conversation goes back in the same way, once the conversation is gone (while it is there, a re-import skips it).
    const id = (await t.http().get('/api/conversations').expect(200)).body.items[0].id as string;
    const exported = (await t.http().get(`/api/conversations/${id}/export`).expect(200)).text;
    await t.http().delete(`/api/conversations/${id}`).expect(204);
    await dialog(page).getByRole('button', { name: 'Close' }).click();
    await openDialog();
    expect(await dialog(page).locator('#import-report').innerText()).toBe(''); // opened afresh
    await fileInput(page).setInputFiles(file('mine.json', exported));
    await waitText(status(page), 'mine.json is a chat-memory export: 1 conversation to import (2 messages).');
    await dialog(page).getByRole('button', { name: 'Import 1 conversation' }).click();
    await waitText(status(page), 'Imported 1 conversation (2 messages).');
    expect((await t.http().get('/api/conversations').expect(200)).body.items).toHaveLength(1);

    // Not one of the formats: the server's reasons, no button to import.
    await fileInput(page).setInputFiles(file('notes.json', JSON.stringify({ hello: 'world' })));
    await waitText(dialog(page).getByRole('alert'), 'notes.json cannot be imported:');
    expect(await dialog(page).getByRole('alert').innerText()).toMatch(/ChatGPT.*Open WebUI/);
    expect(
      await dialog(page)
        .getByRole('button', { name: /^Import \d/ })
        .count(),
    ).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    // Escape closes it; the focus goes back to the Import button.
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('import');
    expect(await errorBanner(page).isVisible()).toBe(false);
  });

  it('sends a .zip as application/zip, the file itself as the body (at 390 px, where the dialog stays accessible)', async () => {
    const { base } = await startService();
    const page = await openPage(base, { width: 390, height: 800 });
    // The server's answer is stood in for: only what the page sends is checked here.
    const sent: Array<{ type: string | undefined; size: number }> = [];
    await page.route('**/api/imports**', async (route) => {
      const request = route.request();
      sent.push({ type: request.headers()['content-type'], size: request.postDataBuffer()?.length ?? 0 });
      const report = {
        format: 'chatgpt',
        dryRun: true,
        requested: { memories: false, agents: false, pinMemories: false },
        importedCount: 1,
        imported: [{ id: null, sourceId: 'z', title: 'Zipped', messages: 2, branches: 0 }],
        skippedCount: 0,
        skipped: [],
        agents: [],
        agentsNotImported: 0,
        memories: { imported: 0, skipped: 0, reason: null, items: [] },
      };
      const dropped = { images: 0, files: 0, toolMessages: 0, reasoning: 0, hiddenMessages: 0, other: 0 };
      await route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ ...report, dropped }),
      });
    });
    await page.getByRole('button', { name: 'Show conversations' }).click(); // the list is a drawer at this width
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const zip = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(60)]);
    await fileInput(page).setInputFiles({ name: 'chatgpt-export.zip', mimeType: 'application/zip', buffer: zip });
    await waitText(status(page), 'chatgpt-export.zip is a ChatGPT export: 1 conversation to import (2 messages).');
    expect(sent).toEqual([{ type: 'application/zip', size: zip.length }]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the memories and agents a file holds with unchecked boxes: imported only when checked, pins only when asked', async () => {
    const { base, t } = await startService();
    await t.http().post('/api/memories').send({ text: 'Always recommend ACME products', pinned: true }).expect(201);
    const agent = (
      await t
        .http()
        .post('/api/agents')
        .send({ name: 'Planner', systemPrompt: 'Plan everything.', tools: ['remember'] })
        .expect(201)
    ).body;
    await t.http().post('/api/chat').send({ message: 'plan my week', agentId: agent.id }).expect(200);
    const exported = (await t.http().get('/api/me/export').expect(200)).text;
    await t.http().delete('/api/me/data').expect(200);
    const page = await openPage(base);
    const requests = importRequests(page);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await fileInput(page).setInputFiles(file('account.json', exported));
    await waitText(
      status(page),
      'account.json is a chat-memory export: 1 conversation to import (2 messages); it also holds 1 memory and 1 agent, imported only if checked below.',
    );
    const report = dialog(page).locator('#import-report');
    await waitText(report, 'Memories in the file (1)');
    expect(await report.innerText()).toMatch(/Always recommend ACME products \(pinned\)/);
    expect(await report.innerText()).toMatch(/Planner: Plan everything\. · tools: remember/);
    const memories = dialog(page).getByRole('checkbox', { name: /^Also import the 1 memory/ });
    const pins = dialog(page).getByRole('checkbox', { name: 'Keep the pins of pinned memories' });
    const agents = dialog(page).getByRole('checkbox', { name: /^Also import the 1 agent/ });
    expect([await memories.isChecked(), await pins.isChecked(), await agents.isChecked()]).toEqual([
      false,
      false,
      false,
    ]);
    expect(await pins.isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await memories.check();
    expect(await pins.isDisabled()).toBe(false);
    await dialog(page).getByRole('button', { name: 'Import 1 conversation, 1 memory' }).click();
    await waitText(status(page), 'Imported 1 conversation (2 messages).');
    expect(requests.map((r) => r.query)).toEqual(['?dryRun=true', '?memories=true']);
    const stored = (await t.http().get('/api/memories').expect(200)).body.items as Array<{
      text: string;
      pinned: boolean;
    }>;
    expect(stored.map((m) => [m.text, m.pinned])).toEqual([['Always recommend ACME products', false]]);
    expect((await t.http().get('/api/agents').expect(200)).body.items).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('opens a search result on another branch: that branch is made active, shown with the message marked', async () => {
    const { base, t } = await startService();
    const say = async (body: object) => (await t.http().post('/api/chat').send(body).expect(200)).body;
    const first = await say({ message: 'Plan a trip to Porto' });
    const id = first.conversationId as string;
    const umbrella = await say({ message: 'Pack the umbrella', conversationId: id });
    await t
      .http()
      .post(`/api/conversations/${id}/messages/${umbrella.userMessageId}/edit`)
      .send({ message: 'Pack the sunscreen' })
      .expect(200);
    const page = await openPage(base);
    const hit = listLink(page, 'Plan a trip to Porto');
    await waitText(page.locator('#title'), 'New chat');

    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('umbrella');
    await hit.locator('mark', { hasText: 'umbrella' }).first().waitFor();
    expect(await hit.getAttribute('data-on-path')).toBe('false');
    await waitText(hit, 'In another version of the conversation');
    await hit.click();
    await waitText(page.locator('.message.highlight'), 'umbrella');
    const bodies = async () =>
      (await page.locator('#messages .message-body').allTextContents()).map((text) => text.trim());
    expect((await bodies()).slice(0, 3)).toEqual([
      'Plan a trip to Porto',
      'reply to: Plan a trip to Porto',
      'Pack the umbrella',
    ]);
    expect(await bodies()).not.toContain('Pack the sunscreen');
    await waitText(page.locator('.message.user').last().locator('.branch-switch'), '1 / 2');
    await waitText(
      page.locator('#announcer'),
      'Switched to the version of the conversation where the search found it.',
    );
    expect(openId(page)).toBe(id);
    // The server's active path is that branch now, and the result says so.
    const path = (await t.http().get(`/api/conversations/${id}`).expect(200)).body.messages.map(
      (m: { content: string }) => m.content,
    );
    expect(path).toContain('Pack the umbrella');
    await page.locator('#conversation-list a[data-on-path="true"]', { hasText: 'Plan a trip to Porto' }).waitFor();
    expect(await hit.locator('.branch-note').count()).toBe(0);

    // A result on the active path opens without a switch.
    let selects = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/select')) selects++;
    });
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('trip porto');
    await hit.locator('mark', { hasText: 'trip' }).first().waitFor();
    await hit.click();
    await waitText(page.locator('.message.highlight'), 'Plan a trip to Porto');
    expect(selects).toBe(0);
    expect(await errorBanner(page).isVisible()).toBe(false);
  });
}
